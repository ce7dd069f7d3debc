"""Keystone v3, as much as keystoneauth1, python-novaclient and the
OpenStack CLIs use: version discovery, password (and token) auth scoped
to a project by name or id, token validation and revocation, the
token's catalog and projects.

Users and projects are given at start. The admin user has the ``admin``
role (and ``member``, ``reader``) in every project, so a service using it
can re-scope to any project it knows, as tacker-ng's reservation service
does to create a lease's server group in the lease's project. Other
users hold one role in one project. A wrong password, an unknown user or
a project the user has no role in are Keystone's one 401, as for real.
"""

from __future__ import annotations

import dataclasses
import datetime
import secrets
import uuid
from typing import Any

from tools.simcloud.nova_lite import errors

DOMAIN = {"id": "default", "name": "Default"}
_V3_VERSION = {
    "id": "v3.14",
    "status": "stable",
    "updated": "2020-04-07T00:00:00Z",
    "media-types": [
        {
            "base": "application/json",
            "type": "application/vnd.openstack.identity-v3+json",
        }
    ],
}
_ROLE_IDS = {name: uuid.uuid4().hex for name in ("admin", "member", "reader")}
#: Roles a token lists for an assignment (Keystone's implied roles).
_IMPLIED = {
    "admin": ("admin", "member", "reader"),
    "member": ("member", "reader"),
    "reader": ("reader",),
}


@dataclasses.dataclass(frozen=True)
class Project:
    id: str
    name: str


@dataclasses.dataclass(frozen=True)
class User:
    id: str
    name: str
    password: str
    #: project id -> role, for users other than the admin
    roles: dict[str, str]
    admin: bool = False


@dataclasses.dataclass(frozen=True)
class Caller:
    """Who a valid token speaks for (what keystonemiddleware passes on)."""

    user_id: str
    user_name: str
    project_id: str | None
    project_name: str | None
    roles: tuple[str, ...]
    token: str

    @property
    def is_admin(self) -> bool:
        return "admin" in self.roles


@dataclasses.dataclass
class Token:
    id: str
    user: User
    project: Project | None
    methods: list[str]
    issued_at: datetime.datetime
    expires_at: datetime.datetime
    audit_id: str

    def caller(self) -> Caller:
        return Caller(
            self.user.id,
            self.user.name,
            self.project.id if self.project else None,
            self.project.name if self.project else None,
            tuple(_roles(self.user, self.project)),
            self.id,
        )


def _roles(user: User, project: Project | None) -> list[str]:
    if project is None:
        return []
    if user.admin:
        return list(_IMPLIED["admin"])
    role = user.roles.get(project.id)
    return list(_IMPLIED.get(role, (role,))) if role else []


