"""PM collector steps on MariaDB and PostgreSQL: the unit cases of
publishing reports and recording threshold crossings run on the real
servers, and concurrent collectors race for the same period and the same
crossing: the database lets exactly one of them win."""

import threading

import pytest
import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models, models_pm
from tacker_ng.pm import crossings, reporting
from tacker_ng.tests import fixtures
from tacker_ng.tests.functional import services
from tacker_ng.tests.unit.pm import conftest as pm_cases
from tacker_ng.tests.unit.pm.test_crossings import (  # noqa: F401
    test_a_deleted_threshold_records_nothing,
    test_due_thresholds_are_claimed_once_per_round,
    test_many_values_write_only_the_ones_that_change_side,
    test_sub_objects_cross_independently,
    test_the_same_crossing_seen_twice_is_recorded_once,
    test_thresholds_claimed_together_once_per_round,
    test_values_crossing_up_and_down_notify_once_each,
)
from tacker_ng.tests.unit.pm.test_reporting import (  # noqa: F401
    _entries,
    test_an_empty_period_moves_on_without_a_report,
    test_deleting_a_job_drops_its_reports_and_pending_notifications,
    test_jobs_due_in_the_collectors_shards,
    test_one_report_per_period_and_a_notification_per_object,
    test_reports_expire,
    test_the_boundary_ends_the_schedule,
)
from tacker_ng.tests.unit.vnfpm.conftest import make_instance

_TABLES = (
    models_pm.PmThresholdState.__table__,
    models_pm.PmThreshold.__table__,
    models_pm.PmReportEntry.__table__,
    models_pm.PmReport.__table__,
    models_pm.PmJob.__table__,
    models.LcmNotification.__table__,
    models.VnfInstance.__table__,
)


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def backend(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"pm-{request.param}")
    with (
        services.scratch_database(request.param) as url,
        fixtures.config(str(tmp)) as conf,
        fixtures.database(url) as engine,
    ):
        yield conf, engine


@pytest.fixture
def conf(backend):
    conf, engine = backend
    with engine.begin() as conn:
        for table in _TABLES:
            conn.execute(sa.delete(table))
    return conf


@pytest.fixture
def vnf(conf):
    return make_instance("default")


def _race(n, work):
    """Run ``work`` in ``n`` threads started together; their results."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        barrier.wait()
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as s:
                results[i] = work(s)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_concurrent_collectors_report_a_period_once(conf, vnf):
    job = pm_cases.store_job(vnf["id"])
    now = pm_cases.T0 + 301 * pm_cases.S
    results = _race(
        8, lambda s: reporting.publish_report(s, job, _entries(vnf["id"]), now)
    )
    assert len([r for r in results if r]) == 1, results
    with db_api.reader() as s:
        reports = s.execute(sa.select(models_pm.PmReport)).all()
        notes = s.execute(sa.select(models.LcmNotification)).all()
    assert len(reports) == 1 and len(notes) == 1


def test_concurrent_collectors_notify_a_crossing_once(conf, vnf):
    th = pm_cases.store_threshold(vnf["id"])
    results = _race(
        8,
        lambda s: crossings.record_value(
            s, th, vnf["id"], "c1", 97.0, None, pm_cases.T0
        ),
    )
    assert results.count("UP") == 1 and results.count(None) == 7, results
    with db_api.reader() as s:
        notes = s.execute(sa.select(models.LcmNotification)).all()
    assert len(notes) == 1
