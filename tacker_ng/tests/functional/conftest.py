"""Functional tests: real processes against real services."""

import pytest

from tacker_ng.tests.functional import services

pytest_plugins = [
    "tacker_ng.tests.functional.lanes",
    "tacker_ng.tests.functional.fixtures.minicloud",
    "tacker_ng.tests.functional.fixtures.prometheus",
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


#: Fixtures that hold a lane (or all) of the shared minicloud.
MINICLOUD_FIXTURES = frozenset({"minicloud", "minicloud_clean"})
WHOLE_FIXTURES = frozenset({"minicloud_whole"})

#: Timeout (s) of a minicloud test without its own timeout mark. Its
#: stories boot and delete real servers one operation after another: the
#: k8s cluster story took 276-287 s on a slow 2-core machine and went past
#: the 300 s default in its final terminate. The timeout is there to end
#: a hang, not to measure speed (tools/bench/ does that).
MINICLOUD_TIMEOUT = 900


def pytest_collection_modifyitems(config, items):
    """Every test using minicloud must carry ``pytest.mark.minicloud``
    (``minicloud_whole`` when it holds every lane).

    tools/run-functional.sh runs the minicloud tests in one xdist worker
    per lane (then the whole-cloud ones alone), beside a second process
    running all the others. Those without a timeout mark of their own
    get :data:`MINICLOUD_TIMEOUT`.
    """
    for item in items:
        if (
            item.get_closest_marker("minicloud") is not None
            and item.get_closest_marker("timeout") is None
        ):
            item.add_marker(pytest.mark.timeout(MINICLOUD_TIMEOUT))
    for fixtures, marker in (
        (MINICLOUD_FIXTURES, "minicloud"),
        (WHOLE_FIXTURES, "minicloud_whole"),
    ):
        unmarked = [
            item.nodeid
            for item in items
            if fixtures & set(getattr(item, "fixturenames", ()))
            and item.get_closest_marker(marker) is None
        ]
        if unmarked:
            raise pytest.UsageError(
                f"tests using {'/'.join(sorted(fixtures))} need "
                f"pytest.mark.{marker}: {', '.join(unmarked)}"
            )
