"""Tacker's VIM resource (``/v1.0/vims``, as python-tackerclient sends
and shows it) and the SOL003 VimConnectionInfo tacker-ng stores.

``openstack`` VIMs become ``ETSINFV.OPENSTACK_KEYSTONE.V_3`` entries,
``kubernetes`` VIMs ``ETSINFV.KUBERNETES.V_1`` ones. The view never
carries a secret (passwords, bearer tokens): Tacker masked them, tacker-ng
leaves them out. Pure translation, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

OPENSTACK = "ETSINFV.OPENSTACK_KEYSTONE.V_3"
KUBERNETES = "ETSINFV.KUBERNETES.V_1"
TYPES = {"openstack": OPENSTACK, "kubernetes": KUBERNETES}
LEGACY_TYPES = {v: k for k, v in TYPES.items()}


class Unsupported(ValueError):
    """A VIM body tacker-ng cannot drive (said in the caller's terms)."""


def _openstack(vim: Mapping[str, Any]) -> dict[str, Any]:
    cred = vim.get("auth_cred") or {}
    project = vim.get("vim_project") or {}
    if not project.get("name"):
        raise Unsupported("vim_project.name is required for an openstack VIM")
    if not cred.get("username") or not cred.get("password"):
        raise Unsupported(
            "auth_cred.username and auth_cred.password are required for an "
            "openstack VIM"
        )
    access = {
        "username": cred["username"],
        "password": cred["password"],
        "project": project["name"],
        "projectDomain": project.get("project_domain_name") or "Default",
        "userDomain": cred.get("user_domain_name") or "Default",
    }
    region = (vim.get("extra") or {}).get("region")
    if region:
        access["region"] = region
    return {
        "vimType": OPENSTACK,
        "interfaceInfo": {
            "endpoint": vim["auth_url"],
            "skipCertificateVerification": str(cred.get("cert_verify", "True"))
            == "False",
        },
        "accessInfo": access,
    }


def _kubernetes(vim: Mapping[str, Any]) -> dict[str, Any]:
    cred = vim.get("auth_cred") or {}
    if cred.get("oidc_token_url") or not cred.get("bearer_token"):
        raise Unsupported(
            "a kubernetes VIM needs auth_cred.bearer_token (username/"
            "password and OIDC logins are not supported)"
        )
    interface: dict[str, Any] = {"endpoint": vim["auth_url"]}
    if cred.get("ssl_ca_cert"):
        interface["ssl_ca_cert"] = cred["ssl_ca_cert"]
    namespace = (vim.get("vim_project") or {}).get("name")
    extra = {"namespace": namespace} if namespace else {}
    return {
        "vimType": KUBERNETES,
        "interfaceInfo": interface,
        "accessInfo": {"bearer_token": cred["bearer_token"]},
        **({"extra": extra} if extra else {}),
    }


def to_vim_connection_info(vim: Mapping[str, Any]) -> dict[str, Any]:
    """The VimConnectionInfo (secrets in clear) of a Tacker VIM body."""
    kind = vim.get("type") or "openstack"
    if kind == "openstack":
        return _openstack(vim)
    if kind == "kubernetes":
        return _kubernetes(vim)
    raise Unsupported(
        f"VIM type {kind!r}: supported are openstack, kubernetes"
    )


def to_legacy(vci: Mapping[str, Any]) -> dict[str, Any]:
    """The Tacker VIM fields (no secrets) of a stored VimConnectionInfo,
    the inverse of :func:`to_vim_connection_info` as far as it shows."""
    interface = vci.get("interfaceInfo") or {}
    access = vci.get("accessInfo") or {}
    kind = LEGACY_TYPES.get(vci.get("vimType", ""), vci.get("vimType"))
    out: dict[str, Any] = {"type": kind, "auth_url": interface.get("endpoint")}
    if kind == "openstack":
        out["vim_project"] = {
            "name": access.get("project"),
            "project_domain_name": access.get("projectDomain"),
        }
        out["auth_cred"] = {
            "username": access.get("username"),
            "user_domain_name": access.get("userDomain"),
            "cert_verify": str(
                not interface.get("skipCertificateVerification")
            ),
        }
        region = access.get("region")
        out["placement_attr"] = {"regions": [region] if region else []}
    else:
        namespace = (vci.get("extra") or {}).get("namespace")
        out["vim_project"] = {"name": namespace} if namespace else {}
        out["auth_cred"] = (
            {"ssl_ca_cert": interface["ssl_ca_cert"]}
            if interface.get("ssl_ca_cert")
            else {}
        )
        out["placement_attr"] = {}
    return out


def updated(
    vci: Mapping[str, Any], kind: str, change: Mapping[str, Any]
) -> dict[str, Any]:
    """``vci`` (secrets in clear) with a PUT's ``auth_cred`` /
    ``vim_project`` / ``auth_url`` applied; what is not named stays."""
    current = {"type": kind, **to_legacy(vci)}
    access = vci.get("accessInfo") or {}
    cred = dict(current.get("auth_cred") or {})
    for key in ("password", "bearer_token"):
        if access.get(key):
            cred[key] = access[key]
    cred.update(change.get("auth_cred") or {})
    project = dict(current.get("vim_project") or {})
    project.update(change.get("vim_project") or {})
    merged = {
        **current,
        "auth_url": change.get("auth_url") or current["auth_url"],
        "auth_cred": cred,
        "vim_project": project,
    }
    region = access.get("region")
    if region:
        merged["extra"] = {"region": region}
    return to_vim_connection_info(merged)


def view(row: Mapping[str, Any], vci: Mapping[str, Any]) -> dict[str, Any]:
    """The Tacker VIM object of a registry row (``vci`` masked or not:
    :func:`to_legacy` shows no secret either way)."""
    provider = row.get("provider_vnf_instance_id")
    body = {
        "id": row["vim_id"],
        "name": row.get("name") or row["vim_id"],
        "description": row.get("description") or "",
        "tenant_id": row.get("project_id"),
        "is_default": bool(row.get("default_project")),
        "status": row.get("status") or "PENDING",
        "status_detail": row.get("status_detail"),
        "created_at": row.get("created_at"),
        "updated_at": row.get("updated_at"),
        "extra": {"providedByVnfInstanceId": provider} if provider else {},
        **to_legacy(vci),
    }
    return body
