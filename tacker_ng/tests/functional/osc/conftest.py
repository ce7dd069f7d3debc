"""A tacker-ng deployment (API, two conductors, RabbitMQ, MariaDB, the
fake VIM driver) shared by the CLI tests of one module."""

import pytest

from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.osc.cli import Cli


@pytest.fixture(scope="module")
def dep(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("osc")
    with lcm_fixtures.lcm_deployment(tmp, "mariadb") as deployment:
        yield deployment


@pytest.fixture(scope="module")
def cli(dep):
    return Cli(dep.url, "operator", "op-pass")
