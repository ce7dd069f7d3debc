"""vimConnectionInfo -> Keystone v3 session; which VIM an operation uses."""

import logging
import os

import pytest
import requests
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import session as ks_session

from tacker_ng import outbound
from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors, session
from tacker_ng.objects import lcm

VIM = {
    "vimId": "v",
    "vimType": session.VIM_TYPE,
    "interfaceInfo": {"endpoint": "https://keystone.example:5000/v3"},
    "accessInfo": {
        "username": "vnfuser",
        "password": "s3cret-pw",
        "project": "vnf",
        "projectDomain": "Default",
        "userDomain": "Default",
        "region": "RegionOne",
    },
}


def test_session_from_vim_connection_info(caplog):
    caplog.set_level(logging.DEBUG)
    sess, region = session.make_session(VIM)
    assert isinstance(sess, ks_session.Session)
    assert region == "RegionOne"
    auth = sess.auth
    assert auth.auth_url == VIM["interfaceInfo"]["endpoint"]
    assert auth.auth_methods[0].username == "vnfuser"
    assert auth.project_name == "vnf"
    assert sess.verify is True
    assert "s3cret-pw" not in caplog.text
    assert "vnfuser" in caplog.text


def test_project_id_and_tls_options():
    vim = {
        **VIM,
        "interfaceInfo": {
            "endpoint": "https://k/v3",
            "skipCertificateVerification": True,
        },
        "accessInfo": {**VIM["accessInfo"], "projectId": "p-1"},
    }
    sess, _ = session.make_session(vim)
    assert sess.verify is False
    assert sess.auth.project_id == "p-1"


def test_ca_certificate_is_written_and_removed_with_the_session():
    pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    vim = {
        **VIM,
        "interfaceInfo": {"endpoint": "https://k/v3", "ssl_ca_cert": pem},
    }
    sess, _ = session.make_session(vim)
    path = sess.verify
    with open(path) as f:
        assert f.read() == pem
    del sess
    import gc

    gc.collect()
    assert not os.path.exists(path)


@pytest.mark.parametrize(
    "drop,missing",
    [
        ("username", "username"),
        ("password", "password"),
        ("project", "project"),
    ],
)
def test_missing_access_info_is_a_422(drop, missing):
    vim = {
        **VIM,
        "accessInfo": {
            k: v for k, v in VIM["accessInfo"].items() if k != drop
        },
    }
    with pytest.raises(errors.InvalidVimConnection, match=missing) as exc:
        session.make_session(vim)
    assert exc.value.status == 422
    assert "s3cret-pw" not in exc.value.detail


def test_other_vim_type_is_refused():
    with pytest.raises(errors.InvalidVimConnection, match="kubernetes"):
        session.make_session({**VIM, "vimType": "kubernetes"})


def test_call_timer_counts_requests():
    timer = session.CallTimer()
    timer.add(0.5)
    timer.add(0.25)
    assert (timer.calls, timer.seconds) == (2, 0.75)


def _task(instance, grant):
    return base.LcmTask(
        None,
        lcm.Operation.INSTANTIATE,
        "o",
        instance,
        {},
        None,
        None,
        {},
        grant,
        {},
        lambda: None,
        lambda: None,
    )


def test_vim_of_prefers_grant_then_named_then_first(conf):
    a, b = {**VIM, "vimId": "a"}, {**VIM, "vimId": "b"}
    inst = {"vimConnectionInfo": {"b": b, "a": a}}
    assert session.vim_of(_task(inst, {}), conf)[0] == "a"
    named = {"addResources": [{"vimConnectionId": "b"}]}
    assert session.vim_of(_task(inst, named), conf)[0] == "b"
    grant = {"vimConnectionInfo": {"g": {**VIM, "vimId": "g"}}}
    assert session.vim_of(_task(inst, grant), conf)[0] == "g"


def test_vim_of_falls_back_to_the_default_vim(conf):
    with pytest.raises(errors.InvalidVimConnection, match="auth_url"):
        session.vim_of(_task({}, {}), conf)
    conf.set_override("auth_url", "http://k/v3", group="vim")
    conf.set_override("username", "u", group="vim")
    conf.set_override("password", "p", group="vim")
    conf.set_override("project_name", "pr", group="vim")
    vim_id, vim = session.vim_of(_task({}, {}), conf)
    assert vim_id == "default"
    sess, _ = session.make_session(vim)
    assert sess.auth.project_name == "pr"


def test_timed_session_counts_the_outermost_request_only(monkeypatch):
    """The token request runs inside the request needing it: once."""
    calls = []

    def fake_request(self, url, method, **kwargs):
        calls.append(url)
        if url == "/outer":
            self.request("/token", "POST")
        return url

    monkeypatch.setattr(ks_session.Session, "request", fake_request)
    sess = session.TimedSession(timer=session.CallTimer())
    assert sess.request("/outer", "GET") == "/outer"
    assert calls == ["/outer", "/token"]
    assert sess.timer.calls == 1


def _flaky(monkeypatch, failures: list[Exception]) -> list[dict]:
    """ks Session.request raising ``failures`` in turn, then answering."""
    seen: list[dict] = []

    def fake_request(self, url, method, **kwargs):
        seen.append(kwargs)
        if failures:
            raise failures.pop(0)
        return "answer"

    monkeypatch.setattr(ks_session.Session, "request", fake_request)
    monkeypatch.setattr(session, "CONNECT_RETRY_DELAY", 0)
    return seen


