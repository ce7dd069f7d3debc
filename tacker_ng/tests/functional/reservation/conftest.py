"""The reservation deployment on minicloud, one per test module."""

import pytest

from tacker_ng.tests.functional import services
from tacker_ng.tests.functional.reservation import deployment as deploy_mod


@pytest.fixture(scope="module")
def dep(minicloud, tmp_path_factory):
    """tacker-ng with the reservation service (see deployment.py)."""
    services.require("rabbitmq")
    services.require("redis")
    with services.scratch_database("mariadb") as sql_url:
        yield from deploy_mod.deploy(
            minicloud, tmp_path_factory.mktemp("rsv"), sql_url
        )
