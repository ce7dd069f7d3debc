"""HTTP to a subscriber's callbackUri with the subscription's auth.

Used for the test GET when a subscription is created and for every
notification POST. Supports SOL013 BASIC and OAUTH2_CLIENT_CREDENTIALS;
credentials are decrypted only here and never logged. The callbackUri and
the token endpoint are the caller's choice: every connection obeys the
outbound policy (:mod:`tacker_ng.outbound`), and a failure is reported in
words that do not tell a refused port from a closed one.
"""

import threading
import time
from typing import Any

import requests
from oslo_config import cfg

from tacker_ng import crypto, outbound

_TOKENS: dict[tuple[str, str], tuple[str, float]] = {}
_LOCK = threading.Lock()


class CallbackError(Exception):
    """The callback could not be reached or answered an error.

    ``str()`` is safe to show the subscriber; ``cause`` (for the log
    only) says what exactly happened.
    """

    def __init__(self, message: str, cause: str = "") -> None:
        super().__init__(message)
        self.cause = cause or message


def _utf8_credentials(user: str, password: str) -> tuple[bytes, bytes]:
    """HTTP basic credentials as UTF-8 (RFC 7617); requests would encode
    them as latin-1 and fail on any other character."""
    return user.encode("utf-8"), password.encode("utf-8")


def check_urls(
    callback_uri: str,
    authentication: dict[str, Any] | None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> None:
    """400 when the callbackUri or the OAuth2 token endpoint is not an
    http(s) URL the outbound policy allows."""
    outbound.check_url(callback_uri, "callbackUri", conf=conf)
    params = (authentication or {}).get("paramsOauth2ClientCredentials")
    if params and params.get("tokenEndpoint"):
        outbound.check_url(
            params["tokenEndpoint"],
            "paramsOauth2ClientCredentials.tokenEndpoint",
            conf=conf,
        )


def _unreachable(what: str, exc: BaseException) -> CallbackError:
    if outbound.is_policy_refusal(exc):
        return CallbackError(
            f"the {what} address is not allowed by the VNF manager's "
            "outbound policy",
            f"{type(exc).__name__}: {exc}",
        )
    return CallbackError(
        f"the {what} could not be reached",
        f"{type(exc).__name__}: {exc}",
    )


def _oauth2_token(
    sess: requests.Session, params: dict[str, Any], timeout: float, verify
) -> str:
    key = (params["tokenEndpoint"], params["clientId"])
    with _LOCK:
        cached = _TOKENS.get(key)
        if cached and time.monotonic() < cached[1] - 30:
            return cached[0]
    try:
        resp = sess.post(
            params["tokenEndpoint"],
            data={"grant_type": "client_credentials"},
            auth=_utf8_credentials(
                params["clientId"], crypto.decrypt(params["clientPassword"])
            ),
            timeout=timeout,
            verify=verify,
            allow_redirects=False,
        )
    except (requests.RequestException, ValueError, UnicodeError) as exc:
        raise _unreachable("OAuth2 token endpoint", exc) from exc
    if resp.status_code != 200:
        raise CallbackError(
            f"the OAuth2 token endpoint answered {resp.status_code}"
        )
    body = resp.json()
    token = body["access_token"]
    with _LOCK:
        _TOKENS[key] = (
            token,
            time.monotonic() + int(body.get("expires_in", 300)),
        )
    return token


def send(
    callback_uri: str,
    authentication: dict[str, Any] | None,
    method: str = "POST",
    payload: dict[str, Any] | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> requests.Response:
    """One request to the callback; raise CallbackError when unreachable."""
    timeout = conf.notification.timeout
    verify = conf.notification.verify_tls
    headers = {"Version": "2.0.0"}
    auth = None
    auth_types = (authentication or {}).get("authType") or []
    with outbound.session(conf) as sess:
        if "OAUTH2_CLIENT_CREDENTIALS" in auth_types:
            token = _oauth2_token(
                sess,
                authentication["paramsOauth2ClientCredentials"],
                timeout,
                verify,
            )
            headers["Authorization"] = f"Bearer {token}"
        elif "BASIC" in auth_types:
            basic = authentication["paramsBasic"]
            auth = _utf8_credentials(
                basic["userName"], crypto.decrypt(basic["password"])
            )
        try:
            return sess.request(
                method,
                callback_uri,
                json=payload,
                headers=headers,
                auth=auth,
                timeout=timeout,
                verify=verify,
                allow_redirects=False,
            )
        except (requests.RequestException, ValueError, UnicodeError) as exc:
            raise _unreachable("callbackUri", exc) from exc
