"""HTTP to a subscriber's callbackUri with the subscription's auth.

Used for the test GET when a subscription is created and for every
notification POST. Supports SOL013 BASIC and OAUTH2_CLIENT_CREDENTIALS;
credentials are decrypted only here and never logged. The callbackUri and
the token endpoint are the caller's choice: every connection obeys the
outbound policy (:mod:`tacker_ng.outbound`), and a failure is reported in
words that do not tell a refused port from a closed one. A URL with user
info is refused: credentials belong in ``authentication`` (SOL013).
``[notification] client_cert_file`` is presented on TLS connections
(mutual TLS), ``ca_file`` verifies the receivers' certificates.
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
    http(s) URL the outbound policy allows, or carries credentials."""
    outbound.check_url(
        callback_uri,
        "callbackUri",
        conf=conf,
        credentials_in="authentication (paramsBasic or "
        "paramsOauth2ClientCredentials)",
    )
    params = (authentication or {}).get("paramsOauth2ClientCredentials")
    if params and params.get("tokenEndpoint"):
        outbound.check_url(
            params["tokenEndpoint"],
            "paramsOauth2ClientCredentials.tokenEndpoint",
            conf=conf,
            credentials_in="paramsOauth2ClientCredentials (clientId and "
            "clientPassword)",
        )


def _tls(conf: cfg.ConfigOpts) -> dict[str, Any]:
    """``verify`` and ``cert`` of every request to a receiver."""
    n = conf.notification
    return {
        "verify": (n.ca_file or True) if n.verify_tls else False,
        "cert": outbound.client_cert(
            "notification", "notification receivers", conf
        ),
    }


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
    sess: requests.Session,
    params: dict[str, Any],
    timeout: float,
    tls: dict[str, Any],
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
            allow_redirects=False,
            **tls,
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


#: The ``Version`` a notification carries: its interface's (SOL013 9.1),
#: as served by the API (tacker_ng/api/versions.py).
NOTIFICATION_VERSIONS = {
    "VnfLcmOperationOccurrenceNotification": "2.0.0",
    "VnfIdentifierCreationNotification": "2.0.0",
    "VnfIdentifierDeletionNotification": "2.0.0",
    "AlarmNotification": "1.3.0",
    "AlarmClearedNotification": "1.3.0",
    "AlarmListRebuiltNotification": "1.3.0",
    "PerformanceInformationAvailableNotification": "2.1.0",
    "ThresholdCrossedNotification": "2.1.0",
    "VnfPackageOnboardingNotification": "2.1.0",
    "VnfPackageChangeNotification": "2.1.0",
}
DEFAULT_VERSION = "2.0.0"


def version_of(payload: dict[str, Any] | None) -> str:
    """The ``Version`` header for ``payload`` (the test GET has none)."""
    kind = (payload or {}).get("notificationType")
    return NOTIFICATION_VERSIONS.get(kind, DEFAULT_VERSION)


def send(
    callback_uri: str,
    authentication: dict[str, Any] | None,
    method: str = "POST",
    payload: dict[str, Any] | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> requests.Response:
    """One request to the callback; raise CallbackError when unreachable
    (or when the URI carries credentials: never sent as Basic auth)."""
    if outbound.has_userinfo(callback_uri):
        raise CallbackError(
            "the callbackUri carries credentials; give them in authentication"
        )
    timeout = conf.notification.timeout
    tls = _tls(conf)
    headers = {"Version": version_of(payload)}
    auth = None
    auth_types = (authentication or {}).get("authType") or []
    with outbound.session(conf) as sess:
        if "OAUTH2_CLIENT_CREDENTIALS" in auth_types:
            token = _oauth2_token(
                sess,
                authentication["paramsOauth2ClientCredentials"],
                timeout,
                tls,
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
                allow_redirects=False,
                **tls,
            )
        except (requests.RequestException, ValueError, UnicodeError) as exc:
            raise _unreachable("callbackUri", exc) from exc
