#!/usr/bin/env python3
"""nova-lite: a simulated Keystone + Nova + Placement for tacker-ng's
reservation service (a test and sandbox tool; never imported by the
product).

usage: python tools/simcloud/nova_lite/serve.py [--port 0]
           [--host compute-1:zone-a[:vcpus,memory_mb,local_gb]] ...
           [--project NAME[=ID]] ... [--user NAME:PASSWORD:PROJECT[:ROLE]]
           [--ready-file PATH]

It listens on 127.0.0.1 (``--bind``), then prints one line
``NOVA_LITE READY {json}`` on stdout and, with ``--ready-file``, writes
the same JSON there (mode 0600, replaced atomically): the auth URL, the
admin credentials, the service project, the hosts and the
``reservation_nova`` options for tacker-ng. Logs go to stderr. SIGTERM
or SIGINT stop it (exit 0; the ready file is removed).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import signal
import sys
import threading
from pathlib import Path

# Run as a script, this directory leads sys.path: the modules here are
# named so as not to shadow the standard library's.
REPO = Path(__file__).resolve().parents[3]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

READY = "NOVA_LITE READY"
DEFAULT_HOSTS = ("compute-1:zone-a", "compute-2:zone-b", "compute-3:zone-c")
LOG = logging.getLogger("nova_lite")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="nova-lite",
        description="Simulated Keystone + Nova + Placement (Train API).",
    )
    ap.add_argument("--bind", default="127.0.0.1", help="listen address")
    ap.add_argument("--port", type=int, default=0, help="0: a free port")
    ap.add_argument(
        "--host",
        action="append",
        metavar="NAME[:ZONE[:VCPUS,MEMORY_MB,LOCAL_GB]]",
        help="a compute host (repeatable; default: "
        + " ".join(DEFAULT_HOSTS)
        + ")",
    )
    ap.add_argument("--vcpus", type=int, default=4)
    ap.add_argument("--memory-mb", type=int, default=8192)
    ap.add_argument("--local-gb", type=int, default=80)
    ap.add_argument("--cpu-allocation-ratio", type=float, default=1.0)
    ap.add_argument("--ram-allocation-ratio", type=float, default=1.0)
    ap.add_argument("--disk-allocation-ratio", type=float, default=1.0)
    ap.add_argument("--reserved-host-memory-mb", type=int, default=0)
    ap.add_argument(
        "--project",
        action="append",
        metavar="NAME[=ID]",
        help="a project besides admin and service (repeatable; default: "
        "default=default, the project tacker-ng's HTTP basic users act in)",
    )
    ap.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="NAME:PASSWORD:PROJECT[:ROLE]",
        help="a user with one role (member by default) in one project",
    )
    ap.add_argument(
        "--admin-password", help="the admin user's (default: generated)"
    )
    ap.add_argument("--region", default="RegionOne")
    ap.add_argument("--max-limit", type=int, default=1000)
    ap.add_argument("--ready-file", type=Path)
    ap.add_argument("--verbose", action="store_true", help="log requests")
    return ap.parse_args(argv)


def _write_ready(path: Path, info: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(json.dumps(info) + "\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    from tools.simcloud.nova_lite import seed
    from tools.simcloud.nova_lite.server import HttpServer

    args = parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    try:
        hosts = [
            seed.parse_host(h, args.vcpus, args.memory_mb, args.local_gb)
            for h in args.host or DEFAULT_HOSTS
        ]
        projects = [
            seed.parse_project(p) for p in args.project or ["default=default"]
        ]
        users = [seed.parse_user(u) for u in args.user]
    except ValueError as exc:
        print(f"nova-lite: {exc}", file=sys.stderr)
        return 2
    password = args.admin_password or secrets.token_urlsafe(16)
    server = HttpServer(args.bind, args.port, args.region, args.max_limit)
    seed.populate(
        server.sim,
        hosts,
        password,
        projects,
        users,
        {
            "cpu_allocation_ratio": args.cpu_allocation_ratio,
            "ram_allocation_ratio": args.ram_allocation_ratio,
            "disk_allocation_ratio": args.disk_allocation_ratio,
        },
        args.reserved_host_memory_mb,
    )
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    server.start()
    info = {**seed.ready_info(server.sim, password), "pid": os.getpid()}
    if args.ready_file:
        _write_ready(args.ready_file, info)
    print(f"{READY} {json.dumps(info)}", flush=True)
    LOG.info(
        "serving %s (Keystone %s) with hosts %s",
        server.url,
        server.auth_url,
        ", ".join(f"{h['name']}@{h['zone']}" for h in info["hosts"]),
    )
    while not stop.wait(3600):
        pass
    server.stop()
    if args.ready_file:
        args.ready_file.unlink(missing_ok=True)
    LOG.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
