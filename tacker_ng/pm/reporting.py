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


def publish_report(
    session: orm.Session,
    job: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> str | None:
    """Report the period of ``job`` that ended at its ``next_report_at``.

    ``entries`` are PerformanceReport entries (build them with
    :func:`tacker_ng.pm.bodies.report_entry`). Returns the report id, or
    None when another collector reported this period, the job is gone,
    or nothing was measured (the schedule still moves on: an empty
    period is no performance information).
    """
    now = now or utcnow()
    due_at = job["next_report_at"]
    if due_at is None:
        return None
    period = job["criteria"]["reportingPeriod"]
    next_at = schedule.next_due(
        due_at, period, now, job.get("reporting_boundary")
    )
    if not pm_jobs.advance(session, job["id"], due_at, next_at):
        return None
    if not entries:
        return None
    start = due_at - datetime.timedelta(seconds=period)
    expiry = now + datetime.timedelta(seconds=conf.pm.report_retention)
    report_id = pm_jobs.insert_report(
        session, job, (start, due_at), now, expiry, entries
    )
    base = public_base_url(conf)
    for instance_id, subs in _by_object(entries).items():
        payload = bodies.performance_information_available(
            base, job, report_id, instance_id, subs, now
        )
        outbox.enqueue(
            session,
            job["id"],
            bodies.PERFORMANCE_INFORMATION_AVAILABLE,
            payload,
        )
    return report_id


def expire_reports(
    session: orm.Session, now: datetime.datetime | None = None
) -> int:
    """Delete reports past their expiryTime (a batch; call again while it
    returns a full one)."""
    return pm_jobs.delete_expired_reports(session, now or utcnow())
