"""In-process package API + conductor (SQLite, in-process bus, no network).

``pkgm`` drives ``/vnfpkgm/v1`` through the full WSGI pipeline with a
conductor thread that processes uploads; helpers wait for onboarding to
end and check that nothing was written outside the package store.
"""

import io
import os
import time
import zipfile

import pytest
import webtest

from tacker_ng import crypto
from tacker_ng.api import app as api_app
from tacker_ng.conductor import service as conductor_service
from tacker_ng.packages import store
from tacker_ng.tests.unit.lcm.conftest import test_drivers  # noqa: F401

PREFIX = "/vnfpkgm/v1"
V = {"Version": "2.1.0"}
ZIP = {"Content-Type": "application/zip", **V}
FINAL = ("ONBOARDED", "ERROR")


def tree(path) -> set[str]:
    """Every file and directory below ``path`` (relative)."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(path):
        for entry in dirnames + filenames:
            found.add(os.path.relpath(os.path.join(dirpath, entry), path))
    return found


class Pkgm:
    """Helpers for driving the package API in tests."""

    def __init__(self, app, tmp_path, conf) -> None:
        self.app = app
        self.tmp_path = tmp_path
        self.conf = conf

    def as_roles(self, *roles: str) -> "Pkgm":
        """The same API for a caller with only ``roles`` (no admin)."""
        self.conf.set_override("noauth_roles", list(roles), group="api")
        app = webtest.TestApp(api_app.build_wsgi_app(self.conf))
        self.conf.clear_override("noauth_roles", group="api")
        return Pkgm(app, self.tmp_path, self.conf)

    def create(self, body=None, status=201) -> dict:
        resp = self.app.post_json(
            f"{PREFIX}/vnf_packages",
            body or {},
            headers=V,
            status=status,
        )
        return resp.json

    def get(self, package_id, status=200) -> dict:
        return self.app.get(
            f"{PREFIX}/vnf_packages/{package_id}", headers=V, status=status
        ).json

    def upload(self, package_id, data: bytes, status=202, headers=None):
        return self.app.put(
            f"{PREFIX}/vnf_packages/{package_id}/package_content",
            data,
            headers={**ZIP, **(headers or {})},
            status=status,
        )

    def wait(self, package_id, states=FINAL, timeout=30) -> dict:
        deadline = time.monotonic() + timeout
        pkg = None
        while time.monotonic() < deadline:
            pkg = self.get(package_id)
            if pkg["onboardingState"] in states:
                return pkg
            time.sleep(0.02)
        raise AssertionError(f"package {package_id} stuck: {pkg}")

    def onboard(self, data: bytes, **create) -> dict:
        """Create, upload, wait; the package must end ONBOARDED."""
        pkg = self.create(create or None)
        self.upload(pkg["id"], data)
        done = self.wait(pkg["id"])
        assert done["onboardingState"] == "ONBOARDED", done
        return done

    def patch(self, package_id, body, status=200):
        return self.app.patch_json(
            f"{PREFIX}/vnf_packages/{package_id}",
            body,
            headers=V,
            status=status,
        )

    def delete(self, package_id, status=204):
        return self.app.delete(
            f"{PREFIX}/vnf_packages/{package_id}", headers=V, status=status
        )

    def outside_store(self) -> set[str]:
        """Files below tmp_path outside the store (and the SQLite DB and
        the conductors' coordination locks, which are not the package's)."""
        store_dir = os.path.relpath(store.root(), self.tmp_path)
        return {
            path
            for path in tree(self.tmp_path)
            if not path.startswith((store_dir, "coordination"))
            and "unit.sqlite" not in path
        }

    def store_entries(self) -> set[str]:
        return tree(store.root()) if store.root().exists() else set()


def zip_names(data: bytes) -> list[str]:
    return sorted(zipfile.ZipFile(io.BytesIO(data)).namelist())


@pytest.fixture
def pkgm(conf, db, tmp_path):
    conf.set_override("test_callback_uri", False, group="notification")
    crypto.forget_keys()
    conductor = conductor_service.ConductorService(conf)
    conductor.start()
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    yield Pkgm(app, tmp_path, conf)
    conductor.stop(graceful=False)
    crypto.forget_keys()


@pytest.fixture
def web(monkeypatch):
    """Every requests.Session talks to a FakeWeb instead of the network."""
    from tacker_ng.tests.unit.vnfpkgm.fakeweb import FakeWeb

    fake = FakeWeb()
    monkeypatch.setattr("requests.Session.get_adapter", lambda self, url: fake)
    return fake
