"""``python -m tools.simcloud.exporter``: run the test exporter.

Prints one line ``EXPORTER READY {"url": ...}`` once it serves, then
serves until SIGTERM/SIGINT. ``--vnfcs N`` creates ``vnfc-0`` ...
``vnfc-<N-1>`` with default values (``--own-ports``: each on a port of
its own too); the control API creates, changes and removes others.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading

from tools.simcloud.exporter import server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.simcloud.exporter")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--vnfcs", type=int, default=0)
    parser.add_argument("--own-ports", action="store_true")
    args = parser.parse_args(argv)
    httpd, exporter = server.make_server(args.bind, args.port)
    for index in range(args.vnfcs):
        spec = {"listen": f"{args.bind}:0"} if args.own_ports else {}
        exporter.put(f"vnfc-{index}", spec, merge=False)
    host, port = httpd.server_address[:2]
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    print(f"EXPORTER READY {json.dumps({'url': f'http://{host}:{port}'})}",
          flush=True)  # fmt: skip
    stop.wait()
    httpd.shutdown()
    httpd.server_close()
    exporter.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
