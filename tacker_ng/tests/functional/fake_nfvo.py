"""A real HTTP server playing the NFVO's Grant interface for tests.

OAuth2 client-credentials token endpoint (``/token``) and
``POST /grant/v1/grants`` that answers, per ``mode``: ``sync`` 201 with the
grant, ``async`` 202 + Location then 202 once more on the first GET and
200 with the grant after, ``reject`` 403 ProblemDetails; ``GET
/grant/v1/grants/{id}`` serves every grant made. Every grant
request it receives is validated against the SOL003 Grant OpenAPI and
kept. Grants are made by tacker-ng's own local-NFVO logic so that zones
honour the placement constraints; without zones (``zones=[]``) it leaves
placement to the VIM: its grants name no zone (SOL003: ``zones`` and
``zoneId`` are optional). :meth:`FakeNfvo.hold_next` makes it a
slow NFVO: the next grant request for an instance gets no answer (a
conductor waits in its grant step) until the NFVO is released. With
``tls`` (an ``ssl.SSLContext``) it serves HTTPS, mutual TLS when the
context requires client certificates.
"""

import base64
import contextlib
import json
import ssl
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tacker_ng.nfvo import local
from tacker_ng.tests.functional import sol003_schemas
from tacker_ng.tests.functional.receiver import serve_tls


class FakeNfvo:
    def __init__(
        self,
        client_id: str,
        client_secret: str,
        zones,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.client_basic = (
            "Basic "
            + base64.b64encode(
                f"{client_id}:{client_secret}".encode()
            ).decode()
        )
        self.zones = list(zones)
        self.mode = "sync"
        self.token = uuid.uuid4().hex
        self.tokens_issued = 0
        self.requests: list[dict] = []
        self.invalid: list[str] = []
        self._pending: dict[str, dict] = {}
        #: Every grant made, by id (served by GET once granted).
        self.granted: dict[str, dict] = {}
        self._polls: dict[str, int] = {}
        self._hold: set[str] = set()
        self._released = threading.Event()
        nfvo = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code, body=None, headers=None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(code)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self):
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length)

            def _bearer_ok(self) -> bool:
                return (
                    self.headers.get("Authorization") == f"Bearer {nfvo.token}"
                )

            def do_POST(self):
                if self.path == "/token":
                    self._body()
                    if self.headers.get("Authorization") != nfvo.client_basic:
                        self._send(401, {"error": "invalid_client"})
                        return
                    nfvo.tokens_issued += 1
                    self._send(
                        200,
                        {
                            "access_token": nfvo.token,
                            "token_type": "Bearer",
                            "expires_in": 3600,
                        },
                    )
                    return
                if self.path != "/grant/v1/grants":
                    self._send(404)
                    return
                if not self._bearer_ok():
                    self._send(401)
                    return
                request = json.loads(self._body())
                try:
                    sol003_schemas.validate_grant_request(request)
                except AssertionError as exc:
                    nfvo.invalid.append(str(exc))
                nfvo.requests.append(request)
                if request.get("vnfInstanceId") in nfvo._hold:
                    nfvo._hold.discard(request["vnfInstanceId"])
                    nfvo._released.wait(120)
                    # The conductor that asked is usually dead by now.
                    with contextlib.suppress(OSError):
                        self._send(503)
                    return
                if nfvo.mode == "reject":
                    self._send(
                        403,
                        {
                            "status": 403,
                            "title": "Forbidden",
                            "detail": "no capacity in this NFVI",
                        },
                    )
                    return
                grant = nfvo.grant(request)
                if nfvo.mode == "async":
                    nfvo._pending[grant["id"]] = grant
                    self._send(
                        202,
                        headers={
                            "Location": f"/grant/v1/grants/{grant['id']}"
                        },
                    )
                    return
                self._send(
                    201, grant, {"Location": f"/grant/v1/grants/{grant['id']}"}
                )

            def do_GET(self):
                grant_id = self.path.rsplit("/", 1)[-1]
                if not self._bearer_ok() or grant_id not in nfvo.granted:
                    self._send(404)
                    return
                nfvo._polls[grant_id] = nfvo._polls.get(grant_id, 0) + 1
                if grant_id in nfvo._pending and nfvo._polls[grant_id] == 1:
                    self._send(202)
                    return
                self._send(200, nfvo.granted[grant_id])

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            serve_tls(self.server, tls)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_port}"
        self._thread = threading.Thread(
            target=self.server.serve_forever, daemon=True
        )

    def grant(self, request: dict) -> dict:
        """The local NFVO's grant, with its own ``_links.self`` (as a
        SOL003 Grant has; served by GET); without zones, one naming
        none."""
        if self.zones:
            grant = local.grant(request, "vim1", self.zones, {})
        else:
            grant = local.grant(request, "vim1", ["unused"], {})
            grant.pop("zones", None)
            for key in ("addResources", "updateResources"):
                for item in grant.get(key) or []:
                    item.pop("zoneId", None)
        grant["_links"] = {
            **grant["_links"],
            "self": {"href": f"{self.url}/grant/v1/grants/{grant['id']}"},
        }
        self.granted[grant["id"]] = grant
        return grant

    def hold_next(self, instance_id: str) -> None:
        """Leave the next grant request for ``instance_id`` unanswered
        (until the NFVO shuts down); later ones are answered."""
        self._hold.add(instance_id)

    def grant_requests(self, op_occ_id: str) -> list[dict]:
        """The grant requests received for ``op_occ_id``."""
        return [r for r in self.requests if r["vnfLcmOpOccId"] == op_occ_id]

    def __enter__(self) -> "FakeNfvo":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._released.set()
        self.server.shutdown()
        self.server.server_close()
