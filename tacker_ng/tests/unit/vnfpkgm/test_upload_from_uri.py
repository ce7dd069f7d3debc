"""``POST .../package_content/upload_from_uri``: fetched by the conductor.

The web is in memory (:mod:`fakeweb`); the conductor's download goes
through requests like a real one, so auth, redirects, status codes,
size limits and timeouts are exercised without sockets.
"""

import base64
import json

import pytest
import requests

from tacker_ng.packages import store
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

PKGS = f"{PREFIX}/vnf_packages"
URL = "https://repo.example.net/pkgs/minimal.zip"
MINIMAL = helpers.make_zip(helpers.minimal_files())


def _from_uri(pkgm, pkg_id, body, status=202):
    return pkgm.app.post_json(
        f"{PKGS}/{pkg_id}/package_content/upload_from_uri",
        body,
        headers=V,
        status=status,
    )


def _zip(data=MINIMAL):
    return (200, {"Content-Type": "application/zip"}, data)


def test_fetched_with_basic_auth_and_onboarded(pkgm, web, db):
    web.route(URL, _zip())
    pkg = pkgm.create()
    resp = _from_uri(
        pkgm,
        pkg["id"],
        {"addressInformation": URL, "userName": "repo", "password": "s3cret"},
    )
    assert resp.body == b""
    done = pkgm.wait(pkg["id"])
    assert done["onboardingState"] == "ONBOARDED", done
    sent = web.to(URL)
    assert len(sent) == 1
    token = base64.b64encode(b"repo:s3cret").decode()
    assert sent[0].headers["Authorization"] == f"Basic {token}"
    content = pkgm.app.get(f"{PKGS}/{pkg['id']}/package_content", headers=V)
    assert content.body == MINIMAL
    # The password was never stored in the DB, and nothing is left over.
    with db.connect() as conn:
        dump = json.dumps(
            [
                dict(r._mapping)
                for r in conn.exec_driver_sql("SELECT * FROM vnf_packages")
            ],
            default=str,
        )
    assert "s3cret" not in dump
    assert not any(p.startswith(".incoming/") for p in pkgm.store_entries())


def test_request_waits_sealed_in_the_store(pkgm, web, monkeypatch):
    from tacker_ng.conductor import rpcapi

    monkeypatch.setattr(
        rpcapi.ConductorAPI,
        "upload_vnf_package_from_uri",
        lambda *a, **k: None,
    )
    pkg = pkgm.create()
    _from_uri(
        pkgm,
        pkg["id"],
        {"addressInformation": URL, "userName": "u", "password": "s3cret"},
    )
    assert pkgm.get(pkg["id"])["onboardingState"] == "UPLOADING"
    [source] = (store.root() / ".incoming").glob("*.source")
    text = source.read_text()
    assert "s3cret" not in text and "fernet:" in text
    assert oct(source.stat().st_mode & 0o777) == "0o600"


def test_without_credentials_and_through_a_redirect(pkgm, web):
    final = "https://cdn.example.net/blob/minimal.zip"
    web.route(URL, (302, {"Location": final}, b""))
    web.route(final, _zip())
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    assert pkgm.wait(pkg["id"])["onboardingState"] == "ONBOARDED"
    assert "Authorization" not in web.to(URL)[0].headers


def _error(pkgm, pkg_id):
    done = pkgm.wait(pkg_id)
    assert done["onboardingState"] == "ERROR", done
    assert pkgm.store_entries() <= {".archives", ".incoming"}
    return done["onboardingFailureDetails"]


def test_server_answers_404(pkgm, web):
    pkg = pkgm.create()
    _from_uri(
        pkgm,
        pkg["id"],
        {"addressInformation": "https://repo.example.net/x.zip?tok=1"},
    )
    details = _error(pkgm, pkg["id"])
    assert details["title"] == "VNF package download failed"
    # Worded by tacker-ng: the source by its name, the status; no URL.
    assert details["detail"] == (
        "Downloading the VNF package from its addressInformation failed: "
        "the server answered 404"
    )


@pytest.mark.parametrize(
    "uri",
    [
        "https://u:pw@repo.example.net/x.zip",
        "https://u@repo.example.net/x.zip",
        "https://:pw@repo.example.net/x.zip",
    ],
)
def test_credentials_in_the_uri_400(pkgm, web, uri):
    """SOL013: credentials go in userName/password, never in the URI
    (where they would be stored and sent as Basic auth)."""
    pkg = pkgm.create()
    resp = _from_uri(pkgm, pkg["id"], {"addressInformation": uri}, 400)
    detail = resp.json["detail"]
    assert "must not carry credentials" in detail
    assert "userName and password" in detail
    assert "pw" not in detail and "repo.example.net" not in detail
    # Nothing persisted, nothing fetched, nothing cast.
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert not list((store.root() / ".incoming").glob("*.source"))
    assert web.requests == []


def test_download_too_large(pkgm, web, conf):
    conf.set_override("max_archive_size", 1000, "vnf_package")
    web.route(URL, _zip(b"x" * 5000))
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    details = _error(pkgm, pkg["id"])
    assert details["reasonCode"] == "archive_too_large"


def test_download_too_large_by_content_length(pkgm, web, conf):
    conf.set_override("max_archive_size", 1000, "vnf_package")
    web.route(URL, (200, {"Content-Length": "999999"}, b"x" * 10))
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    assert _error(pkgm, pkg["id"])["reasonCode"] == "archive_too_large"


def test_download_times_out(pkgm, web):
    def slow(request):
        raise requests.ReadTimeout("slow")

    web.route(URL, slow)
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    assert "did not answer in time" in _error(pkgm, pkg["id"])["detail"]


def test_downloaded_archive_is_hostile(pkgm, web):
    web.route(URL, _zip(helpers.make_zip({"../evil.txt": b"x"})))
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    assert _error(pkgm, pkg["id"])["reasonCode"] == "unsafe_path"


def test_redirect_to_a_refused_scheme(pkgm, web, conf):
    conf.set_override("upload_from_uri_schemes", ["https"], "vnf_package")
    web.route(URL, (301, {"Location": "http://plain.example.net/x"}, b""))
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], {"addressInformation": URL})
    assert "redirects to a http URI" in _error(pkgm, pkg["id"])["detail"]


@pytest.mark.parametrize(
    "uri",
    [
        "ftp://repo.example.net/x.zip",
        "file:///etc/passwd",
        "/relative/x.zip",
        "https:///no-host",
        "not a uri",
    ],
)
def test_unsupported_uri_400(pkgm, web, uri):
    pkg = pkgm.create()
    resp = _from_uri(pkgm, pkg["id"], {"addressInformation": uri}, 400)
    assert "addressInformation" in resp.json["detail"]
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert web.requests == []


@pytest.mark.parametrize(
    "body",
    [{}, {"addressInformation": 1}, {"addressInformation": URL, "x": 1}],
)
def test_bad_body_400(pkgm, body):
    pkg = pkgm.create()
    _from_uri(pkgm, pkg["id"], body, 400)


def test_only_from_created_409(pkgm, web):
    web.route(URL, _zip())
    pkg = pkgm.onboard(MINIMAL)
    resp = _from_uri(pkgm, pkg["id"], {"addressInformation": URL}, 409)
    assert "ONBOARDED" in resp.json["detail"]
    assert web.requests == []


def test_https_only_configuration(pkgm, web, conf):
    conf.set_override("upload_from_uri_schemes", ["https"], "vnf_package")
    pkg = pkgm.create()
    _from_uri(
        pkgm, pkg["id"], {"addressInformation": "http://repo/x.zip"}, 400
    )
