"""The outbound policy for URLs a caller chose (callbacks, downloads)."""

import http.server
import socket
import threading
import time

import pytest
import requests

from tacker_ng import outbound
from tacker_ng.packages import fetch
from tacker_ng.tests.functional import receiver

SUBS = "/vnflcm/v2/subscriptions"
V = {"Version": "2.0.0"}
DEFAULT_DENY = [
    "127.0.0.0/8",
    "::1/128",
    "0.0.0.0/8",
    "::/128",
    "169.254.0.0/16",
    "fe80::/10",
    "fd00:ec2::254/128",
]


@pytest.fixture
def production(conf):
    """The shipped default policy (unit tests otherwise run as a lab)."""
    conf.clear_override("outbound_deny_networks")
    assert conf.outbound_deny_networks == DEFAULT_DENY
    return conf


@pytest.mark.parametrize(
    ("address", "denied"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("169.254.169.254", True),
        ("fe80::1%eth0", True),
        ("0.0.0.0", True),
        ("fd00:ec2::254", True),
        ("10.1.2.3", False),
        ("192.0.2.10", False),
        ("2001:db8::1", False),
    ],
)
def test_default_networks(address, denied):
    networks = [outbound.ipaddress.ip_network(n) for n in DEFAULT_DENY]
    assert outbound.is_denied(address, networks) is denied


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/cb",
        "http://localhost/cb",
        "http://[::1]:8080/",
        "https://169.254.169.254/latest/meta-data/",
        "http://[::ffff:127.0.0.1]/",
        "http://2130706433/",  # 127.0.0.1 as one integer
    ],
)
def test_denied_urls(production, url):
    with pytest.raises(outbound.DeniedAddress):
        outbound.check_url(url, "callbackUri")


@pytest.mark.parametrize(
    "url",
    [
        "ftp://nfvo.example/",
        "file:///etc/passwd",
        "http:///x",
        "x",
        "https://" + "0" * 300,
        "https://" + "a" * 70 + ".example/",
        "http://[::1",
        "http://nfvo.example:99999/",
        "http://a..b/",
    ],
)
def test_bad_urls(production, url):
    with pytest.raises(outbound.BadOutboundUrl):
        outbound.check_url(url, "callbackUri")


def test_the_deny_list_is_configurable(conf):
    conf.set_override("outbound_deny_networks", ["192.0.2.0/24"])
    outbound.check_url("http://127.0.0.1:9/", "callbackUri")
    with pytest.raises(outbound.DeniedAddress):
        outbound.check_url("http://192.0.2.7/", "callbackUri")


def _serve(handler_cls, host="127.0.0.1"):
    server = http.server.ThreadingHTTPServer((host, 0), handler_cls)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_connections_are_checked_when_opened(conf):
    """A URL that passed the check cannot lead elsewhere: a redirect (or
    a name that resolves anew) to a denied address is refused at the
    connection itself."""
    conf.set_override("outbound_deny_networks", ["127.0.0.2/32"])
    target = _serve(http.server.SimpleHTTPRequestHandler, "127.0.0.2")
    port = target.server_port

    class Redirect(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.2:{port}/x")
            self.send_header("Content-Length", "0")
            self.end_headers()

    start = _serve(Redirect)
    try:
        url = f"http://127.0.0.1:{start.server_port}/pkg.zip"
        outbound.check_url(url, "addressInformation")  # passes
        with (
            outbound.session(conf) as sess,
            pytest.raises(requests.ConnectionError) as exc,
        ):
            sess.get(url, timeout=5)
        assert outbound.is_policy_refusal(exc.value)
        assert fetch._describe(exc.value) == (
            "its address is not allowed by the outbound policy"
        )
        # The allowed server itself is reachable through the same session.
        with outbound.session(conf) as sess:
            assert sess.get(url, allow_redirects=False).status_code == 302
    finally:
        start.shutdown()
        target.shutdown()


# -- through the API: subscriptions ------------------------------------------


def _subscribe(api, uri, **body):
    return api.post_json(
        SUBS,
        {"callbackUri": uri, **body},
        headers=V,
        expect_errors=True,
    )


def test_callback_to_a_denied_address_is_refused(api, production):
    with receiver.Receiver() as nfvo:
        resp = _subscribe(api, nfvo.url)
        assert resp.status_int == 400
        assert "not allowed to reach" in resp.json["detail"]
        assert nfvo.notifications == []
    oauth = {
        "authType": ["OAUTH2_CLIENT_CREDENTIALS"],
        "paramsOauth2ClientCredentials": {
            "clientId": "c",
            "clientPassword": "p",
            "tokenEndpoint": "http://169.254.169.254/token",
        },
    }
    resp = _subscribe(api, "http://192.0.2.1/cb", authentication=oauth)
    assert resp.status_int == 400
    assert "tokenEndpoint" in resp.json["detail"]
    assert api.get(SUBS, headers=V).json == []


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_refused_port_says_failed_not_the_socket_error(api, conf):
    resp = _subscribe(api, f"http://127.0.0.1:{_free_port()}/cb")
    assert resp.status_int == 400
    detail = resp.json["detail"]
    assert "could not be reached" in detail
    for leak in ("Errno", "refused", "Connection", "111", "127.0.0.1"):
        assert leak not in detail
    assert api.get(SUBS, headers=V).json == []


def test_silent_callback_times_out_with_the_same_words(api, conf):
    conf.set_override("timeout", 1, group="notification")
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # accepts, never answers
        port = silent.getsockname()[1]
        started = time.monotonic()
        resp = _subscribe(api, f"http://127.0.0.1:{port}/cb")
        took = time.monotonic() - started
    assert resp.status_int == 400
    refused = _subscribe(api, f"http://127.0.0.1:{_free_port()}/cb")
    # A timeout and a refusal read the same: no port scanning.
    assert resp.json["detail"] == refused.json["detail"]
    assert took < 5


def test_reachable_callback_is_accepted(api, conf):
    with receiver.Receiver() as nfvo:
        resp = _subscribe(api, nfvo.url)
    assert resp.status_int == 201, resp.text


def test_upload_from_a_denied_address_is_refused(api, production):
    pkg = api.post_json("/vnfpkgm/v1/vnf_packages", {}).json
    resp = api.post_json(
        f"/vnfpkgm/v1/vnf_packages/{pkg['id']}/package_content/"
        "upload_from_uri",
        {"addressInformation": "http://169.254.169.254/pkg.zip"},
        expect_errors=True,
    )
    assert resp.status_int == 400
    assert "addressInformation points to an address" in resp.json["detail"]
    got = api.get(f"/vnfpkgm/v1/vnf_packages/{pkg['id']}").json
    assert got["onboardingState"] == "CREATED"


def test_non_latin1_basic_credentials_reach_the_callback(api, conf):
    """RFC 7617 credentials in UTF-8: a subscriber's password in any
    script is sent, not a crash of the delivery."""
    import base64

    with receiver.Receiver("nfvo-é", "pässwörd-中") as nfvo:
        resp = _subscribe(
            api,
            nfvo.url,
            authentication={
                "authType": ["BASIC"],
                "paramsBasic": {
                    "userName": "nfvo-é",
                    "password": "pässwörd-中",
                },
            },
        )
        assert resp.status_int == 201, resp.text
    assert base64.b64encode("nfvo-é:pässwörd-中".encode()).decode() in (
        nfvo.expected_auth
    )
