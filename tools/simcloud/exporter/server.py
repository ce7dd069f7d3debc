"""The test exporter's HTTP side: VNFCs' metrics and the control API.

One process serves any number of simulated VNFCs (minicloud's servers
are fake: nothing runs in them, so nothing there could export). Each
VNFC's node-exporter-shaped series (:mod:`.nodemetrics`) are served

* at ``/vnfcs/<vnfc>/metrics`` on the exporter's own port (a file_sd
  target ``host:port`` with the label ``__metrics_path__``), and
* when the VNFC was created with ``"listen": "127.0.0.1:0"``, also at
  ``/metrics`` on a port of its own, exactly like a node exporter.

Control API (JSON), on the exporter's port:

* ``GET /control/vnfcs`` -> ``{vnfc: state}``
* ``PUT /control/vnfcs/<vnfc>`` (body: :meth:`NodeMetrics.apply`'s spec,
  plus ``listen``) creates or replaces; ``PATCH`` merges into it;
  ``GET`` shows it; ``DELETE`` removes it (and closes its port).

A state carries ``values`` (the spec shape), ``path``, ``address`` (its
own listener, if any) and ``scrapes`` (metrics requests served).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tools.simcloud.exporter.nodemetrics import InvalidSpec, NodeMetrics

TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
VNFC_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,254}$")


class Vnfc:
    """One simulated VNFC: its metrics and, optionally, its own port."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.metrics = NodeMetrics()
        self.listener: ThreadingHTTPServer | None = None
        self.scrapes = 0

    def state(self) -> dict[str, Any]:
        address = None
        if self.listener is not None:
            host, port = self.listener.server_address[:2]
            address = f"{host}:{port}"
        return {
            "vnfc": self.name,
            "values": self.metrics.snapshot(),
            "path": f"/vnfcs/{urllib.parse.quote(self.name, safe='')}/metrics",
            "address": address,
            "scrapes": self.scrapes,
        }

    def close(self) -> None:
        if self.listener is not None:
            self.listener.shutdown()
            self.listener.server_close()
            self.listener = None


class Exporter:
    """Every VNFC of this process, behind one lock."""

    def __init__(self) -> None:
        self.vnfcs: dict[str, Vnfc] = {}
        self.lock = threading.Lock()

    def scrape(self, name: str) -> str | None:
        with self.lock:
            vnfc = self.vnfcs.get(name)
            if vnfc is None:
                return None
            vnfc.scrapes += 1
            return vnfc.metrics.render()

    def put(self, name: str, spec: dict[str, Any], merge: bool) -> dict:
        if not VNFC_ID.match(name):
            raise InvalidSpec(f"bad VNFC id {name!r}")
        spec = dict(spec)
        listen = spec.pop("listen", None)
        with self.lock:
            old = self.vnfcs.get(name)
            if merge and old is None:
                raise KeyError(name)
            vnfc = old if merge and old else Vnfc(name)
            if old is not None and old is not vnfc:
                vnfc.listener, old.listener = old.listener, None
                vnfc.scrapes = old.scrapes
            vnfc.metrics.apply(spec)
            if listen and vnfc.listener is None:
                vnfc.listener = _own_listener(self, name, listen)
            self.vnfcs[name] = vnfc
            return vnfc.state()

    def delete(self, name: str) -> bool:
        with self.lock:
            vnfc = self.vnfcs.pop(name, None)
        if vnfc is None:
            return False
        vnfc.close()
        return True

    def close(self) -> None:
        with self.lock:
            vnfcs, self.vnfcs = list(self.vnfcs.values()), {}
        for vnfc in vnfcs:
            vnfc.close()


def _address(listen: str) -> tuple[str, int]:
    host, sep, port = listen.rpartition(":")
    if not sep or not port.isdigit():
        raise InvalidSpec(f"listen must be host:port, not {listen!r}")
    return host.strip("[]"), int(port)


