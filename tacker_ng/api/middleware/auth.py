"""Authentication pipelines for ``[api] auth_strategy``.

* ``keystone``: keystonemiddleware auth_token (it strips spoofed identity
  headers itself).
* ``http_basic``: oslo.middleware's htpasswd (bcrypt) basic auth.
* ``noauth``: nobody is asked; for tests and demos.

For the last two, identity headers sent by the client are removed before
authentication and the configured roles/project are set after it, so a
caller can never grant itself roles with an ``X-Roles`` header.
"""

from keystonemiddleware import auth_token
from oslo_config import cfg
from oslo_middleware import basic_auth

#: WSGI environ keys that carry identity; never trusted from a client.
_IDENTITY_PREFIXES = (
    "HTTP_X_IDENTITY_STATUS",
    "HTTP_X_SERVICE_",
    "HTTP_X_ROLE",
    "HTTP_X_USER",
    "HTTP_X_PROJECT",
    "HTTP_X_TENANT",
    "HTTP_X_DOMAIN",
    "HTTP_X_SYSTEM_SCOPE",
    "HTTP_X_IS_ADMIN_PROJECT",
    "HTTP_X_AUTH_TOKEN",
    "HTTP_X_AUTH_",
)


class StripIdentityHeaders:
    """Drop every identity header the client sent."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        for key in [k for k in environ if k.startswith(_IDENTITY_PREFIXES)]:
            del environ[key]
        return self.app(environ, start_response)


class SetIdentity:
    """Give the authenticated caller the configured roles and project."""

    def __init__(self, app, roles: list[str], project_id: str) -> None:
        self.app = app
        self.roles = ",".join(roles)
        self.project_id = project_id

    def __call__(self, environ, start_response):
        user = environ.get("HTTP_X_USER", "noauth")
        environ.update(
            {
                "HTTP_X_IDENTITY_STATUS": "Confirmed",
                "HTTP_X_USER_ID": user,
                "HTTP_X_USER_NAME": user,
                "HTTP_X_ROLES": self.roles,
                "HTTP_X_PROJECT_ID": self.project_id,
            }
        )
        return self.app(environ, start_response)


def wrap(app, conf: cfg.ConfigOpts):
    """Put the configured authentication in front of ``app``."""
    strategy = conf.api.auth_strategy
    project = conf.api.http_basic_project_id
    if strategy == "keystone":
        return auth_token.AuthProtocol(app, {"oslo_config_config": conf})
    if strategy == "http_basic":
        inner = SetIdentity(app, conf.api.http_basic_roles, project)
        return StripIdentityHeaders(basic_auth.BasicAuthMiddleware(inner))
    return StripIdentityHeaders(
        SetIdentity(app, conf.api.noauth_roles, project)
    )
