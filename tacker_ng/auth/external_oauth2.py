"""``auth_strategy = external_oauth2``: bearer tokens of any RFC 7662
authorization server (Keycloak, an NFVO's own, ...), their claims mapped
to a project and roles by ``[external_oauth2]``.

keystonemiddleware's external_oauth2_token filter was measured against
this job and not used: it caches for a fixed time regardless of the
token's expiry, answers 401 with ``WWW-Authenticate: Authorization OAuth
2.0``, not RFC 6750's ``Bearer``, reads the client certificate through
``wsgi.input.get_socket()`` (eventlet's, absent under gunicorn and
cheroot), and needs Keystone-shaped project/role claims.
"""

from __future__ import annotations

import time

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.auth import (
    bearer,
    certificates,
    claims,
    identity,
    introspection,
)

LOG = logging.getLogger(__name__)


def rules_from(conf: cfg.ConfigOpts) -> claims.Rules:
    """The claim rules as configured (raises ValueError when wrong)."""
    opts = conf.external_oauth2
    return claims.Rules(
        audience=opts.audience or "",
        issuer=opts.issuer or None,
        user_claim=opts.user_claim,
        project_claim=opts.project_claim,
        default_project_id=opts.default_project_id or None,
        roles_claim=opts.roles_claim or None,
        scope_roles=claims.parse_scope_roles(opts.scope_roles),
        require_bound=conf.api.oauth2_require_bound_tokens,
    )


class ExternalOAuth2:
    """Authenticate by introspection, then hand over to ``app``."""

    def __init__(self, app, conf: cfg.ConfigOpts) -> None:
        self.app = app
        self.rules = rules_from(conf)
        self.introspector = introspection.Introspector(conf)

    def __call__(self, environ, start_response):
        identity.strip_identity(environ)
        token = bearer.token_from(environ)
        if token is None:
            resp = bearer.unauthorized(None, "A bearer token is required.")
            return resp(environ, start_response)
        name = bearer.fingerprint(token)
        try:
            found = self.introspector.claims(token)
            caller = claims.caller_of(
                found,
                self.rules,
                time.time(),
                certificates.peer_certificate(environ),
            )
        except introspection.Unavailable:
            resp = bearer.unavailable(
                "The authorization server could not validate the access "
                "token; try again later."
            )
            return resp(environ, start_response)
        except claims.InvalidToken as exc:
            LOG.info("Refused access token %s: %s", name, exc)
            resp = bearer.unauthorized("invalid_token", exc.public)
            return resp(environ, start_response)
        except claims.InsufficientScope as exc:
            LOG.info("Access token %s grants nothing here: %s", name, exc)
            resp = bearer.insufficient_scope(str(exc))
            return resp(environ, start_response)
        identity.set_identity(
            environ, caller.user, caller.project_id, caller.roles
        )
        return self.app(environ, start_response)