def _own_listener(
    exporter: Exporter, name: str, listen: str
) -> ThreadingHTTPServer:
    """A node-exporter-like listener serving only ``name`` at /metrics."""

    class OneVnfc(_Handler):
        def route(self, method: str, parts: list[str]) -> None:
            if method == "GET" and parts == ["metrics"]:
                self._metrics(name)
            else:
                self._json(404, {"error": "only /metrics here"})

    OneVnfc.exporter = exporter
    try:
        server = ThreadingHTTPServer(_address(listen), OneVnfc)
    except OSError as exc:
        raise InvalidSpec(f"cannot listen on {listen}: {exc}") from exc
    server.daemon_threads = True
    threading.Thread(
        target=server.serve_forever, name=f"vnfc-{name}", daemon=True
    ).start()
    return server


class _Handler(BaseHTTPRequestHandler):
    exporter: Exporter
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Quiet: a scrape a second per VNFC would flood the log."""

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, body: Any) -> None:
        self._send(status, json.dumps(body).encode(), "application/json")

    def _metrics(self, name: str) -> None:
        text = self.exporter.scrape(name)
        if text is None:
            self._json(404, {"error": f"no VNFC {name}"})
        else:
            self._send(200, text.encode(), TEXT_FORMAT)

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if not length:
            return {}
        data = json.loads(self.rfile.read(length))
        if not isinstance(data, dict):
            raise InvalidSpec("the body must be a JSON object")
        return data

    def _dispatch(self, method: str) -> None:
        path = urllib.parse.urlsplit(self.path).path
        parts = [urllib.parse.unquote(p) for p in path.split("/") if p]
        try:
            self.route(method, parts)
        except (InvalidSpec, ValueError) as exc:
            self._json(400, {"error": str(exc)})

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self._dispatch("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._dispatch("GET")

    def do_PUT(self) -> None:  # noqa: N802
        self._dispatch("PUT")

    def do_PATCH(self) -> None:  # noqa: N802
        self._dispatch("PATCH")

    def do_DELETE(self) -> None:  # noqa: N802
        self._dispatch("DELETE")

    def route(self, method: str, parts: list[str]) -> None:
        ex = self.exporter
        if parts == ["healthz"]:
            self._send(200, b"ok", "text/plain")
        elif len(parts) == 3 and parts[0] == "vnfcs" and parts[2] == "metrics":
            self._metrics(parts[1])
        elif parts == ["control", "vnfcs"] and method == "GET":
            with ex.lock:
                states = {n: v.state() for n, v in ex.vnfcs.items()}
            self._json(200, states)
        elif len(parts) == 3 and parts[:2] == ["control", "vnfcs"]:
            self._control(method, parts[2])
        else:
            self._json(404, {"error": f"no route {method} /{'/'.join(parts)}"})

    def _control(self, method: str, name: str) -> None:
        ex = self.exporter
        if method == "GET":
            with ex.lock:
                vnfc = ex.vnfcs.get(name)
                state = vnfc.state() if vnfc else None
            if state is None:
                self._json(404, {"error": f"no VNFC {name}"})
            else:
                self._json(200, state)
        elif method in ("PUT", "PATCH"):
            existed = name in ex.vnfcs
            try:
                state = ex.put(name, self._body(), merge=method == "PATCH")
            except KeyError:
                self._json(404, {"error": f"no VNFC {name}"})
                return
            self._json(200 if existed else 201, state)
        elif method == "DELETE":
            if ex.delete(name):
                self._send(204, b"", "text/plain")
            else:
                self._json(404, {"error": f"no VNFC {name}"})
        else:
            self._json(405, {"error": f"{method} not allowed"})


def make_server(host: str, port: int) -> tuple[ThreadingHTTPServer, Exporter]:
    """The exporter's main listener (not yet serving) and its state."""
    exporter = Exporter()

    class Main(_Handler):
        pass

    Main.exporter = exporter
    server = ThreadingHTTPServer((host, port), Main)
    server.daemon_threads = True
    return server, exporter


@contextlib.contextmanager
def serving(host: str = "127.0.0.1", port: int = 0):  # noqa: ANN201
    """Serve in a thread (in-process use, unit tests); yields
    ``(url, exporter)`` and stops everything afterwards."""
    server, exporter = make_server(host, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        bound_host, bound_port = server.server_address[:2]
        yield f"http://{bound_host}:{bound_port}", exporter
    finally:
        server.shutdown()
        server.server_close()
        exporter.close()
        thread.join(5)
