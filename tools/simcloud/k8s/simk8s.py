#!/usr/bin/env python3
"""simk8s: a Kubernetes API simulator that kubectl and the kubernetes client
accept unchanged (a test tool; never imported by the product).

usage: python tools/simcloud/k8s/simk8s.py COMMAND [options]
  serve   run in the foreground; prints one line "SIMK8S READY {json}"
  up      start in the background, wait until /readyz answers, print where
  down    stop the simulator started by "up" (same --state-dir)
Files in --state-dir: ca.crt, client.{crt,key}, token, kubeconfig,
state.json (endpoint, paths, pid), simk8s.log. The token is only in files.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

# Run as a script, this directory leads sys.path: the modules here are
# named so as not to shadow the standard library's.
REPO = Path(__file__).resolve().parents[3]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_STATE = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "tacker-ng"
    / "simk8s"
)


def _node_specs(args: argparse.Namespace) -> list[dict]:
    from tools.simcloud.k8s import nodes

    if args.nodes_file:
        import yaml

        data = yaml.safe_load(Path(args.nodes_file).read_text())
        specs = data.get("nodes", data) if isinstance(data, dict) else data
        for spec in specs:
            spec["taints"] = [
                nodes.parse_taint(t) if isinstance(t, str) else t
                for t in spec.get("taints") or []
            ]
        return specs
    alloc = {
        k: v
        for k, v in (
            ("cpu", args.cpu),
            ("memory", args.memory),
            ("pods", args.max_pods),
        )
        if v
    }
    return nodes.from_cli(
        args.nodes, args.label or [], args.taint or [], alloc, args.node_prefix
    )


async def _serve(args: argparse.Namespace) -> None:
    from aiohttp import web

    from tools.simcloud.k8s import server, tlsgen
    from tools.simcloud.k8s.engine import Cluster, Config

    state = Path(args.state_dir).resolve()
    state.mkdir(parents=True, exist_ok=True)
    hosts = [args.bind, *(args.san or [])]
    pki = tlsgen.make_pki(
        state, [h for h in hosts if h not in ("0.0.0.0", "::")]
    )
    token = args.token or secrets.token_urlsafe(32)
    token_file = state / "token"
    token_file.write_text(token)
    token_file.chmod(0o600)
    config = Config(
        ready_delay=args.ready_delay,
        terminate_delay=args.terminate_delay,
        crash_interval=args.crash_interval,
        heartbeat=args.heartbeat,
        seed=args.seed,
        ca_pem=pki["ca"].read_text(),
    )
    cluster = Cluster(config)
    cluster.bootstrap(_node_specs(args))
    control_loop = asyncio.get_running_loop().create_task(cluster.run())
    srv = server.Server(cluster, token, f"{args.bind}:{args.port}")
    runner = web.AppRunner(srv.app(), access_log=None, shutdown_timeout=2)
    await runner.setup()
    site = web.TCPSite(
        runner,
        args.bind,
        args.port,
        ssl_context=server.ssl_context(
            str(pki["server_cert"]), str(pki["server_key"]), str(pki["ca"])
        ),
    )
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # noqa: SLF001
    host = args.advertise or args.bind
    if ":" in host:
        host = f"[{host}]"
    endpoint = f"https://{host}:{port}"
    srv.address = f"{host}:{port}"
    kubeconfig = state / "kubeconfig"
    kubeconfig.write_text(
        server.kubeconfig(
            endpoint,
            str(pki["ca"]),
            token,
            str(pki["client_cert"]),
            str(pki["client_key"]),
        )
    )
    kubeconfig.chmod(0o600)
    while not cluster.ready:
        await asyncio.sleep(0.01)
    info = {
        "endpoint": endpoint,
        "ca_path": str(pki["ca"]),
        "token_file": str(token_file),
        "kubeconfig": str(kubeconfig),
        "client_cert": str(pki["client_cert"]),
        "client_key": str(pki["client_key"]),
        "pid": os.getpid(),
        "nodes": len(
            cluster.store.list(
                __import__(
                    "tools.simcloud.k8s.engine", fromlist=["NODES"]
                ).NODES
            )
        ),
    }
    (state / "state.json").write_text(json.dumps(info, indent=2))
    print("SIMK8S READY " + json.dumps(info), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    control_loop.cancel()
    for registration in list(cluster.store.watches):
        registration.queue.put_nowait(None)  # ends open watch streams
    await runner.cleanup()


def _up(args: argparse.Namespace, argv: list[str]) -> int:
    state = Path(args.state_dir).resolve()
    state.mkdir(parents=True, exist_ok=True)
    (state / "state.json").unlink(missing_ok=True)
    log = (state / "simk8s.log").open("w")
    serve_argv = ["serve" if a == "up" else a for a in argv]
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), *serve_argv],
        stdout=subprocess.PIPE,
        stderr=log,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
    )
    start = time.monotonic()
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("SIMK8S READY "):
        proc.kill()
        print(
            f"simk8s did not start; see {state / 'simk8s.log'}",
            file=sys.stderr,
        )
        return 1
    info = json.loads(line.split(" ", 2)[2])
    info["startup_seconds"] = round(time.monotonic() - start, 3)
    print(json.dumps(info, indent=2))
    return 0


def _down(args: argparse.Namespace) -> int:
    state_file = Path(args.state_dir).resolve() / "state.json"
    if not state_file.exists():
        print("simk8s is not running (no state.json)")
        return 0
    pid = json.loads(state_file.read_text())["pid"]
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.05)
    state_file.unlink(missing_ok=True)
    print(f"simk8s (pid {pid}) stopped")
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["serve", "up", "down"])
    ap.add_argument("--state-dir", default=str(DEFAULT_STATE))
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument(
        "--advertise", help="host in the endpoint (default: --bind)"
    )
    ap.add_argument("--san", action="append", help="extra certificate SAN")
    ap.add_argument("--token", help="bearer token (default: generated)")
    ap.add_argument("--nodes", type=int, default=3)
    ap.add_argument("--node-prefix", default="node")
    ap.add_argument(
        "--label", action="append", help="KEY=V1,V2,... node i gets V[i mod n]"
    )
    ap.add_argument(
        "--taint",
        action="append",
        help="key=value:Effect[@i,j] (on nodes i,j or all)",
    )
    ap.add_argument("--cpu", help="allocatable cpu per node (default 4)")
    ap.add_argument("--memory", help="allocatable memory (default 8Gi)")
    ap.add_argument("--max-pods", help="allocatable pods (default 110)")
    ap.add_argument("--nodes-file", help="YAML/JSON list of node specs")
    ap.add_argument("--ready-delay", type=float, default=0.2)
    ap.add_argument("--terminate-delay", type=float, default=0.1)
    ap.add_argument("--crash-interval", type=float, default=1.0)
    ap.add_argument("--heartbeat", type=float, default=10.0)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--log-level", default="WARNING")
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    if args.command == "serve":
        asyncio.run(_serve(args))
        return 0
    if args.command == "up":
        return _up(args, argv)
    return _down(args)


if __name__ == "__main__":
    sys.exit(main())
