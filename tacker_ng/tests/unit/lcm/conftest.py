"""In-process LCM environment: API + conductor threads + fake VIM.

SQLite file, in-process bus, the test drivers discovered through a
throw-away distribution on sys.path. No network, no services.
"""

import sys
import time

import pytest
import webtest
from stevedore.extension import ExtensionManager

from tacker_ng import context as tcontext
from tacker_ng import crypto
from tacker_ng.api import app as api_app
from tacker_ng.conductor import service as conductor_service
from tacker_ng.infra import registry
from tacker_ng.mgmt import base as mgmt_base
from tacker_ng.tests import lcm_packages
from tacker_ng.tests.drivers import fake, plugin

V = {"Version": "2.0.0"}
FAKE_VIM = {
    "vim1": {
        "vimId": "vim1",
        "vimType": fake.VIM_TYPE,
        "interfaceInfo": {"endpoint": "http://fake.invalid"},
        "accessInfo": {"username": "u", "password": "vim-secret"},
        "extra": {"zones": ["zone-a", "zone-b", "zone-c", "zone-d"]},
    }
}


@pytest.fixture(scope="session")
def test_drivers(tmp_path_factory):
    path = str(plugin.write(tmp_path_factory.mktemp("plugins")))
    sys.path.insert(0, path)
    _forget_drivers()
    yield
    sys.path.remove(path)
    _forget_drivers()


def _forget_drivers() -> None:
    """Drivers are looked up again: ours and stevedore's caches (stevedore
    keeps a namespace's entry points per process, whatever sys.path says,
    so a test that looked a driver up earlier in this worker would hide
    the test drivers)."""
    registry.get_driver.cache_clear()
    mgmt_base.get_driver.cache_clear()
    for namespace in (registry.NAMESPACE, mgmt_base.NAMESPACE):
        ExtensionManager.ENTRY_POINT_CACHE.pop(namespace, None)


@pytest.fixture
def lcm(conf, db, test_drivers, tmp_path):
    conf.set_override("test_callback_uri", False, group="notification")
    conf.set_override("poll_interval", 0.05, group="notification")
    crypto.forget_keys()
    conductor = conductor_service.ConductorService(conf)
    conductor.start()
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    ctx = tcontext.get_admin_context()
    package = lcm_packages.onboard(ctx, lcm_packages.build())
    yield Lcm(app, package)
    conductor.stop(graceful=False)
    crypto.forget_keys()


class Lcm:
    """Helpers for driving the LCM API in tests."""

    def __init__(self, app, package, timeout: float = 90) -> None:
        self.app = app
        self.package = package
        #: Seconds an op may take to reach its final state: a hang
        #: detector, not a speed requirement (the suite runs at nice 10
        #: beside the functional tests: 16-18 s ops were seen on 2
        #: saturated cores, so 15 s failed good runs).
        self.timeout = timeout

    def create(self, **extra) -> dict:
        body = {
            "vnfdId": self.package["vnfd_id"],
            "vnfInstanceName": "t",
            "vimConnectionInfo": FAKE_VIM,
            **extra,
        }
        return self.app.post_json(
            "/vnflcm/v2/vnf_instances", body, headers=V
        ).json

    def task(self, instance_id, task, body, status=202):
        resp = self.app.post_json(
            f"/vnflcm/v2/vnf_instances/{instance_id}/{task}",
            body,
            headers=V,
            expect_errors=status != 202,
        )
        assert resp.status_int == status, resp.text
        return resp

    def occ(self, occ_id) -> dict:
        return self.app.get(
            f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}", headers=V
        ).json

    def wait(self, occ_id, states, timeout=None) -> dict:
        deadline = time.monotonic() + (timeout or self.timeout)
        occ = None
        while time.monotonic() < deadline:
            occ = self.occ(occ_id)
            if occ["operationState"] in states:
                return occ
            time.sleep(0.05)
        raise AssertionError(f"op occ {occ_id} stuck: {occ}")

    def run(self, instance_id, task, body, final=("COMPLETED",)) -> dict:
        resp = self.task(instance_id, task, body)
        occ_id = resp.headers["Location"].rsplit("/", 1)[1]
        return self.wait(occ_id, final)

    def instance(self, instance_id) -> dict:
        return self.app.get(
            f"/vnflcm/v2/vnf_instances/{instance_id}", headers=V
        ).json
