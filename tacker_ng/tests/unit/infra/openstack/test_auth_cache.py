"""Sessions of the same VIM credentials share one Keystone token."""

import json

import requests_mock

from tacker_ng.infra.openstack import auth_cache, session

KEYSTONE = "https://keystone.example:5000/v3"
VIM = {
    "vimId": "v",
    "vimType": session.VIM_TYPE,
    "interfaceInfo": {"endpoint": KEYSTONE},
    "accessInfo": {
        "username": "vnfuser",
        "password": "s3cret-pw",
        "project": "vnf",
        "region": "RegionOne",
    },
}
TOKEN_BODY = {
    "token": {
        "expires_at": "2999-01-01T00:00:00.000000Z",
        "methods": ["password"],
        "user": {"id": "u", "name": "vnfuser", "domain": {"id": "default"}},
        "project": {"id": "p", "name": "vnf", "domain": {"id": "default"}},
        "catalog": [
            {
                "type": "compute",
                "name": "nova",
                "endpoints": [
                    {
                        "interface": "public",
                        "region": "RegionOne",
                        "region_id": "RegionOne",
                        "url": "https://nova.example/v2.1",
                    }
                ],
            }
        ],
    }
}


def _with(vim, **access):
    return {**vim, "accessInfo": {**vim["accessInfo"], **access}}


def _keystone(mock, *tokens):
    mock.post(
        f"{KEYSTONE}/auth/tokens",
        [
            {
                "json": TOKEN_BODY,
                "headers": {"X-Subject-Token": t},
                "status_code": 201,
            }
            for t in tokens
        ],
    )


def test_two_sessions_of_one_vim_authenticate_once():
    with requests_mock.Mocker() as m:
        _keystone(m, "tok-1", "tok-2")
        m.get("https://nova.example/v2.1/servers", json={"servers": []})
        for _ in range(3):
            sess, _region = session.make_session(VIM)
            sess.get("/servers", endpoint_filter={"service_type": "compute"})
        auths = [r for r in m.request_history if r.method == "POST"]
        calls = [r for r in m.request_history if r.method == "GET"]
    assert len(auths) == 1
    assert {r.headers["X-Auth-Token"] for r in calls} == {"tok-1"}


def test_other_credentials_get_their_own_token():
    first, _ = session.make_session(VIM)
    assert session.make_session(VIM)[0].auth is first.auth
    for other in (
        _with(VIM, password="changed"),
        _with(VIM, username="other"),
        _with(VIM, project="other"),
        {
            **VIM,
            "interfaceInfo": {
                **VIM["interfaceInfo"],
                "skipCertificateVerification": True,
            },
        },
        {**VIM, "interfaceInfo": {"endpoint": "https://elsewhere/v3"}},
    ):
        assert session.make_session(other)[0].auth is not first.auth


def test_a_401_invalidates_the_shared_token_and_authenticates_again():
    with requests_mock.Mocker() as m:
        _keystone(m, "tok-1", "tok-2")
        m.get(
            "https://nova.example/v2.1/servers",
            [{"status_code": 401, "json": {}}, {"json": {"servers": []}}],
        )
        sess, _ = session.make_session(VIM)
        resp = sess.get(
            "/servers", endpoint_filter={"service_type": "compute"}
        )
        assert resp.status_code == 200
        tokens = [
            r.headers["X-Auth-Token"]
            for r in m.request_history
            if r.method == "GET"
        ]
    assert tokens == ["tok-1", "tok-2"]
    # The next session uses the renewed token.
    assert session.make_session(VIM)[0].auth.auth_ref.auth_token == "tok-2"


def test_least_recently_used_credentials_are_dropped(monkeypatch):
    monkeypatch.setattr(auth_cache, "MAX_PLUGINS", 2)
    a = session.make_session(_with(VIM, username="a"))[0].auth
    session.make_session(_with(VIM, username="b"))
    assert session.make_session(_with(VIM, username="a"))[0].auth is a
    session.make_session(_with(VIM, username="c"))  # drops b, not a
    assert session.make_session(_with(VIM, username="a"))[0].auth is a
    assert len(auth_cache._plugins) == 2


def test_the_key_holds_no_password():
    session.make_session(_with(VIM, password="pw-XYZ"))
    assert len(auth_cache._plugins) == 1
    assert "pw-XYZ" not in json.dumps(list(auth_cache._plugins))
