"""``.../package_content``: upload (PUT) and fetch (GET), state changes."""

import io
import random

import oslo_messaging as messaging
import pytest
import webob

from tacker_ng.conductor import rpcapi
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, ZIP, V

PKGS = f"{PREFIX}/vnf_packages"
MINIMAL = helpers.make_zip(helpers.minimal_files())


def _noise(size: int) -> bytes:
    """Incompressible bytes."""
    return random.Random(size).randbytes(size)


def _content(pkg_id):
    return f"{PKGS}/{pkg_id}/package_content"


def test_upload_walks_created_uploading_processing_onboarded(
    pkgm, monkeypatch
):
    seen = []
    from tacker_ng.packages import onboarding

    real = onboarding._process

    def spy(context, package_id):
        seen.append(pkgm.get(package_id)["onboardingState"])
        real(context, package_id)

    monkeypatch.setattr(onboarding, "_process", spy)
    pkg = pkgm.create()
    resp = pkgm.upload(pkg["id"], MINIMAL)
    assert resp.body == b""
    done = pkgm.wait(pkg["id"])
    assert seen == ["PROCESSING"]
    assert done["onboardingState"] == "ONBOARDED"
    assert done["operationalState"] == "ENABLED"
    assert done["vnfdId"] == "11111111-2222-3333-4444-555555555555"
    assert done["vnfProductName"] == "minimal"
    assert done["checksum"]["algorithm"] == "SHA-512"
    assert done["_links"]["vnfd"]["href"].endswith(f"{pkg['id']}/vnfd")
    assert "onboardingFailureDetails" not in done


