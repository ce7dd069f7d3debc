"""Credentials never travel in a callback URL (SOL013: they belong in
``authentication``), and notification receivers get the VNFM's client
certificate (``[notification] client_cert_file``)."""

import pytest

from tacker_ng.nfvo import callback
from tacker_ng.tests.functional import receiver

#: Every SOL API that takes subscriptions, with its Version header.
APIS = [
    ("/vnflcm/v2/subscriptions", "2.0.0"),
    ("/vnffm/v1/subscriptions", "1.3.0"),
    ("/vnfpkgm/v2/subscriptions", "2.1.0"),
]


def _with_userinfo(url: str, userinfo: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{userinfo}@{rest}"


@pytest.mark.parametrize(("subs", "version"), APIS)
@pytest.mark.parametrize("userinfo", ["nfvo:cb-pw", "nfvo", ":cb-pw"])
def test_a_callback_uri_with_credentials_is_400(api, subs, version, userinfo):
    headers = {"Version": version}
    with receiver.Receiver() as nfvo:
        resp = api.post_json(
            subs,
            {"callbackUri": _with_userinfo(nfvo.url, userinfo)},
            headers=headers,
            expect_errors=True,
        )
        assert resp.status_int == 400
        assert resp.content_type == "application/problem+json"
        detail = resp.json["detail"]
        assert detail == (
            "callbackUri must not carry credentials (user:password@ or "
            "user@ before the host): give them in authentication "
            "(paramsBasic or paramsOauth2ClientCredentials) (SOL013)."
        )
        # Not echoed, not tested with a GET, not stored.
        assert "cb-pw" not in resp.text
        assert nfvo.notifications == [] and nfvo.rejected == 0
    assert api.get(subs, headers=headers).json == []


def test_a_token_endpoint_with_credentials_is_400(api):
    resp = api.post_json(
        "/vnflcm/v2/subscriptions",
        {
            "callbackUri": "http://192.0.2.1/cb",
            "authentication": {
                "authType": ["OAUTH2_CLIENT_CREDENTIALS"],
                "paramsOauth2ClientCredentials": {
                    "clientId": "c",
                    "clientPassword": "p",
                    "tokenEndpoint": "https://c:p@192.0.2.1/token",
                },
            },
        },
        headers={"Version": "2.0.0"},
        expect_errors=True,
    )
    assert resp.status_int == 400
    assert resp.json["detail"].startswith(
        "paramsOauth2ClientCredentials.tokenEndpoint must not carry "
        "credentials"
    )
    assert (
        api.get("/vnflcm/v2/subscriptions", headers={"Version": "2.0.0"}).json
        == []
    )


def test_a_stored_uri_with_credentials_is_never_sent(conf):
    """Defence in depth: a row from before the check is not delivered
    with its user info as Basic auth."""
    with receiver.Receiver() as nfvo:
        url = _with_userinfo(nfvo.url, "nfvo:cb-pw")
        with pytest.raises(callback.CallbackError) as caught:
            callback.send(url, None, "POST", {"x": 1}, conf)
        assert nfvo.notifications == []
    assert "cb-pw" not in str(caught.value)


def test_receivers_get_the_client_certificate_and_the_ca(conf, tmp_path):
    cert, key, ca = (tmp_path / n for n in ("c.pem", "k.pem", "ca.pem"))
    for path in (cert, key, ca):
        path.write_text("pem")
    assert callback._tls(conf) == {"verify": True, "cert": None}
    conf.set_override("client_cert_file", str(cert), "notification")
    conf.set_override("client_key_file", str(key), "notification")
    conf.set_override("ca_file", str(ca), "notification")
    assert callback._tls(conf) == {
        "verify": str(ca),
        "cert": (str(cert), str(key)),
    }
    conf.set_override("verify_tls", False, "notification")
    assert callback._tls(conf)["verify"] is False
