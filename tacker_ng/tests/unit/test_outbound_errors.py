"""The rule for what an API caller learns of a failed outbound call."""

import socket
import ssl

import pytest
import requests
import urllib3
from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from kubernetes.client import exceptions as k8s_exc
from novaclient import exceptions as nova_exc

from tacker_ng import outbound_errors as oe


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "HTTPConnectionPool(host='127.0.0.1', port=40123): Read timed "
            "out. (read timeout=12)",
            "<connection>: Read timed out. (read timeout=12)",
        ),
        (
            "NewConnectionError('<urllib3.connection.HTTPConnection object "
            "at 0x7f1c2a>: Failed to establish a new connection: [Errno "
            "111] Connection refused')",
            "NewConnectionError('<object>: Failed to establish a new "
            "connection: Connection refused')",
        ),
        (
            "Unable to establish connection to http://admin:pw@10.0.0.5:8774"
            "/v2.1/servers: boom",
            "Unable to establish connection to <URL> boom",
        ),
        (
            "compute at [fe80::1%eth0]:5000, 2001:db8::7, nova.internal:8774,"
            " localhost:80 and 10.1.2.3.",
            "compute at <address>, <address>, <address>, <address> and "
            "<address>.",
        ),
        ("user:secret@host down", "host down"),
        ("host='nfvo.internal', port=9443", "host=?, port=?"),
    ],
)
def test_scrub_removes_addresses_urls_and_dumps(text, shown):
    assert oe.scrub(text) == shown


@pytest.mark.parametrize(
    "verdict",
    [
        # A cloud's verdicts survive: AZ reselection and the NFVO need them.
        "Resource CREATE failed: ResourceInError: resources.VDU1-0."
        'resources.VDU1: Went to status ERROR due to "Message: No valid '
        'host was found. , Code: 500"',
        "Exceeded maximum number of retries. Exhausted all hosts available "
        "for retrying build failures for instance 8b1e7f5a-1111-2222-3333-"
        "444455556666.",
        "Invalid volume: volume 3f0c is already attached to instances: "
        "8b1e7f5a-1111-2222-3333-444455556666 at 12:30:45",
        "Quota exceeded for instances: Requested 1, but already used 10 of "
        "10 instances",
    ],
)
def test_scrub_keeps_a_clouds_verdict(verdict):
    assert oe.scrub(verdict) == verdict


def test_scrub_cuts_long_texts():
    assert len(oe.scrub("x " * 1000)) == oe.MAX_MESSAGE
    assert oe.scrub(None) == ""


def _chained(outer: BaseException, *inner: BaseException) -> BaseException:
    """``outer`` raised while handling ``inner`` (innermost last)."""
    for exc, cause in zip((outer, *inner), inner, strict=False):
        exc.__context__ = cause
    return outer


def _refused() -> requests.ConnectionError:
    reason = urllib3.exceptions.NewConnectionError(
        None, "Failed to establish a new connection: [Errno 111] refused"
    )
    _chained(reason, ConnectionRefusedError(111, "Connection refused"))
    pool = urllib3.exceptions.MaxRetryError(None, "/grant", reason)
    return requests.ConnectionError(pool)


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (_refused(), "the connection was refused"),
        (
            requests.ReadTimeout(
                "HTTPConnectionPool(host='127.0.0.1', port=1): Read timed "
                "out. (read timeout=12)"
            ),
            "there was no answer in time",
        ),
        (
            _chained(
                requests.exceptions.SSLError("bad handshake"),
                ssl.SSLError(1, "CERTIFICATE_REQUIRED"),
            ),
            "the TLS handshake failed",
        ),
        (
            _chained(ks_exc.ConnectFailure("x"), socket.gaierror(-2, "x")),
            "its host name could not be resolved",
        ),
        (
            ConnectionResetError(104, "reset"),
            "the connection was closed before an answer",
        ),
        (
            ks_exc.EndpointNotFound(),
            "its service catalog has no such endpoint",
        ),
        (RuntimeError("?"), "the connection failed"),
    ],
)
def test_transport_failures_in_our_words(exc, said):
    assert oe.transport_failure(exc) == said


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (
            heat_exc.HTTPConflict(
                '{"error": {"message": "The Stack (s) already exists."}}'
            ),
            "HTTP 409: The Stack (s) already exists.",
        ),
        (
            nova_exc.Forbidden(
                403, "Quota exceeded at 10.0.0.4", request_id="req-1"
            ),
            "HTTP 403: Quota exceeded at <address>",
        ),
        (
            ks_exc.ServiceUnavailable("busy", http_status=503),
            "HTTP 503: busy",
        ),
        (k8s_exc.ApiException(status=409, reason="Conflict"), "HTTP 409"),
        (_refused(), "the connection was refused"),
    ],
)
def test_an_answer_is_its_status_and_the_services_message(exc, said):
    assert oe.answer(exc) == said