def test_package_content_is_the_upload(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    resp = pkgm.app.get(
        _content(pkg["id"]), headers={**V, "Accept": "application/zip"}
    )
    assert resp.content_type == "application/zip"
    assert resp.body == MINIMAL
    assert resp.headers["Accept-Ranges"] == "bytes"
    import hashlib

    assert pkg["checksum"]["hash"] == hashlib.sha512(MINIMAL).hexdigest()


def test_package_content_range(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    resp = pkgm.app.get(
        _content(pkg["id"]), headers={**V, "Range": "bytes=10-19"}, status=206
    )
    assert resp.body == MINIMAL[10:20]
    assert resp.headers["Content-Range"] == f"bytes 10-19/{len(MINIMAL)}"
    pkgm.app.get(
        _content(pkg["id"]),
        headers={**V, "Range": f"bytes={len(MINIMAL) + 5}-"},
        status=416,
    )


def test_package_content_needs_onboarded_409(pkgm):
    pkg = pkgm.create()
    resp = pkgm.app.get(_content(pkg["id"]), headers=V, status=409)
    assert "CREATED" in resp.json["detail"]
    for sub in ("vnfd", "artifacts/Definitions/vnfd.yaml"):
        pkgm.app.get(f"{PKGS}/{pkg['id']}/{sub}", headers=V, status=409)


def test_package_content_not_acceptable_406(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    resp = pkgm.app.get(
        _content(pkg["id"]), headers={**V, "Accept": "text/html"}, status=406
    )
    assert resp.content_type == "application/problem+json"


def test_second_upload_409(pkgm):
    pkg = pkgm.onboard(MINIMAL)
    resp = pkgm.upload(pkg["id"], MINIMAL, status=409)
    assert "ONBOARDED" in resp.json["detail"]
    assert "needs CREATED" in resp.json["detail"]


def test_upload_wrong_media_type_415(pkgm):
    pkg = pkgm.create()
    for content_type in ("application/octet-stream", "text/plain"):
        resp = pkgm.app.put(
            _content(pkg["id"]),
            MINIMAL,
            headers={**V, "Content-Type": content_type},
            status=415,
        )
        assert resp.json["status"] == 415
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"


def test_upload_larger_than_declared_limit_413_before_reading(pkgm, conf):
    conf.set_override("max_archive_size", len(MINIMAL) - 1, "vnf_package")
    pkg = pkgm.create()
    resp = pkgm.upload(pkg["id"], MINIMAL, status=413)
    assert resp.json["status"] == 413
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert pkgm.store_entries() <= {".archives", ".incoming"}


class _Chunked(io.RawIOBase):
    """A request body without Content-Length (chunked transfer)."""

    def __init__(self, data: bytes) -> None:
        self.inner = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buf):
        chunk = self.inner.read(min(len(buf), 1000))
        buf[: len(chunk)] = chunk
        return len(chunk)


def _put_chunked(pkgm, pkg_id, data: bytes):
    req = webob.Request.blank(
        _content(pkg_id),
        method="PUT",
        headers={**V, "Content-Type": "application/zip"},
    )
    req.body_file = _Chunked(data)  # no Content-Length, input terminated
    return req.get_response(pkgm.app.app)


def test_upload_too_large_while_streaming_413(pkgm, conf):
    data = helpers.make_zip(
        {**helpers.minimal_files(), "Files/big": _noise(60_000)}
    )
    conf.set_override("max_archive_size", 50_000, "vnf_package")
    assert len(data) > 50_000
    pkg = pkgm.create()
    resp = _put_chunked(pkgm, pkg["id"], data)
    assert resp.status_int == 413, resp.text
    assert resp.content_type == "application/problem+json"
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert not any(p.endswith(".part") for p in pkgm.store_entries())
    # The package can still be uploaded.
    resp = _put_chunked(pkgm, pkg["id"], MINIMAL)
    assert resp.status_int == 202, resp.text
    assert pkgm.wait(pkg["id"])["onboardingState"] == "ONBOARDED"


def test_big_upload_passes_the_generic_body_limit(pkgm, conf):
    # [oslo_middleware] max_request_body_size (112 KiB by default) does
    # not apply to package uploads; max_archive_size does.
    conf.set_override("max_request_body_size", 1024, "oslo_middleware")
    data = helpers.make_zip(
        {**helpers.minimal_files(), "Files/blob": _noise(160_000)}
    )
    assert len(data) > 150_000
    pkg = pkgm.create()
    pkgm.upload(pkg["id"], data)
    assert pkgm.wait(pkg["id"])["onboardingState"] == "ONBOARDED"


def test_empty_upload_400(pkgm):
    pkg = pkgm.create()
    resp = pkgm.upload(pkg["id"], b"", status=400)
    assert "empty" in resp.json["detail"]
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"


def test_client_gone_mid_body_400_and_created_again(pkgm):
    pkg = pkgm.create()
    req = webob.Request.blank(
        _content(pkg["id"]),
        method="PUT",
        headers={**V, "Content-Type": "application/zip"},
    )
    req.body_file = io.BytesIO(MINIMAL[:100])
    req.content_length = len(MINIMAL)  # the client promised more
    resp = req.get_response(pkgm.app.app)
    assert resp.status_int == 400, resp.text
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert not any(p.startswith(".incoming/") for p in pkgm.store_entries())


def test_conductor_unreachable_503_and_created_again(pkgm, monkeypatch):
    def refuse(self, context, package_id):
        raise messaging.MessageDeliveryFailure("bus down")

    monkeypatch.setattr(rpcapi.ConductorAPI, "upload_vnf_package", refuse)
    pkg = pkgm.create()
    resp = pkgm.upload(pkg["id"], MINIMAL, status=503)
    assert "CREATED again" in resp.json["detail"]
    assert pkgm.get(pkg["id"])["onboardingState"] == "CREATED"
    assert pkgm.store_entries() <= {".archives", ".incoming"}
    monkeypatch.undo()
    pkgm.upload(pkg["id"], MINIMAL)
    assert pkgm.wait(pkg["id"])["onboardingState"] == "ONBOARDED"


@pytest.mark.parametrize("method", ["put", "get"])
def test_onboarded_path_is_read_only(pkgm, method):
    pkg = pkgm.onboard(MINIMAL)
    url = f"{PREFIX}/onboarded_vnf_packages/{pkg['vnfdId']}/package_content"
    if method == "put":
        resp = pkgm.app.put(url, MINIMAL, headers=ZIP, status=405)
        assert resp.headers["Allow"] == "GET"
    else:
        assert pkgm.app.get(url, headers=V).body == MINIMAL
