"""The caller's identity as WSGI environ keys, the way keystonemiddleware
hands it to oslo.context (``HTTP_X_USER_ID``, ``HTTP_X_PROJECT_ID``,
``HTTP_X_ROLES``), for the strategies that are not keystonemiddleware.

Identity headers sent by a client are dropped before authentication, so
a caller can never grant itself roles with an ``X-Roles`` header.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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

#: Keystone's default role implications (admin -> member -> reader), so
#: that a role granted by configuration passes the same policy checks as
#: the Keystone role of that name.
_IMPLIED = {"admin": ("member", "reader"), "member": ("reader",)}


def with_implied_roles(roles: Iterable[str]) -> list[str]:
    """``roles`` plus the roles each implies, in a stable order."""
    result: list[str] = []
    for role in roles:
        for name in (role, *_IMPLIED.get(role, ())):
            if name and name not in result:
                result.append(name)
    return result


def strip_identity(environ: dict) -> None:
    """Remove every identity key a client could have sent."""
    for key in [k for k in environ if k.startswith(_IDENTITY_PREFIXES)]:
        del environ[key]


def set_identity(
    environ: dict, user: str, project_id: str, roles: Iterable[str]
) -> None:
    """Mark the request as authenticated as ``user`` in ``project_id``."""
    environ.update(
        {
            "HTTP_X_IDENTITY_STATUS": "Confirmed",
            "HTTP_X_USER_ID": user,
            "HTTP_X_USER_NAME": user,
            "HTTP_X_ROLES": ",".join(with_implied_roles(roles)),
            "HTTP_X_PROJECT_ID": project_id,
        }
    )


class StripIdentityHeaders:
    """Drop every identity header the client sent."""

    def __init__(self, app: Callable) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        strip_identity(environ)
        return self.app(environ, start_response)


class SetIdentity:
    """Give a caller that a previous filter authenticated (its name in
    ``HTTP_X_USER``, as oslo.middleware's basic auth leaves it) a project
    and roles: ``admins`` get admin, everyone else ``roles``;
    ``projects`` maps user names to projects, others act in
    ``project_id``."""

    def __init__(
        self,
        app: Callable,
        roles: list[str],
        project_id: str,
        admins: Iterable[str] = (),
        projects: dict[str, str] | None = None,
    ) -> None:
        self.app = app
        self.roles = list(roles)
        self.project_id = project_id
        self.admins = frozenset(admins)
        self.projects = dict(projects or {})

    def __call__(self, environ, start_response):
        user = environ.get("HTTP_X_USER", "noauth")
        roles = ["admin", *self.roles] if user in self.admins else self.roles
        project = self.projects.get(user, self.project_id)
        set_identity(environ, user, project, roles)
        return self.app(environ, start_response)