def test_every_request_carries_the_configured_timeouts(conf, monkeypatch):
    conf.set_override("connect_timeout", 3, group="openstack")
    conf.set_override("read_timeout", 7, group="openstack")
    seen = _flaky(monkeypatch, [])
    sess, _ = session.make_session(VIM)
    assert sess.request("/x", "GET") == "answer"
    assert seen == [{"timeout": (3.0, 7.0)}]


def test_a_vim_that_never_answers_is_unreachable_at_once(conf, monkeypatch):
    conf.set_override("read_timeout", 7, group="openstack")
    seen = _flaky(monkeypatch, [ks_exc.ConnectTimeout()] * 5)
    sess, _ = session.make_session(VIM)
    with pytest.raises(errors.VimUnreachable) as caught:
        sess.request("/x", "GET")
    # The timeout is the whole wait: no retry after it.
    assert len(seen) == 1
    problem = caught.value.to_problem_details()
    assert problem["status"] == 504
    assert problem["detail"].startswith(
        "VIM v is unreachable: Keystone gave no answer within"
    )
    assert "7 s to reply" in problem["detail"]


def test_refused_connections_are_retried_then_unreachable(monkeypatch):
    seen = _flaky(monkeypatch, [ks_exc.ConnectFailure()] * 2)
    sess, _ = session.make_session(VIM)
    assert sess.request("/x", "GET") == "answer"
    assert len(seen) == 3
    seen = _flaky(monkeypatch, [ks_exc.ConnectFailure()] * 10)
    with pytest.raises(errors.VimUnreachable, match="failed 4 times"):
        sess.request("/x", "GET")
    assert len(seen) == session.CONNECT_RETRIES + 1


def test_refused_credentials_and_vim_5xx_are_said_in_our_words(monkeypatch):
    """Keystone's 401 is "credentials refused" (502), a VIM 5xx is a VIM
    error (502): neither is our 500 nor carries keystoneauth's text; a
    4xx other than 401 is left to the client that asked."""
    _flaky(monkeypatch, [ks_exc.Unauthorized("The request you have made")])
    sess, _ = session.make_session(VIM)
    with pytest.raises(errors.VimAuthRefused) as refused:
        sess.request("/x", "GET")
    problem = refused.value.to_problem_details()
    assert problem["status"] == 502
    assert problem["detail"] == (
        "VIM v refused the credentials of vimConnectionInfo: Keystone "
        "answered HTTP 401"
    )
    _flaky(monkeypatch, [ks_exc.ServiceUnavailable("busy")])
    with pytest.raises(errors.VimError) as failed:
        sess.request("/x", "GET")
    assert failed.value.detail == "Keystone of VIM v answered HTTP 503: busy"
    _flaky(monkeypatch, [ks_exc.NotFound("nope")])
    with pytest.raises(ks_exc.NotFound):
        sess.request("/x", "GET")


def _refused_by_keystone() -> ks_exc.ConnectFailure:
    """keystoneauth's ConnectFailure as a refused connection raises it,
    with the URL and the errno in its text."""
    url = "https://keystone.example:5000/v3/auth/tokens"
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except ConnectionRefusedError as exc:
            raise requests.ConnectionError(
                "HTTPSConnectionPool(host='keystone.example', port=5000): "
                "Max retries exceeded with url: /v3/auth/tokens "
                "([Errno 111] Connection refused)"
            ) from exc
    except requests.ConnectionError as exc:
        failure = ks_exc.ConnectFailure(
            f"Unable to establish connection to {url}: {exc}"
        )
        failure.__context__ = exc  # as raised inside keystoneauth's except
        return failure


def test_connection_failures_name_the_vim_not_its_address(monkeypatch):
    """The caller learns which VIM and service and how it failed; the
    URL, host, port and errno of keystoneauth's text stay in the log."""
    _flaky(monkeypatch, [_refused_by_keystone()] * 10)
    sess, _ = session.make_session(VIM)
    with pytest.raises(errors.VimUnreachable) as caught:
        sess.request("/x", "GET")
    assert caught.value.detail == (
        "VIM v is unreachable: the connection to Keystone failed 4 times "
        "(the connection was refused)"
    )


def test_a_tls_failure_is_not_retried(monkeypatch):
    seen = _flaky(
        monkeypatch,
        [ks_exc.SSLError("SSL exception connecting to https://k:5000/v3")],
    )
    sess, _ = session.make_session(VIM)
    with pytest.raises(errors.VimUnreachable) as caught:
        sess.request("/x", "GET", endpoint_filter={"service_type": "compute"})
    assert len(seen) == 1
    assert caught.value.detail == (
        "VIM v is unreachable: the TLS handshake with Nova failed"
    )


def test_the_client_certificate_is_presented(conf, tmp_path):
    """[openstack] client_cert_file (and key) go to every VIM session;
    a missing file is a configuration error named by its option."""
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_text("cert")
    key.write_text("key")
    sess, _ = session.make_session(VIM)
    assert sess.cert is None
    conf.set_override("client_cert_file", str(cert), group="openstack")
    conf.set_override("client_key_file", str(key), group="openstack")
    sess, _ = session.make_session(VIM)
    assert sess.cert == (str(cert), str(key))
    key.unlink()
    with pytest.raises(outbound.ClientCertUnreadable) as caught:
        session.make_session(VIM)
    assert caught.value.status == 500
    assert "[openstack] client_key_file" in caught.value.detail
    assert str(tmp_path) not in caught.value.detail
