"""Shared fixtures of the LCM functional tests (imported by modules)."""

import contextlib

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
