"""Least privilege by default: find configurations that make every
authenticated caller an admin (who sees and changes every project's
VNFs), for ``tacker-ng-status upgrade check``."""

from __future__ import annotations

from oslo_config import cfg

from tacker_ng.auth import claims


def everyone_admin(conf: cfg.ConfigOpts) -> str | None:
    """Why every caller would be admin under ``conf``, or None."""
    api = conf.api
    strategy = api.auth_strategy
    if strategy == "noauth" and "admin" in api.noauth_roles:
        return (
            "auth_strategy = noauth with admin in [api] noauth_roles: "
            "anyone who reaches the API is admin of every project."
        )
    if strategy == "http_basic" and "admin" in api.http_basic_roles:
        return (
            "[api] http_basic_roles contains admin: every HTTP basic user "
            "is admin of every project. Remove it and name the admins in "
            "[api] http_basic_admin_users."
        )
    if strategy == "external_oauth2":
        try:
            pairs = claims.parse_scope_roles(conf.external_oauth2.scope_roles)
        except ValueError as exc:
            return str(exc)
        if any(scope == "" for scope, _ in pairs):  # pragma: no cover
            return "an empty scope in [external_oauth2] scope_roles"
        opts = conf.external_oauth2
        if not pairs and not opts.roles_claim:
            return (
                "auth_strategy = external_oauth2 maps no scope or claim to "
                "a role ([external_oauth2] scope_roles, roles_claim): "
                "every token will get 403."
            )
    return None
