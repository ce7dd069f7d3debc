"""``auth_strategy = oauth2``: access tokens from Keystone's OAuth 2.0
token endpoint (``POST /v3/OS-OAUTH2/token``, client credentials grant,
the client being a Keystone application credential).

keystonemiddleware's oauth2_token filter validates them (they are
Keystone tokens; ``[keystone_authtoken]`` configures it, and it caches
validated tokens for ``token_cache_time``, never past their expiry). Two
things are added around it: the RFC 6750 ``Bearer`` challenge on 401,
and the certificate binding of RFC 8705. Keystone puts the thumbprint of
the certificate that obtained a token into ``oauth2_credential``; a bound
token presented over a connection with another certificate (or none) is
refused. keystonemiddleware's own oauth2_mtls_token filter cannot do
that here: it reads the certificate through eventlet's
``wsgi.input.get_socket()``.
"""

from __future__ import annotations

from keystonemiddleware import oauth2_token
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.auth import bearer, certificates, claims

LOG = logging.getLogger(__name__)


class CertificateBinding:
    """Behind keystonemiddleware: check the token's certificate binding."""

    def __init__(self, app, require_bound: bool) -> None:
        self.app = app
        self.require_bound = require_bound

    def __call__(self, environ, start_response):
        info = environ.get("keystone.token_info") or {}
        token = info.get("token") or {}
        confirmation = token.get("oauth2_credential")
        try:
            claims.check_binding(
                confirmation,
                certificates.peer_certificate(environ),
                self.require_bound,
            )
        except claims.InvalidToken as exc:
            LOG.info(
                "Refused Keystone access token of user %s: %s",
                environ.get("HTTP_X_USER_ID"),
                exc,
            )
            resp = bearer.unauthorized("invalid_token", exc.public)
            return resp(environ, start_response)
        return self.app(environ, start_response)


def wrap(app, conf: cfg.ConfigOpts):
    """Keystone OAuth 2.0 in front of ``app``."""
    inner = CertificateBinding(app, conf.api.oauth2_require_bound_tokens)
    protocol = oauth2_token.OAuth2Protocol(inner, {"oslo_config_config": conf})
    return bearer.BearerChallenge(protocol)
