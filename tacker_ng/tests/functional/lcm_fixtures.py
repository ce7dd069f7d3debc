"""Shared fixtures of the LCM functional tests (imported by modules)."""

import contextlib
import time

import requests

from tacker_ng import context as tcontext
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.functional import deployment, services

FAKE_VIM_TYPE = "TACKERNG.TEST.FAKE"
ZONES = ["zone-a", "zone-b", "zone-c", "zone-d"]


def fake_vim(zones=ZONES) -> dict:
    return {
        "vim1": {
            "vimId": "vim1",
            "vimType": FAKE_VIM_TYPE,
            "interfaceInfo": {"endpoint": "http://fake.invalid"},
            "accessInfo": {"username": "u", "password": "vim-secret"},
            "extra": {"zones": list(zones)},
        }
    }


def create_instance(dep, client) -> str:
    """A VNF instance of the onboarded sample package on the fake VIM."""
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def subscribe(client, receiver) -> None:
    """Subscribe ``receiver`` (user nfvo, password cb-pass) to every LCM
    notification."""
    resp = client.post(
        "/vnflcm/v2/subscriptions",
        {
            "callbackUri": receiver.url,
            "authentication": {
                "authType": ["BASIC"],
                "paramsBasic": {"userName": "nfvo", "password": "cb-pass"},
            },
        },
    )
    assert resp.status_code == 201, resp.text


def remote_nfvo(nfvo) -> dict:
    """``[nfvo]`` options for a :class:`.fake_nfvo.FakeNfvo` made with
    client ``vnfm`` / secret ``s3cret``."""
    return {
        "mode": "remote",
        "endpoint": nfvo.url,
        "auth_type": "oauth2_client_credentials",
        "client_id": "vnfm",
        "client_secret": "s3cret",
        "token_endpoint": f"{nfvo.url}/token",
    }


@contextlib.contextmanager
def lcm_deployment(tmp_path, backend, **kwargs):
    """A deployment on ``backend`` with the sample package onboarded."""
    with (
        services.scratch_database(backend) as sql_url,
        deployment.deploy(tmp_path, sql_url, **kwargs) as dep,
    ):
        with (
            fixtures.config(str(tmp_path)),
            fixtures.database(sql_url, migrate=False),
        ):
            package = lcm_packages.onboard(
                tcontext.get_admin_context(), lcm_packages.build()
            )
        dep.package = package
        yield dep


PKGM = "/vnfpkgm/v1/vnf_packages"


def onboard_via_api(dep, data: bytes, timeout: float = 60, **create) -> dict:
    """Create a package, PUT ``data`` through the API and wait until the
    conductors are done; returns the final VnfPkgInfo (ONBOARDED or
    ERROR)."""
    headers = dict(dep.auth)
    resp = requests.post(
        dep.url + PKGM, json=create, headers=headers, timeout=30
    )
    assert resp.status_code == 201, resp.text
    pkg_id = resp.json()["id"]
    resp = requests.put(
        f"{dep.url}{PKGM}/{pkg_id}/package_content",
        data=data,
        headers={**headers, "Content-Type": "application/zip"},
        timeout=60,
    )
    assert resp.status_code == 202, resp.text
    return wait_onboarding(dep, pkg_id, timeout)


def wait_onboarding(dep, pkg_id: str, timeout: float = 60) -> dict:
    """The VnfPkgInfo of ``pkg_id`` once it is ONBOARDED or ERROR."""
    deadline = time.monotonic() + timeout
    pkg = None
    while time.monotonic() < deadline:
        pkg = requests.get(
            f"{dep.url}{PKGM}/{pkg_id}", headers=dep.auth, timeout=30
        ).json()
        if pkg["onboardingState"] in ("ONBOARDED", "ERROR"):
            return pkg
        time.sleep(0.2)
    raise AssertionError(f"package {pkg_id} did not finish onboarding: {pkg}")
