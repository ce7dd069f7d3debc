"""Publishing performance reports: the steps a collector takes for each
PM job due (SOL003 6.3.x "performance information available").

:func:`publish_report` is one transaction's work: move the job's schedule
on (a conditional UPDATE: the database decides which collector reports a
period), store the report with its entries, and put one
PerformanceInformationAvailableNotification per measured object instance
in the notification outbox. Delivery, retries and callback
authentication are the outbox's (:mod:`tacker_ng.nfvo.delivery`); the
job is its own subscription.
"""

import datetime
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from oslo_config import cfg
from sqlalchemy import orm

from tacker_ng.db import notifications as outbox
from tacker_ng.db import pm_jobs
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo.notify import public_base_url
from tacker_ng.pm import bodies, schedule


def jobs_due(
    session: orm.Session,
    now: datetime.datetime | None = None,
    shards: Collection[int] | None = None,
    limit: int = 100,
) -> list[Mapping[str, Any]]:
    """PM jobs whose reporting period has ended, in ``shards`` (see
    :func:`tacker_ng.pm.shards.owned`) or all when None."""
    return pm_jobs.due(session, now or utcnow(), shards, limit)


def _by_object(
    entries: Sequence[Mapping[str, Any]],
) -> dict[str, list[str]]:
    """Object instance id -> its sub-object ids, in entry order."""
    out: dict[str, list[str]] = {}
    for entry in entries:
        subs = out.setdefault(entry["objectInstanceId"], [])
        sub = entry.get("subObjectInstanceId")
        if sub and sub not in subs:
            subs.append(sub)
    return out


def _notifications(
    base: str,
    job: Mapping[str, Any],
    report_id: str,
    entries: Sequence[Mapping[str, Any]],
    now: datetime.datetime,
) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (
            job["id"],
            bodies.PERFORMANCE_INFORMATION_AVAILABLE,
            bodies.performance_information_available(
                base, job, report_id, instance_id, subs, now
            ),
        )
        for instance_id, subs in _by_object(entries).items()
    ]


def publish_reports(
    session: orm.Session,
    ready: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> list[str | None]:
    """Report the period of each job of ``ready`` (job, entries) that
    ended at its ``next_report_at``: one transaction, three inserts for
    all of them.

    ``entries`` are PerformanceReport entries (build them with
    :func:`tacker_ng.pm.bodies.report_entry`). Returns, per job, the
    report id, or None when another collector reported this period, the
    job is gone, or nothing was measured (the schedule still moves on:
    an empty period is no performance information).
    """
    now = now or utcnow()
    base = public_base_url(conf)
    expiry = now + datetime.timedelta(seconds=conf.pm.report_retention)
    made: list[str | None] = []
    reports, rows, notes = [], [], []
    for job, entries in ready:
        due_at = job["next_report_at"]
        if due_at is None:
            made.append(None)
            continue
        period = job["criteria"]["reportingPeriod"]
        next_at = schedule.next_due(
            due_at, period, now, job.get("reporting_boundary")
        )
        if not pm_jobs.advance(session, job["id"], due_at, next_at) or (
            not entries
        ):
            made.append(None)
            continue
        start = due_at - datetime.timedelta(seconds=period)
        report = pm_jobs.report_row(job, (start, due_at), now, expiry)
        reports.append(report)
        rows.extend(pm_jobs.entry_rows(report, entries))
        notes.extend(_notifications(base, job, report["id"], entries, now))
        made.append(report["id"])
    pm_jobs.insert_reports(session, reports, rows)
    outbox.enqueue_many(session, notes)
    return made


def publish_report(
    session: orm.Session,
    job: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> str | None:
    """:func:`publish_reports` of one job."""
    return publish_reports(session, [(job, entries)], now, conf)[0]


def expire_reports(
    session: orm.Session, now: datetime.datetime | None = None
) -> int:
    """Delete reports past their expiryTime (a batch; call again while it
    returns a full one)."""
    return pm_jobs.delete_expired_reports(session, now or utcnow())
