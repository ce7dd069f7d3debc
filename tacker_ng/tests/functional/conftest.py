"""Functional tests: real processes against real services."""

import pytest

from tacker_ng.tests.functional import services

pytest_plugins = [
    "tacker_ng.tests.functional.fixtures.minicloud",
    "tacker_ng.tests.functional.fixtures.simk8s",
    "tacker_ng.tests.functional.fixtures.sshd",
]


@pytest.fixture(params=["mariadb", "postgresql"])
def sql_url(request):
    """A fresh, empty database on each real SQL backend."""
    with services.scratch_database(request.param) as url:
        yield url


@pytest.fixture
def rabbit_url():
    services.require("rabbitmq")
    return services.RABBIT_URL


#: Fixtures that touch the one shared minicloud (cloud-wide resets).
MINICLOUD_FIXTURES = frozenset({"minicloud", "minicloud_clean"})


def pytest_collection_modifyitems(config, items):
    """Every test using minicloud must carry ``pytest.mark.minicloud``.

    tools/run-functional.sh runs those tests in their own pytest process,
    one at a time, beside a second process running all the others.
    """
    unmarked = [
        item.nodeid
        for item in items
        if MINICLOUD_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("minicloud") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "tests using minicloud need pytestmark = pytest.mark.minicloud:"
            f" {', '.join(unmarked)}"
        )
