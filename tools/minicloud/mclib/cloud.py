"""up / down / wipe / status: the life cycle of the whole cloud."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mclib import (
    MiniCloudError,
    clean_env,
    infra,
    install,
    paths,
    procs,
    render,
    saved,
)
from mclib import services as svc
from mclib import topology as topo_mod

SETUP = paths.TOOL_DIR / "setup_cloud.py"


class Clock:
    """Prints elapsed seconds with each step, for the timing figures."""

    def __init__(self, quiet: bool = False) -> None:
        self.t0 = time.monotonic()
        self.quiet = quiet

    def __call__(self, msg: str) -> None:
        """Log one step."""
        if not self.quiet:
            print(f"[{time.monotonic() - self.t0:6.1f}s] {msg}", flush=True)


def _manage(name: str, binary: str, *args: str) -> None:
    procs.run(name, [str(paths.VBIN / binary), *args])


def _init_databases(log: Clock) -> None:
    """Create schemas once (first start, or after wipe)."""
    infra.create()
    ks = str(paths.ETC / "keystone/keystone.conf")
    nova = str(paths.ETC / "nova/nova.conf")
    for d in ("keystone/fernet-keys", "keystone/credential-keys"):
        (paths.DATA / d).mkdir(parents=True, exist_ok=True)
    for sub in ("nova/locks", "glance/images", "neutron/locks"):
        (paths.DATA / sub).mkdir(parents=True, exist_ok=True)
    url = paths.AUTH_URL + "/"

    def keystone() -> None:
        km = ("init-keystone", "keystone-manage", "--config-file", ks)
        _manage(*km, "db_sync")
        for what in ("fernet_setup", "credential_setup"):
            _manage(
                *km,
                what,
                "--keystone-user",
                "root",
                "--keystone-group",
                "root",
            )
        _manage(
            *km,
            "bootstrap",
            "--bootstrap-password",
            paths.PASSWORD,
            "--bootstrap-region-id",
            paths.REGION,
            *[f"--bootstrap-{i}-url={url}" for i in ("admin", "internal")],
            f"--bootstrap-public-url={url}",
        )

    def nova_dbs() -> None:
        nm = ("init-nova", "nova-manage", "--config-file", nova)
        _manage(*nm, "api_db", "sync")
        cell0 = paths.db_url(paths.DB_PREFIX + "nova_cell0")
        _manage(*nm, "cell_v2", "map_cell0", "--database_connection", cell0)
        cells = subprocess.run(
            [str(paths.VBIN / "nova-manage"), "--config-file", nova]
            + ["cell_v2", "list_cells"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env=clean_env(),
        ).stdout
        if " cell1 " not in cells:
            _manage(*nm, "cell_v2", "create_cell", "--name", "cell1")
        _manage(*nm, "db", "sync")

    def conf(s: str) -> str:
        return str(paths.ETC / s)

    jobs = [
        keystone,
        nova_dbs,
        lambda: _manage(
            "init-placement",
            "placement-manage",
            "--config-file",
            conf("placement/placement.conf"),
            "db",
            "sync",
        ),
        lambda: _manage(
            "init-neutron",
            "neutron-db-manage",
            "--config-file",
            conf("neutron/neutron.conf"),
            "upgrade",
            "heads",
        ),
        lambda: _manage(
            "init-glance",
            "glance-manage",
            "--config-file",
            conf("glance/glance-api.conf"),
            "db_sync",
        ),
        lambda: _manage(
            "init-heat",
            "heat-manage",
            "--config-file",
            conf("heat/heat.conf"),
            "db_sync",
        ),
        _init_cinder,
    ]
    with ThreadPoolExecutor(max_workers=3) as pool:
        for fut in [pool.submit(j) for j in jobs]:
            fut.result()
    log("database schemas synced")


def _init_cinder() -> None:
    """Cinder's schema and directories (idempotent)."""
    for d in (paths.DATA / "cinder" / "locks", paths.CINDER_VOLUMES):
        d.mkdir(parents=True, exist_ok=True)
    _manage(
        "init-cinder",
        "cinder-manage",
        "--config-file",
        str(paths.ETC / "cinder" / "cinder.conf"),
        "db",
        "sync",
    )


def _check_ports() -> None:
    for s in svc.control_plane():
        if s.port and procs.pid_of(s.name) is None:
            owner = procs.port_owner(s.port)
            if owner:
                raise MiniCloudError(
                    f"port {paths.HOST}:{s.port} for {s.name} is taken by "
                    f"another process: {owner}"
                )


def _setup(step: str, *args: str, timeout: float = 420.0) -> None:
    name = f"setup-{step}"
    procs.run(
        name, [str(paths.VBIN / "python"), str(SETUP), step, *args], timeout
    )


