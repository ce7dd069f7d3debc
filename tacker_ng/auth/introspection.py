"""RFC 7662 token introspection at an external authorization server.

One POST per token per lifetime: active answers are cached until the
token's ``exp`` (capped by ``[external_oauth2] cache_max_seconds``);
inactive answers are not cached, so a token that becomes valid (clock
skew at the issuer) is not refused for long. The token is sent only to
the configured endpoint and never logged; logs name it by fingerprint.
"""

from __future__ import annotations

import time
from typing import Any

import requests
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.auth import bearer, token_cache

LOG = logging.getLogger(__name__)


class Unavailable(Exception):
    """The authorization server gave no usable answer."""


class Introspector:
    """Asks ``[external_oauth2] introspection_endpoint`` about tokens."""

    def __init__(self, conf: cfg.ConfigOpts) -> None:
        opts = conf.external_oauth2
        if not opts.introspection_endpoint or not opts.audience:
            raise ValueError(
                "auth_strategy = external_oauth2 needs [external_oauth2] "
                "introspection_endpoint and audience"
            )
        if not opts.client_id:
            raise ValueError("[external_oauth2] client_id is required")
        self._endpoint = opts.introspection_endpoint
        self._method = opts.client_auth_method
        self._client_id = opts.client_id
        self._secret = opts.client_secret or ""
        self._timeout = opts.timeout
        self._cap = opts.cache_max_seconds
        self._cache = token_cache.TokenCache(opts.cache_size)
        self._session = requests.Session()
        # Per request, not on the session: requests lets the environment
        # (REQUESTS_CA_BUNDLE) override a session's ``verify``.
        self._verify: str | bool = opts.ca_file or True
        self._cert: str | tuple[str, str] | None = None
        if opts.client_cert_file:
            self._cert = (
                (opts.client_cert_file, opts.client_key_file)
                if opts.client_key_file
                else opts.client_cert_file
            )

    def _request(self, token: str) -> requests.Response:
        data = {"token": token, "token_type_hint": "access_token"}
        auth = None
        if self._method == "client_secret_basic":
            auth = (self._client_id, self._secret)
        else:
            data["client_id"] = self._client_id
            if self._method == "client_secret_post":
                data["client_secret"] = self._secret
        return self._session.post(
            self._endpoint,
            data=data,
            auth=auth,
            headers={"Accept": "application/json"},
            timeout=self._timeout,
            allow_redirects=False,
            verify=self._verify,
            cert=self._cert,
        )

    def claims(self, token: str) -> dict[str, Any]:
        """The introspection answer for ``token`` (cached while active)."""
        cached = self._cache.get(token)
        if cached is not None:
            return cached
        try:
            resp = self._request(token)
        except requests.RequestException as exc:
            LOG.warning(
                "Token introspection at the authorization server failed: %s",
                exc,
            )
            raise Unavailable from None
        if resp.status_code != 200:
            LOG.warning(
                "Token introspection answered HTTP %d (check [external_"
                "oauth2] client_id/client_secret)",
                resp.status_code,
            )
            raise Unavailable
        try:
            claims = resp.json()
        except ValueError:
            claims = None
        if not isinstance(claims, dict):
            LOG.warning("Token introspection answered no JSON object")
            raise Unavailable
        if claims.get("active") is True:
            self._cache.put(token, claims, self._expiry(claims))
        else:
            LOG.info(
                "Token %s is not active at the authorization server",
                bearer.fingerprint(token),
            )
        return claims

    def _expiry(self, claims: dict[str, Any]) -> float:
        exp = claims.get("exp")
        expires = float(exp) if isinstance(exp, (int, float)) else 0.0
        if self._cap:
            expires = min(expires, time.time() + self._cap)
        return expires