def _stamp(when: datetime.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.000000Z")


class Identity:
    """Keystone's users, projects and tokens."""

    def __init__(
        self, base_url: str, region: str, token_ttl: int = 3600 * 12
    ) -> None:
        self.url = f"{base_url}/identity"
        self.base_url = base_url
        self.region = region
        self.token_ttl = token_ttl
        self.projects: dict[str, Project] = {}
        self.users: dict[str, User] = {}
        self.tokens: dict[str, Token] = {}

    # -- set-up --------------------------------------------------------------
    def add_project(self, name: str, project_id: str | None = None) -> str:
        project = Project(project_id or uuid.uuid4().hex, name)
        self.projects[project.id] = project
        return project.id

    def add_user(
        self,
        name: str,
        password: str,
        project: str | None = None,
        role: str = "member",
        admin: bool = False,
    ) -> User:
        roles = {self.project_named(project).id: role} if project else {}
        user = User(uuid.uuid4().hex, name, password, roles, admin)
        self.users[user.id] = user
        return user

    def project_named(self, name: str) -> Project:
        for project in self.projects.values():
            if project.name == name:
                return project
        raise KeyError(name)

    # -- discovery -----------------------------------------------------------
    def versions(self) -> tuple[int, dict, dict[str, str]]:
        version = {**_V3_VERSION, "links": self._self_link()}
        return (
            300,
            {"versions": {"values": [version]}},
            {"Location": f"{self.url}/v3/"},
        )

    def version(self) -> tuple[int, dict, dict[str, str]]:
        return (
            200,
            {"version": {**_V3_VERSION, "links": self._self_link()}},
            {},
        )

    def _self_link(self) -> list[dict[str, str]]:
        return [{"rel": "self", "href": f"{self.url}/v3/"}]

    # -- tokens --------------------------------------------------------------
    def issue(self, body: Any) -> tuple[int, dict, dict[str, str]]:
        """``POST /v3/auth/tokens``."""
        auth = body.get("auth") if isinstance(body, dict) else None
        ident = auth.get("identity") if isinstance(auth, dict) else None
        if not isinstance(ident, dict) or not ident.get("methods"):
            raise _malformed("identity", "auth")
        methods = list(ident["methods"])
        if "password" in methods:
            user = self._password_user(ident.get("password"))
            inherited = None
        elif "token" in methods:
            inherited = self._token((ident.get("token") or {}).get("id"))
            user = inherited.user
        else:
            raise errors.keystone(401, errors.UNAUTHENTICATED)
        project = self._scope(user, auth.get("scope"))
        if project is None and inherited is not None and not auth.get("scope"):
            project = inherited.project
        issued = datetime.datetime.now(datetime.UTC)
        expires = issued + datetime.timedelta(seconds=self.token_ttl)
        if inherited is not None:
            expires = min(expires, inherited.expires_at)
        token = Token(
            secrets.token_urlsafe(32),
            user,
            project,
            methods,
            issued,
            expires,
            secrets.token_urlsafe(16)[:22],
        )
        self.tokens[token.id] = token
        return 201, self.render(token), {"X-Subject-Token": token.id}

    def _password_user(self, password: Any) -> User:
        if not isinstance(password, dict) or not isinstance(
            password.get("user"), dict
        ):
            raise _malformed("user", "password")
        wanted = password["user"]
        for user in self.users.values():
            by_id = wanted.get("id") == user.id
            domain = wanted.get("domain") or {}
            in_domain = domain.get("id") == "default" or (
                domain.get("name") == "Default"
            )
            by_name = wanted.get("name") == user.name and in_domain
            if (by_id or by_name) and secrets.compare_digest(
                str(wanted.get("password", "")), user.password
            ):
                return user
        raise errors.keystone(401, errors.UNAUTHENTICATED)

    def _scope(self, user: User, scope: Any) -> Project | None:
        if not scope or scope == "unscoped":
            return None
        wanted = scope.get("project") if isinstance(scope, dict) else None
        if not isinstance(wanted, dict):
            # domain and system scopes are not modelled
            raise errors.keystone(401, errors.UNAUTHENTICATED)
        for project in self.projects.values():
            domain = wanted.get("domain") or {}
            in_domain = domain.get("id") == "default" or (
                domain.get("name") == "Default"
            )
            if wanted.get("id") == project.id or (
                wanted.get("name") == project.name and in_domain
            ):
                if not _roles(user, project):
                    break
                return project
        raise errors.keystone(401, errors.UNAUTHENTICATED)

    def _token(self, token_id: str | None) -> Token:
        token = self.tokens.get(token_id or "")
        if token is None:
            raise errors.keystone(404, "Could not recognize Fernet token")
        if token.expires_at <= datetime.datetime.now(datetime.UTC):
            self.tokens.pop(token.id, None)
            raise errors.keystone(404, "Could not recognize Fernet token")
        return token

    def caller(self, token_id: str | None) -> Caller:
        """The caller of a service request, or keystonemiddleware's 401."""
        try:
            return self._token(token_id).caller()
        except errors.ApiError:
            raise errors.unauthenticated(f"{self.url}/v3") from None

    def validate(self, auth: str | None, subject: str | None):
        """``GET /v3/auth/tokens``: the subject token, for its owner or
        an admin."""
        caller = self._token_or_401(auth)
        token = self._token(subject)
        if not caller.is_admin and caller.user_id != token.user.id:
            raise errors.keystone(
                403,
                "You are not authorized to perform the requested action: "
                "identity:validate_token.",
            )
        return 200, self.render(token), {"X-Subject-Token": token.id}

    def revoke(self, auth: str | None, subject: str | None):
        self.validate(auth, subject)
        self.tokens.pop(subject or "", None)
        return 204, None, {}

    def _token_or_401(self, token_id: str | None) -> Caller:
        try:
            return self._token(token_id).caller()
        except errors.ApiError:
            raise errors.keystone(401, errors.UNAUTHENTICATED) from None

    def my_projects(self, auth: str | None):
        caller = self._token_or_401(auth)
        user = self.users[caller.user_id]
        return (
            200,
            {
                "projects": [
                    self._project(p)
                    for p in self.projects.values()
                    if _roles(user, p)
                ],
                "links": {"self": f"{self.url}/v3/auth/projects"},
            },
            {},
        )

    def my_catalog(self, auth: str | None):
        caller = self._token_or_401(auth)
        catalog = self.catalog() if caller.project_id else []
        return (
            200,
            {
                "catalog": catalog,
                "links": {"self": f"{self.url}/v3/auth/catalog"},
            },
            {},
        )

    def _project(self, project: Project) -> dict[str, Any]:
        return {
            "id": project.id,
            "name": project.name,
            "domain_id": DOMAIN["id"],
            "description": "",
            "enabled": True,
            "parent_id": DOMAIN["id"],
            "is_domain": False,
            "tags": [],
            "options": {},
            "links": {"self": f"{self.url}/v3/projects/{project.id}"},
        }

    # -- bodies --------------------------------------------------------------
    def catalog(self) -> list[dict[str, Any]]:
        services = (
            ("identity", "keystone", self.url),
            ("compute", "nova", f"{self.base_url}/compute/v2.1"),
            ("placement", "placement", f"{self.base_url}/placement"),
        )
        return [
            {
                "id": f"{kind}-service",
                "type": kind,
                "name": name,
                "endpoints": [
                    {
                        "id": f"{kind}-{interface}",
                        "interface": interface,
                        "region": self.region,
                        "region_id": self.region,
                        "url": url,
                    }
                    for interface in ("public", "internal", "admin")
                ],
            }
            for kind, name, url in services
        ]

    def render(self, token: Token) -> dict[str, Any]:
        user = token.user
        body: dict[str, Any] = {
            "methods": token.methods,
            "user": {
                "domain": DOMAIN,
                "id": user.id,
                "name": user.name,
                "password_expires_at": None,
            },
            "audit_ids": [token.audit_id],
            "expires_at": _stamp(token.expires_at),
            "issued_at": _stamp(token.issued_at),
        }
        if token.project is not None:
            body["project"] = {
                "domain": DOMAIN,
                "id": token.project.id,
                "name": token.project.name,
            }
            body["is_domain"] = False
            body["roles"] = [
                {"id": _ROLE_IDS[r], "name": r}
                for r in _roles(user, token.project)
            ]
            body["catalog"] = self.catalog()
        return {"token": body}


def _malformed(attribute: str, target: str) -> errors.ApiError:
    return errors.keystone(
        400,
        f"Expecting to find {attribute} in {target}. The server could not "
        "comply with the request since it is either malformed or otherwise "
        "incorrect. The client is assumed to be in error.",
    )
