"""From an introspected token's claims (RFC 7662) to a caller: pure
rules, no I/O, so every refusal can be tested without a server.

A token is refused (401 ``invalid_token``) when it is inactive, expired,
not yet valid, for another audience or issuer, or bound to a certificate
the connection did not present; it is valid but useless (403
``insufficient_scope``) when it maps to no project or no role.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from tacker_ng.auth import certificates

KNOWN_ROLES = ("admin", "member", "reader")
#: Seconds of clock difference tolerated on exp/nbf.
LEEWAY = 30


class InvalidToken(Exception):
    """The token must not be accepted; ``public`` is safe to show."""

    def __init__(self, public: str, reason: str = "") -> None:
        super().__init__(reason or public)
        self.public = public


class InsufficientScope(Exception):
    """A valid token that grants no role (or no project) here."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """How claims map to a caller (``[external_oauth2]``)."""

    audience: str
    issuer: str | None = None
    user_claim: str = "sub"
    project_claim: str = "project_id"
    default_project_id: str | None = None
    roles_claim: str | None = None
    scope_roles: tuple[tuple[str, str], ...] = ()
    require_bound: bool = False


@dataclasses.dataclass(frozen=True)
class Caller:
    user: str
    project_id: str
    roles: tuple[str, ...]


def parse_scope_roles(pairs: list[str]) -> tuple[tuple[str, str], ...]:
    """``["scope=role", ...]`` -> pairs; the role must be a known one."""
    result = []
    for pair in pairs:
        scope, sep, role = pair.rpartition("=")
        role = role.strip()
        if not sep or not scope.strip() or role not in KNOWN_ROLES:
            raise ValueError(
                f"[external_oauth2] scope_roles entry {pair!r}: expected "
                f"scope=role with role one of {', '.join(KNOWN_ROLES)}"
            )
        result.append((scope.strip(), role))
    return tuple(result)


def claim(claims: Mapping[str, Any], path: str | None) -> Any:
    """The value at a dotted ``path`` of nested claims, or None."""
    value: Any = claims
    for part in (path or "").split(".") if path else ():
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return None if value is claims else value


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def check_validity(
    claims: Mapping[str, Any], rules: Rules, now: float
) -> None:
    """Raise :class:`InvalidToken` unless the claims describe a token
    that is active now, for this audience and issuer."""
    if claims.get("active") is not True:
        raise InvalidToken("The access token is not active.")
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or exp + LEEWAY < now:
        raise InvalidToken("The access token has expired.", f"exp={exp}")
    nbf = claims.get("nbf")
    if isinstance(nbf, (int, float)) and nbf - LEEWAY > now:
        raise InvalidToken("The access token is not valid yet.")
    if rules.audience not in _words(claims.get("aud")):
        raise InvalidToken(
            "The access token is not meant for this VNFM (audience).",
            f"aud={claims.get('aud')!r}",
        )
    if rules.issuer and claims.get("iss") != rules.issuer:
        raise InvalidToken(
            "The access token comes from an issuer this VNFM does not trust.",
            f"iss={claims.get('iss')!r}",
        )


def check_binding(
    confirmation: Any, certificate: bytes | None, require: bool
) -> None:
    """RFC 8705: a certificate-bound token is used only with its
    certificate; with ``require`` unbound tokens are refused too."""
    thumb = (
        confirmation.get("x5t#S256")
        if isinstance(confirmation, Mapping)
        else None
    )
    if thumb:
        if not certificates.bound_to(thumb, certificate):
            raise InvalidToken(
                "The access token is bound to another client certificate."
            )
    elif require:
        raise InvalidToken(
            "The access token is not bound to a client certificate."
        )


def roles_of(claims: Mapping[str, Any], rules: Rules) -> tuple[str, ...]:
    """Roles granted by the roles claim and the scope mapping."""
    granted = [
        r for r in _words(claim(claims, rules.roles_claim)) if r in KNOWN_ROLES
    ]
    scopes = set(_words(claims.get("scope")))
    granted += [role for scope, role in rules.scope_roles if scope in scopes]
    return tuple(dict.fromkeys(granted))


def caller_of(
    claims: Mapping[str, Any],
    rules: Rules,
    now: float,
    certificate: bytes | None,
) -> Caller:
    """The caller a token stands for, or an exception saying why not."""
    check_validity(claims, rules, now)
    check_binding(claims.get("cnf"), certificate, rules.require_bound)
    user = claim(claims, rules.user_claim) or claims.get("client_id")
    if not isinstance(user, str) or not user:
        raise InvalidToken("The access token names no client.")
    project = claim(claims, rules.project_claim) or rules.default_project_id
    if not isinstance(project, str) or not project:
        raise InsufficientScope("The access token names no project.")
    roles = roles_of(claims, rules)
    if not roles:
        raise InsufficientScope(
            "The access token's scope grants no role on this VNFM."
        )
    return Caller(user=user, project_id=project, roles=roles)
