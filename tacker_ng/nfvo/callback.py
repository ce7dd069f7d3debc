"""HTTP to a subscriber's callbackUri with the subscription's auth.

Used for the test GET when a subscription is created and for every
notification POST. Supports SOL013 BASIC and OAUTH2_CLIENT_CREDENTIALS;
credentials are decrypted only here and never logged.
"""

import threading
import time
from typing import Any

import requests
from oslo_config import cfg

from tacker_ng import crypto

_TOKENS: dict[tuple[str, str], tuple[str, float]] = {}
_LOCK = threading.Lock()


class CallbackError(Exception):
    """The callback could not be reached or answered an error."""


def _oauth2_token(params: dict[str, Any], timeout: float, verify) -> str:
    key = (params["tokenEndpoint"], params["clientId"])
    with _LOCK:
        cached = _TOKENS.get(key)
        if cached and time.monotonic() < cached[1] - 30:
            return cached[0]
    resp = requests.post(
        params["tokenEndpoint"],
        data={"grant_type": "client_credentials"},
        auth=(params["clientId"], crypto.decrypt(params["clientPassword"])),
        timeout=timeout,
        verify=verify,
    )
    if resp.status_code != 200:
        raise CallbackError(
            f"token endpoint {params['tokenEndpoint']} answered "
            f"{resp.status_code}"
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
    try:
        if "OAUTH2_CLIENT_CREDENTIALS" in auth_types:
            token = _oauth2_token(
                authentication["paramsOauth2ClientCredentials"],
                timeout,
                verify,
            )
            headers["Authorization"] = f"Bearer {token}"
        elif "BASIC" in auth_types:
            basic = authentication["paramsBasic"]
            auth = (basic["userName"], crypto.decrypt(basic["password"]))
        return requests.request(
            method,
            callback_uri,
            json=payload,
            headers=headers,
            auth=auth,
            timeout=timeout,
            verify=verify,
            allow_redirects=False,
        )
    except requests.RequestException as exc:
        raise CallbackError(f"{type(exc).__name__}: {exc}") from exc
