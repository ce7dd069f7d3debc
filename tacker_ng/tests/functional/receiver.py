"""A real HTTP server standing in for the NFVO's notification endpoint.

Answers the subscription test GET and notification POSTs with 204,
checks HTTP basic credentials or an OAuth2 bearer token when told to,
can fail the next N POSTs with 503, and keeps every notification it
accepted, in arrival order. With ``tls`` (an ``ssl.SSLContext``) it
serves HTTPS - mutual TLS when the context requires client certificates.
"""

import base64
import json
import socketserver
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve_tls(server: socketserver.TCPServer, context: ssl.SSLContext) -> None:
    """Make ``server`` speak TLS with ``context``. Each handshake runs in
    its connection's own handler thread (on the first read), so a client
    that fails it (no client certificate) disturbs no other; its error
    is no traceback on the test's output (other errors still are)."""
    server.socket = context.wrap_socket(
        server.socket, server_side=True, do_handshake_on_connect=False
    )

    def handle_error(request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ssl.SSLError | ConnectionError):
            socketserver.BaseServer.handle_error(
                server, request, client_address
            )

    server.handle_error = handle_error


class Receiver:
    def __init__(
        self,
        username: str | None = None,
        password: str = "",
        bearer: str | None = None,
        tls: ssl.SSLContext | None = None,
    ):
        if bearer:
            self.expected_auth = f"Bearer {bearer}"
        elif username:
            self.expected_auth = (
                "Basic "
                + base64.b64encode(f"{username}:{password}".encode()).decode()
            )
        else:
            self.expected_auth = None
        self.notifications: list[dict] = []
        self.rejected = 0
        self.fail_next = 0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _authorized(self) -> bool:
                if receiver.expected_auth is None:
                    return True
                return (
                    self.headers.get("Authorization") == receiver.expected_auth
                )

            def _answer(self, code: int) -> None:
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                self._answer(204 if self._authorized() else 401)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                if not self._authorized():
                    self._answer(401)
                    return
                with receiver._lock:
                    if receiver.fail_next > 0:
                        receiver.fail_next -= 1
                        receiver.rejected += 1
                        self._answer(503)
                        return
                    receiver.notifications.append(body)
                self._answer(204)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            serve_tls(self.server, tls)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_port}/notify"
        self._thread = threading.Thread(
            target=self.server.serve_forever, daemon=True
        )

    def __enter__(self) -> "Receiver":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def for_op_occ(self, op_occ_id: str) -> list[dict]:
        with self._lock:
            return [
                n
                for n in self.notifications
                if n.get("vnfLcmOpOccId") == op_occ_id
            ]

    def states(self, op_occ_id: str) -> list[str]:
        return [n["operationState"] for n in self.for_op_occ(op_occ_id)]

    def settled_states(
        self,
        op_occ_id: str,
        final: str = "COMPLETED",
        timeout: float = 20,
        redelivered: bool = False,
    ) -> list[str]:
        """The op occ's notified states once ``final`` arrived and one
        more second passed (a duplicate would arrive in it).

        ``redelivered``: count a notification delivered again (same
        ``id``) once: a conductor killed after its POST and before it
        recorded the delivery leaves it to be sent again (at least once;
        the NFVO recognises it by its id)."""
        deadline = time.monotonic() + timeout
        while self.states(op_occ_id)[-1:] != [final]:
            assert time.monotonic() < deadline, self.states(op_occ_id)
            time.sleep(0.1)
        time.sleep(1)
        if not redelivered:
            return self.states(op_occ_id)
        seen: dict[str, str] = {}
        for n in self.for_op_occ(op_occ_id):
            seen.setdefault(n["id"], n["operationState"])
        return list(seen.values())
