"""A light stand-in of Keystone v3 tokens and Nova's server listing, for
the observer benchmark only (tools/bench/observer.py).

It serves what the observer calls, in the shapes of the real APIs:
``POST /v3/auth/tokens`` (a token with a compute catalog entry),
``GET /v2.1/servers/detail`` paged by ``limit``/``marker`` with
``servers_links`` (Nova caps ``limit`` at ``max_limit``, 1000 by default,
like ``[api] max_limit``) and ``GET /v2.1/os-services``. It counts the
calls. Never imported by the product.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class NovaLite:
    """Servers by id (insertion order is Nova's listing order)."""

    def __init__(self, max_limit: int = 1000) -> None:
        self.max_limit = max_limit
        self.servers: dict[str, dict[str, Any]] = {}
        self.hosts: dict[str, str] = {}
        self.calls: dict[str, int] = {}
        self._lock = threading.Lock()
        self._order: list[str] = []
        self._index: dict[str, int] = {}
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, daemon=True
        )

    # -- state ----------------------------------------------------------

    def add_server(self, server_id: str, host: str, zone: str) -> None:
        self.hosts.setdefault(host, "up")
        self.servers[server_id] = {
            "id": server_id,
            "name": f"vm-{server_id[:8]}",
            "status": "ACTIVE",
            "OS-EXT-SRV-ATTR:host": host,
            "OS-EXT-AZ:availability_zone": zone,
            "links": [],
        }
        self._index[server_id] = len(self._order)
        self._order.append(server_id)

    def set_status(self, server_id: str, status: str) -> None:
        self.servers[server_id]["status"] = status

    def delete(self, server_id: str) -> None:
        del self.servers[server_id]

    def count(self, name: str) -> None:
        with self._lock:
            self.calls[name] = self.calls.get(name, 0) + 1

    def reset_calls(self) -> dict[str, int]:
        with self._lock:
            calls, self.calls = self.calls, {}
        return calls

    # -- HTTP -----------------------------------------------------------

    def _page(self, query: dict[str, list[str]]) -> dict[str, Any]:
        limit = min(
            int(query.get("limit", [self.max_limit])[0]), self.max_limit
        )
        start = 0
        marker = query.get("marker", [None])[0]
        if marker is not None:
            start = self._index[marker] + 1
        out = []
        position = start
        while position < len(self._order) and len(out) < limit:
            server = self.servers.get(self._order[position])
            if server is not None:
                out.append(server)
            position += 1
        body: dict[str, Any] = {"servers": out}
        if len(out) == limit:
            nxt = urllib.parse.urlencode(
                {"limit": limit, "marker": out[-1]["id"]}
            )
            body["servers_links"] = [
                {
                    "rel": "next",
                    "href": f"{self.url}/v2.1/servers/detail?{nxt}",
                }
            ]
        return body

    def _token(self) -> dict[str, Any]:
        domain = {"id": "default", "name": "Default"}
        return {
            "token": {
                "methods": ["password"],
                "expires_at": "2099-01-01T00:00:00.000000Z",
                "issued_at": "2026-01-01T00:00:00.000000Z",
                "user": {"id": "bench", "name": "bench", "domain": domain},
                "project": {"id": "bench", "name": "bench", "domain": domain},
                "roles": [{"id": "admin", "name": "admin"}],
                "catalog": [
                    {
                        "type": "compute",
                        "name": "nova",
                        "id": "compute",
                        "endpoints": [
                            {
                                "id": "compute-public",
                                "interface": interface,
                                "region": "RegionOne",
                                "region_id": "RegionOne",
                                "url": f"{self.url}/v2.1",
                            }
                            for interface in ("public", "internal")
                        ],
                    }
                ],
            }
        }

    def _handler(self):
        nova = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, code, body, headers=None):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if self.path.rstrip("/") == "/v3/auth/tokens":
                    nova.count("token")
                    self._send(201, nova._token(), {"X-Subject-Token": "t"})
                else:
                    self._send(404, {"error": "not found"})

            def do_GET(self):
                parts = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(parts.query)
                if parts.path == "/v2.1/servers/detail":
                    nova.count("servers/detail")
                    self._send(200, nova._page(query))
                elif parts.path == "/v2.1/os-services":
                    nova.count("os-services")
                    self._send(
                        200,
                        {
                            "services": [
                                {
                                    "id": n,
                                    "binary": "nova-compute",
                                    "host": host,
                                    "state": state,
                                    "status": "enabled",
                                    "zone": "nova",
                                }
                                for n, (host, state) in enumerate(
                                    sorted(nova.hosts.items())
                                )
                            ]
                        },
                    )
                else:
                    self._send(404, {"itemNotFound": {"code": 404}})

        return Handler

    def __enter__(self) -> NovaLite:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
