"""Publishing a report: the database decides which collector reports a
period; the report, its entries and one notification per measured object
instance are written together; delivery is the outbox's."""

import datetime
import time

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models, pm_jobs
from tacker_ng.nfvo import delivery
from tacker_ng.pm import bodies, reporting, shards
from tacker_ng.tests.functional.receiver import Receiver
from tacker_ng.tests.unit.pm.conftest import T0, S, store_job

OUTBOX = models.LcmNotification.__table__


def _entries(instance_id, vnfcs=("c1", "c2"), value=12.5):
    return [
        bodies.report_entry(
            "Vnf",
            instance_id,
            vnfc,
            "VCpuUsageMeanVnf",
            [{"timeStamp": T0 + 300 * S, "value": value}],
        )  # fmt: skip
        for vnfc in vnfcs
    ]


def _publish(job, entries, now):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            return reporting.publish_report(s, job, entries, now)
    raise AssertionError("unreachable")


def _outbox():
    with db_api.reader() as s:
        return list(
            s.execute(sa.select(OUTBOX).order_by(OUTBOX.c.id)).mappings()
        )


def test_jobs_due_in_the_collectors_shards(conf, vnf):
    due = store_job(vnf["id"])
    later = store_job(vnf["id"], next_report_at=T0 + 900 * S)
    over = store_job(vnf["id"], next_report_at=None)
    now = T0 + 301 * S
    with db_api.reader() as s:
        assert [j["id"] for j in reporting.jobs_due(s, now)] == [due["id"]]
        assert reporting.jobs_due(s, T0 + 299 * S) == []
        mine = {shards.shard_of(due["id"])}
        assert [j["id"] for j in reporting.jobs_due(s, now, mine)] == [
            due["id"]
        ]
        others = set(range(shards.SHARD_COUNT)) - mine
        assert reporting.jobs_due(s, now, others) == []
        assert reporting.jobs_due(s, now, set()) == []
        both = reporting.jobs_due(s, T0 + 1000 * S)
    assert [j["id"] for j in both] == [due["id"], later["id"]]
    assert over["id"] not in {j["id"] for j in both}


def test_one_report_per_period_and_a_notification_per_object(conf, vnf):
    job = store_job(vnf["id"])
    now = T0 + 302 * S
    report_id = _publish(job, _entries(vnf["id"]), now)
    assert report_id
    # A second collector with the same due job: the database says no.
    assert _publish(job, _entries(vnf["id"]), now) is None
    with db_api.reader() as s:
        stored = pm_jobs.get(s, job["id"])
        report, entries = pm_jobs.get_report(s, job["id"], report_id)
    assert stored["next_report_at"] == T0 + 600 * S
    assert (
        report["period_start"] == T0 and report["period_end"] == T0 + 300 * S
    )
    assert report["ready_time"] == now
    retention = datetime.timedelta(seconds=conf.pm.report_retention)
    assert report["expiry_time"] == now + retention
    view = bodies.performance_report_view(entries)
    assert view["entries"] == _entries(vnf["id"])
    rows = _outbox()
    assert len(rows) == 1
    note = rows[0]
    assert note["subscription_id"] == job["id"]
    assert note["notification_type"] == (
        "PerformanceInformationAvailableNotification"
    )
    payload = note["payload"]
    assert payload["pmJobId"] == job["id"]
    assert payload["objectInstanceId"] == vnf["id"]
    assert payload["subObjectInstanceIds"] == ["c1", "c2"]
    assert payload["_links"]["performanceReport"]["href"].endswith(
        f"/vnfpm/v2/pm_jobs/{job['id']}/reports/{report_id}"
    )


def test_the_boundary_ends_the_schedule(conf, vnf):
    job = store_job(vnf["id"], reporting_boundary=T0 + 500 * S)
    assert _publish(job, _entries(vnf["id"]), T0 + 301 * S)
    with db_api.reader() as s:
        assert pm_jobs.get(s, job["id"])["next_report_at"] is None
        assert reporting.jobs_due(s, T0 + 10000 * S) == []


def test_an_empty_period_moves_on_without_a_report(conf, vnf):
    job = store_job(vnf["id"])
    assert _publish(job, [], T0 + 301 * S) is None
    with db_api.reader() as s:
        assert pm_jobs.get(s, job["id"])["next_report_at"] == T0 + 600 * S
        assert pm_jobs.reports_of(s, [job["id"]]) == {job["id"]: []}
    assert _outbox() == []


def test_reports_expire(conf, vnf):
    job = store_job(vnf["id"])
    report_id = _publish(job, _entries(vnf["id"]), T0 + 301 * S)
    expiry = T0 + 301 * S + conf.pm.report_retention * S
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert reporting.expire_reports(s, expiry - S) == 0
            assert reporting.expire_reports(s, expiry) == 1
    with db_api.reader() as s:
        assert pm_jobs.reports_of(s, [job["id"]]) == {job["id"]: []}
        assert not s.execute(
            sa.select(pm_jobs.ENTRIES).where(
                pm_jobs.ENTRIES.c.report_id == report_id
            )
        ).first()


def test_deleting_a_job_drops_its_reports_and_pending_notifications(conf, vnf):
    job = store_job(vnf["id"])
    _publish(job, _entries(vnf["id"]), T0 + 301 * S)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            pm_jobs.delete(s, job["id"], None)
    assert _outbox() == []
    with db_api.reader() as s:
        assert s.execute(sa.select(pm_jobs.ENTRIES)).first() is None
        assert s.execute(sa.select(pm_jobs.REPORTS)).first() is None


def test_the_outbox_delivers_to_the_jobs_callback_with_its_auth(conf, vnf):
    with Receiver("nfvo", "pm-secret") as nfvo:
        job = store_job(
            vnf["id"],
            callback=nfvo.url,
            auth={
                "authType": ["BASIC"],
                "paramsBasic": {"userName": "nfvo", "password": "pm-secret"},
            },
        )
        report_id = _publish(job, _entries(vnf["id"]), T0 + 301 * S)
        deliverer = delivery.Deliverer("cond-a", conf)
        deadline = time.monotonic() + 10
        while not nfvo.notifications and time.monotonic() < deadline:
            deliverer.run_once()
            time.sleep(0.05)
    assert len(nfvo.notifications) == 1
    received = nfvo.notifications[0]
    assert received["notificationType"] == (
        "PerformanceInformationAvailableNotification"
    )
    assert received["_links"]["performanceReport"]["href"].endswith(report_id)
    assert all(row["delivered_at"] for row in _outbox())
