"""A failed grant request tells the API caller nothing of the NFVO's
network: the op occ's error names "the NFVO ([nfvo] endpoint)", how it
failed or the status it answered - never its host, port or requests'
text (issue #27: ``HTTPConnectionPool(host='127.0.0.1', port=...): Read
timed out``). Real sockets on loopback: a silent, a closed and a
misbehaving NFVO."""

import contextlib
import json
import logging
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tacker_ng import outbound
from tacker_ng.conductor.operations import runner
from tacker_ng.nfvo import local, remote

REQUEST = {"vnfLcmOpOccId": "occ-1", "vnfInstanceId": "i-1"}


def _leaks(text: str, port: int) -> list[str]:
    """What of the NFVO's address or the library's words is in ``text``."""
    words = ["127.0.0.1", str(port), "localhost", "http", "Errno"]
    words += ["ConnectionPool", "timed out", "Max retries", "urllib3"]
    return [w for w in words if w in text]


@pytest.fixture
def nfvo_conf(conf):
    conf.set_override("mode", "remote", "nfvo")
    conf.set_override("timeout", 1, "nfvo")
    return conf


@contextlib.contextmanager
def silent_nfvo() -> Iterator[int]:
    """Accepts connections, never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def answering_nfvo(status: int, body: object) -> Iterator[int]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()


def _fail(conf, port: int) -> dict:
    conf.set_override("endpoint", f"http://127.0.0.1:{port}", "nfvo")
    with pytest.raises(remote.NfvoUnavailable) as caught:
        remote.request_grant(REQUEST, conf)
    return runner.problem_of(caught.value, "grant")


def test_an_nfvo_that_does_not_answer(nfvo_conf, caplog):
    caplog.set_level(logging.WARNING)
    with silent_nfvo() as port:
        problem = _fail(nfvo_conf, port)
    assert problem == {
        "status": 503,
        "title": "Service Unavailable",
        "detail": "The grant request to the NFVO ([nfvo] endpoint) failed: "
        "there was no answer in time.",
    }
    assert _leaks(problem["detail"], port) == []
    # The operator finds requests' own words, and the op occ, in the log.
    assert "occ-1" in caplog.text and "timed out" in caplog.text


def test_an_nfvo_that_refuses_the_connection(nfvo_conf):
    port = closed_port()
    problem = _fail(nfvo_conf, port)
    assert problem["detail"] == (
        "The grant request to the NFVO ([nfvo] endpoint) failed: "
        "the connection was refused."
    )
    assert _leaks(problem["detail"], port) == []


def test_an_nfvo_error_says_its_status_and_its_detail_scrubbed(nfvo_conf):
    body = {
        "status": 500,
        "detail": "backend http://10.1.2.3:8080/db at 10.1.2.3 is down",
    }
    with answering_nfvo(500, body) as port:
        problem = _fail(nfvo_conf, port)
    assert problem["detail"] == (
        "The grant request to the NFVO ([nfvo] endpoint) failed: it "
        "answered HTTP 500: backend <URL> at <address> is down."
    )


def test_a_rejection_carries_the_nfvo_reason_scrubbed(nfvo_conf):
    body = {"status": 403, "detail": "no capacity near 192.0.2.9:443"}
    with answering_nfvo(403, body) as port:
        nfvo_conf.set_override("endpoint", f"http://127.0.0.1:{port}", "nfvo")
        with pytest.raises(local.GrantRejected) as caught:
            remote.request_grant(REQUEST, nfvo_conf)
    assert caught.value.detail == (
        "The NFVO rejected the grant: no capacity near <address>"
    )


def test_the_token_endpoint_is_named_by_its_option(nfvo_conf):
    port = closed_port()
    nfvo_conf.set_override("endpoint", f"http://127.0.0.1:{port}", "nfvo")
    nfvo_conf.set_override("auth_type", "oauth2_client_credentials", "nfvo")
    nfvo_conf.set_override("client_id", "vnfm", "nfvo")
    nfvo_conf.set_override("client_secret", "s3cret", "nfvo")
    nfvo_conf.set_override(
        "token_endpoint", f"http://127.0.0.1:{port}/token", "nfvo"
    )
    with pytest.raises(remote.NfvoUnavailable) as caught:
        remote.request_grant(REQUEST, nfvo_conf)
    assert caught.value.detail == (
        "The OAuth2 token request to the NFVO ([nfvo] token_endpoint) "
        "failed: the connection was refused."
    )


def test_the_client_certificate_goes_with_every_nfvo_request(
    nfvo_conf, tmp_path
):
    cert = tmp_path / "vnfm.pem"
    cert.write_text("cert and key")
    assert remote.nfvo_session(nfvo_conf).cert is None
    nfvo_conf.set_override("client_cert_file", str(cert), "nfvo")
    assert remote.nfvo_session(nfvo_conf).cert == str(cert)
    nfvo_conf.set_override("client_key_file", str(tmp_path / "no"), "nfvo")
    with pytest.raises(outbound.ClientCertUnreadable) as caught:
        remote.nfvo_session(nfvo_conf)
    assert "[nfvo] client_key_file" in caught.value.detail


def test_the_configured_ca_wins_over_the_environment(nfvo_conf, monkeypatch):
    """requests lets REQUESTS_CA_BUNDLE override ``session.verify``: the
    NFVO's CA (``[nfvo] ca_file``) was ignored on hosts that set it."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/elsewhere.pem")
    nfvo_conf.set_override("ca_file", "/etc/nfvo-ca.pem", "nfvo")
    session = remote.nfvo_session(nfvo_conf)
    merged = session.merge_environment_settings(
        "https://nfvo.example/grant/v1/grants", {}, None, None, None
    )
    assert merged["verify"] == "/etc/nfvo-ca.pem"
