"""Functional tests: real processes against real services."""

import pytest

from tacker_ng.tests.functional import services

pytest_plugins = ["tacker_ng.tests.functional.fixtures.minicloud"]


@pytest.fixture(params=["mariadb", "postgresql"])
def sql_url(request):
    """A fresh, empty database on each real SQL backend."""
    with services.scratch_database(request.param) as url:
        yield url


@pytest.fixture
def rabbit_url():
    services.require("rabbitmq")
    return services.RABBIT_URL