def up(topology: Any = None, quiet: bool = False) -> dict[str, Any]:
    """Bring the cloud up (install, init, start, register); idempotent.
    Returns the state written to HOME/state.json."""
    log = Clock(quiet)
    topo = topo_mod.expand(topo_mod.load(topology))
    infra.check_mariadb()
    infra.check_rabbitmq()
    log("MariaDB and RabbitMQ answer")
    paths.ensure_dirs()
    if install.ensure_venv(log):
        log("venv ready")
    orphans = procs.sweep_orphans()
    if orphans:
        log(f"stopped orphaned minicloud process groups {orphans}")
    _check_ports()
    render.render_control()
    first = not paths.INITIALIZED.exists()
    if not first and procs.pid_of("keystone") is None and not infra.present():
        log("mc_* databases or vhost missing: initializing again")
        first = True
    fp = saved.fingerprint(topo)
    restored = False
    if first and procs.pid_of("keystone") is None and saved.exists(fp):
        saved.restore(fp)
        log(f"saved state {fp} restored (databases, files, state)")
        first, restored = False, True
    if first:
        _init_databases(log)
    elif not paths.CINDER_INITIALIZED.exists():
        # A cloud initialized before minicloud had Cinder.
        infra.create()
        _init_cinder()
        log("cinder schema synced")
    control = svc.control_plane()
    control[0].start()
    procs.wait_http("keystone", paths.AUTH_URL, 120)
    log("keystone answers")
    if first or not paths.CINDER_INITIALIZED.exists():
        _setup("identity")
        log("identity registered")
    wanted = topo_mod.hosts(topo)
    for host, name in svc.compute_names_running().items():
        if host not in wanted:
            procs.stop(name)
    for s in control[1:]:
        s.start()
    for host, (_zone, cap) in wanted.items():
        svc.compute(host, cap).start()
    for s in control[1:]:
        if s.port:
            url = f"http://{paths.HOST}:{s.port}/"
            procs.wait_http(s.name, url, 180)
    log("all APIs answer")
    topo_file = paths.HOME / "topology.json"
    topo_file.write_text(json.dumps(topo, indent=2))
    if restored or saved.baseline_matches(fp):
        _setup("ready", str(topo_file))
    else:
        _setup("resources", str(topo_file), str(paths.STATE_FILE))
        saved.mark_baseline(fp)
    paths.INITIALIZED.touch()
    paths.CINDER_INITIALIZED.touch()
    if first:
        log(f"baseline built; saved as {saved.save(fp)}")
    log(
        f"cloud ready: {len(wanted)} computes in {len(topo['zones'])} zones"
        f" ({len(topo['lanes'])} lanes)"
    )
    return json.loads(paths.STATE_FILE.read_text())


def down(quiet: bool = False) -> list[str]:
    """Stop every minicloud process (computes first); returns names."""
    names = procs.running()
    order = [n for n in names if n.startswith("nova-compute-")]
    order += [s.name for s in reversed(svc.control_plane()) if s.name in names]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(procs.stop, order))
    order += [f"orphan group {g}" for g in procs.sweep_orphans()]
    if not quiet:
        print(f"stopped: {' '.join(order) or 'nothing was running'}")
    return order


def reset() -> None:
    """Delete tenant resources, back to the baseline (cloud stays up)."""
    if not paths.STATE_FILE.exists():
        raise MiniCloudError("minicloud was never brought up (no state)")
    _setup("reset", str(paths.STATE_FILE), timeout=300)


def wipe() -> None:
    """down + drop minicloud's databases, vhost and state; keeps the venv."""
    down()
    infra.check_mariadb()
    infra.check_rabbitmq()
    infra.drop()
    for d in (paths.ETC, paths.DATA, paths.RUN):
        shutil.rmtree(d, ignore_errors=True)
    paths.STATE_FILE.unlink(missing_ok=True)
    saved.BASELINE_FP.unlink(missing_ok=True)
    print("wiped: mc_* databases, vhost, state (venv kept)")


def status() -> dict[str, Any]:
    """Which processes run, and their RSS in MB (children included)."""
    out: dict[str, Any] = {"running": {}, "total_rss_mb": 0}
    for name in procs.running():
        pid = procs.pid_of(name)
        rss = _group_rss_mb(pid) if pid else 0
        out["running"][name] = {"pid": pid, "rss_mb": rss}
        out["total_rss_mb"] += rss
    out["initialized"] = paths.INITIALIZED.exists()
    out["venv_current"] = install.is_current()
    return out


def _group_rss_mb(pgid: int) -> int:
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid:
                total += int(fields[21]) * 4096
        except (OSError, IndexError, ValueError):
            continue
    return total // (1024 * 1024)
