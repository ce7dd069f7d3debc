"""A small OAuth 2.0 authorization server for tests of
``auth_strategy = external_oauth2``: the client credentials grant (RFC
6749 4.4) at ``/token`` and RFC 7662 introspection at ``/introspect``.

It serves HTTPS; a client that presents a certificate at ``/token`` gets
a certificate-bound token (RFC 8705: ``cnf.x5t#S256`` over the DER).
Tokens are opaque random strings; :meth:`AuthzServer.mint` makes tokens
with any claims a test needs (expired, for another audience, ...).
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import ssl
import threading
import time
import urllib.parse
from typing import Any

from tacker_ng.tests import pki


class AuthzServer:
    """``with AuthzServer(ca, server_cert) as az:`` serves until the end."""

    def __init__(
        self,
        ca: pki.CertificateAuthority,
        audience: str,
        resource_server: tuple[str, str] = ("vnfm", "vnfm-secret"),
    ) -> None:
        self.audience = audience
        self.resource_server = resource_server
        #: client_id -> {"secret", "project_id", "scope"}
        self.clients: dict[str, dict[str, str]] = {}
        self.tokens: dict[str, dict[str, Any]] = {}
        self.introspections = 0
        self._lock = threading.Lock()
        cert = ca.server("127.0.0.1")
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(cert.cert, cert.key)
        ctx.load_verify_locations(cafile=ca.ca)
        ctx.verify_mode = ssl.CERT_OPTIONAL
        self._httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), _handler(self)
        )
        self._httpd.socket = ctx.wrap_socket(
            self._httpd.socket, server_side=True
        )
        self.url = f"https://127.0.0.1:{self._httpd.server_port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, daemon=True
        )

    def __enter__(self) -> AuthzServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def register(self, client_id: str, secret: str, project_id: str, scope):
        self.clients[client_id] = {
            "secret": secret,
            "project_id": project_id,
            "scope": scope,
        }

    def mint(self, **claims: Any) -> str:
        """A token with exactly these claims (``active`` added)."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self.tokens[token] = {"active": True, **claims}
        return token

    def issue(self, client_id: str, der: bytes | None) -> dict[str, Any]:
        client = self.clients[client_id]
        claims: dict[str, Any] = {
            "client_id": client_id,
            "sub": client_id,
            "aud": self.audience,
            "iss": self.url,
            "exp": int(time.time()) + 600,
            "iat": int(time.time()),
            "scope": client["scope"],
            "project_id": client["project_id"],
        }
        if der:
            digest = hashlib.sha256(der).digest()
            claims["cnf"] = {
                "x5t#S256": base64.urlsafe_b64encode(digest)
                .decode()
                .rstrip("=")
            }
        token = self.mint(**claims)
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 600,
        }


def _basic(header: str) -> tuple[str, str] | None:
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    user, _, password = base64.b64decode(value).decode().partition(":")
    return urllib.parse.unquote(user), urllib.parse.unquote(password)


def _handler(server: AuthzServer):
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

        def _answer(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            form = urllib.parse.parse_qs(self.rfile.read(length).decode())
            creds = _basic(self.headers.get("Authorization", ""))
            if self.path == "/token":
                client = server.clients.get(creds[0]) if creds else None
                if not client or client["secret"] != creds[1]:
                    return self._answer(401, {"error": "invalid_client"})
                if form.get("grant_type") != ["client_credentials"]:
                    return self._answer(
                        400, {"error": "unsupported_grant_type"}
                    )
                der = self.connection.getpeercert(binary_form=True)
                return self._answer(200, server.issue(creds[0], der))
            if self.path == "/introspect":
                if creds != server.resource_server:
                    return self._answer(401, {"error": "invalid_client"})
                with server._lock:
                    server.introspections += 1
                token = (form.get("token") or [""])[0]
                claims = server.tokens.get(token, {"active": False})
                return self._answer(200, claims)
            return self._answer(404, {"error": "not_found"})

    return Handler
