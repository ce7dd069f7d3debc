"""Which processes make up minicloud, and how each one is started."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from mclib import install, paths, procs, render


def _script(name: str) -> Path:
    """A script of tools/minicloud that services run, copied to HOME/bin
    (only when its content changed): the command line, and so the
    service's fingerprint, is then the same from every checkout, and a
    second clone's ``up`` does not restart the running cloud."""
    src = paths.TOOL_DIR / name
    dest = paths.HOME / "bin" / name
    data = src.read_bytes()
    if not dest.exists() or dest.read_bytes() != data:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(dest)
    return dest


@dataclass(frozen=True)
class Service:
    """One long-running process of the cloud."""

    name: str
    cmd: list[str]
    env: dict[str, str] = field(default_factory=dict)
    port: int | None = None
    confs: tuple[Path, ...] = ()

    def fingerprint(self) -> str:
        """Hash of command line, config files and installed requirement
        set: a change restarts the service."""
        h = hashlib.sha256(" ".join(self.cmd).encode())
        for conf in (*self.confs, install.MARKER):
            h.update(conf.read_bytes() if conf.exists() else b"")
        return h.hexdigest()[:16]

    def start(self) -> int:
        """Start it unless it already runs with the same fingerprint."""
        return procs.start(self.name, self.cmd, self.env, self.fingerprint())


def _wsgi(
    name: str, target: str, conf: str, env: dict[str, str], *argv: str
) -> Service:
    port = paths.PORTS[name]
    serve = _script("serve.py")
    cmd = [str(paths.VBIN / "python"), str(serve), name, target, str(port)]
    confs = (paths.ETC / conf, serve)
    return Service(name, cmd + list(argv), env, port, confs)


def _daemon(name: str, binary: str, conf: str) -> Service:
    cmd = [str(paths.VBIN / binary), "--config-file", conf]
    cmd += ["--log-file", str(paths.LOGS / f"{name}.log")]
    return Service(name, cmd, confs=(Path(conf),))


def control_plane() -> list[Service]:
    """Every service except the computes, in start order."""
    etc = paths.ETC
    nova_conf = str(etc / "nova" / "nova.conf")
    heat_conf = str(etc / "heat" / "heat.conf")
    cinder_conf = str(etc / "cinder" / "cinder.conf")
    return [
        _wsgi(
            "keystone",
            "keystone.wsgi.api:application",
            "keystone/keystone.conf",
            {"OS_KEYSTONE_CONFIG_FILES": str(etc / "keystone/keystone.conf")},
        ),
        _wsgi(
            "placement",
            "placement.wsgi.api:application",
            "placement/placement.conf",
            {"OS_PLACEMENT_CONFIG_DIR": str(etc / "placement")},
        ),
        _wsgi(
            "glance",
            "glance.wsgi.api:application",
            "glance/glance-api.conf",
            {"OS_GLANCE_CONFIG_DIR": str(etc / "glance")},
        ),
        _wsgi(
            "neutron",
            "neutron.wsgi.api:application",
            "neutron/neutron.conf",
            {"OS_NEUTRON_CONFIG_FILES": str(etc / "neutron/neutron.conf")},
        ),
        _wsgi(
            "nova-api",
            "nova.wsgi.osapi_compute:application",
            "nova/nova.conf",
            {"OS_NOVA_CONFIG_DIR": str(etc / "nova")},
        ),
        _daemon("nova-conductor", "nova-conductor", nova_conf),
        _daemon("nova-scheduler", "nova-scheduler", nova_conf),
        _wsgi(
            "heat-api",
            "heat.wsgi.api:application",
            "heat/heat.conf",
            {},
            "--config-file",
            heat_conf,
            "--log-file",
            str(paths.LOGS / "heat-api.log"),
        ),
        _daemon("heat-engine", "heat-engine", heat_conf),
        _wsgi(
            "cinder-api",
            "cinder.wsgi.api:application",
            "cinder/cinder.conf",
            {},
            "--config-file",
            cinder_conf,
            "--log-file",
            str(paths.LOGS / "cinder-api.log"),
        ),
        _daemon("cinder-scheduler", "cinder-scheduler", cinder_conf),
        _daemon("cinder-volume", "cinder-volume", cinder_conf),
    ]


def compute(host: str, cap: dict[str, int]) -> Service:
    """A nova-compute for one host, rendering its config first."""
    conf = render.compute_conf(host, cap)
    (paths.DATA / f"nova-{host}" / "instances").mkdir(
        parents=True, exist_ok=True
    )
    # nova_compute.py: nova-compute with the snapshot-capable fake driver.
    wrapper = _script("nova_compute.py")
    name = f"nova-compute-{host}"
    cmd = [str(paths.VBIN / "python"), str(wrapper), "--config-file"]
    cmd += [str(conf), "--log-file", str(paths.LOGS / f"{name}.log")]
    return Service(name, cmd, confs=(conf, wrapper))


def compute_names_running() -> dict[str, str]:
    """host -> service name, for every running compute."""
    prefix = "nova-compute-"
    return {
        n[len(prefix) :]: n for n in procs.running() if n.startswith(prefix)
    }
