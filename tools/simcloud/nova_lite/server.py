"""The HTTP side: a threading HTTP/1.1 server in front of a
:class:`~tools.simcloud.nova_lite.app.Simulator`.

The standard library's server is enough (no eventlet, no framework):
each connection gets a thread, keep-alive works because every answer
carries a Content-Length, and :meth:`HttpServer.stop` returns once the
listening socket is closed, so a SIGTERM ends the process cleanly.
"""

from __future__ import annotations

import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tools.simcloud.nova_lite.app import Simulator

LOG = logging.getLogger("nova_lite")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def _handler(sim: Simulator) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "nova-lite"

        def log_message(self, format, *args):  # noqa: A002
            LOG.debug(format, *args)

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            status, headers, data = sim.handle(
                self.command, self.path, self.headers, raw
            )
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            if status not in (204, 304):
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if data and self.command != "HEAD" and status not in (204, 304):
                self.wfile.write(data)

        do_GET = do_POST = do_PUT = _serve  # noqa: N815
        do_DELETE = do_HEAD = do_PATCH = _serve  # noqa: N815

    return Handler


class HttpServer:
    """The simulator listening on ``host:port`` (0: a free port)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        region: str = "RegionOne",
        max_limit: int = 1000,
    ) -> None:
        self._httpd = _Server((host, port), None)  # type: ignore[arg-type]
        self.port = self._httpd.server_port
        self.url = f"http://{host}:{self.port}"
        self.sim = Simulator(self.url, region, max_limit)
        self._httpd.RequestHandlerClass = _handler(self.sim)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="nova-lite",
            daemon=True,
        )

    @property
    def auth_url(self) -> str:
        return f"{self.url}/identity/v3"

    def start(self) -> HttpServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()
