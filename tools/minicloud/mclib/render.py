"""Render the config templates in tools/minicloud/etc into HOME/etc.

Templates carry ``@NAME@`` tokens: paths (HOME, ETC, DATA, LOGS, VENV),
``DB:<database>``, ``PORT:<service>``, ``SERVICE_AUTH:<user>`` (a
keystoneauth password block), and per-file extras such as HOSTNAME.
"""

from __future__ import annotations

import re
from pathlib import Path

from mclib import MiniCloudError, paths, topology

TEMPLATES = paths.TOOL_DIR / "etc"
TOKEN = re.compile(r"@([A-Za-z0-9_:.-]+)@")


def _service_auth(user: str) -> str:
    return "\n".join(
        [
            f"www_authenticate_uri = {paths.AUTH_URL}",
            f"auth_url = {paths.AUTH_URL}",
            "auth_type = password",
            "project_domain_name = Default",
            "user_domain_name = Default",
            "project_name = service",
            f"region_name = {paths.REGION}",
            f"username = {user}",
            f"password = {paths.PASSWORD}",
        ]
    )


def _value(token: str, extra: dict[str, object]) -> str:
    kind, _, arg = token.partition(":")
    if token in extra:
        return str(extra[token])
    fixed = {
        "HOME": paths.HOME,
        "ETC": paths.ETC,
        "DATA": paths.DATA,
        "LOGS": paths.LOGS,
        "VENV": paths.VENV,
        "AUTH_URL": paths.AUTH_URL,
        "TRANSPORT_URL": paths.TRANSPORT_URL,
        "PASSWORD": paths.PASSWORD,
    }
    if token in fixed:
        return str(fixed[token])
    if kind == "DB" and arg.startswith("mc_"):
        # Templates name instance 0's databases; instance N's are mcN_*.
        name = paths.DB_PREFIX + arg[len("mc_") :]
        if name in paths.DATABASES:
            return paths.db_url(name)
    if kind == "PORT" and arg in paths.PORTS:
        return str(paths.PORTS[arg])
    if kind == "SERVICE_AUTH" and arg:
        return _service_auth(arg)
    raise MiniCloudError(f"unknown template token @{token}@")


def render(template: str, dest: Path, **extra: object) -> Path:
    """Render one template to dest; returns dest."""
    text = (TEMPLATES / template).read_text()
    out = TOKEN.sub(lambda m: _value(m.group(1), extra), text)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(out)
    return dest


def render_control() -> None:
    """Render every control-plane config."""
    for name in (
        "keystone.conf",
        "placement.conf",
        "nova.conf",
        "glance-api.conf",
        "neutron.conf",
        "heat.conf",
        "cinder.conf",
    ):
        svc = name.split(".")[0].split("-")[0]
        render(name, paths.ETC / svc / name)
    # nova's WSGI app reads api-paste.ini from its config dir.
    paste = paths.VENV / "etc" / "nova" / "api-paste.ini"
    (paths.ETC / "nova" / "api-paste.ini").write_text(paste.read_text())
    paste = paths.VENV / "etc" / "cinder" / "api-paste.ini"
    (paths.ETC / "cinder" / "api-paste.ini").write_text(paste.read_text())


def compute_conf(host: str, cap: dict[str, int]) -> Path:
    """Render one compute host's config; returns its path."""
    dest = paths.ETC / "nova" / f"compute-{host}.conf"
    return render(
        "nova-compute.conf", dest, HOSTNAME=host, **topology.reserved(cap)
    )
