"""PM jobs and their performance reports (SOL003 clause 6): the API's
create/read/modify/delete and the collector's due queries.

Which collector reports a period is decided by the database: the report
is written only by the transaction whose conditional UPDATE moves the
job's ``next_report_at`` on from the period it reports
(:func:`advance`); a second collector's UPDATE then matches no row.
"""

import datetime
import uuid
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models, models_pm, pm_rows
from tacker_ng.db import notifications as outbox
from tacker_ng.db.types import utcnow

JOBS = models_pm.PmJob.__table__
REPORTS = models_pm.PmReport.__table__
ENTRIES = models_pm.PmReportEntry.__table__


class PmJobNotFound(exceptions.NotFound):
    message = "PM job {id} does not exist."


class PerformanceReportNotFound(exceptions.NotFound):
    message = "Performance report {id} of PM job {job_id} does not exist."


def insert(session: orm.Session, values: Mapping[str, Any]) -> str:
    """Insert a job (``values`` are its columns, ``id`` included)."""
    return pm_rows.insert(session, JOBS, values)


def find(session: orm.Session, job_id: str) -> Mapping[str, Any] | None:
    return pm_rows.find(session, JOBS, job_id)


def get(
    session: orm.Session, job_id: str, project_id: str | None = None
) -> Mapping[str, Any]:
    """The job (404 when absent or another project's)."""
    return pm_rows.get(session, JOBS, job_id, project_id, PmJobNotFound)


def modify(
    session: orm.Session,
    job_id: str,
    project_id: str | None,
    changes: Mapping[str, Any],
) -> None:
    """Apply PmJobModifications (``callback_uri``, ``authentication``)."""
    pm_rows.modify(session, JOBS, job_id, project_id, changes, PmJobNotFound)


def delete(session: orm.Session, job_id: str, project_id: str | None) -> None:
    """Delete a job, its reports and its undelivered notifications."""
    reports = sa.select(REPORTS.c.id).where(REPORTS.c.job_id == job_id)
    session.execute(sa.delete(ENTRIES).where(ENTRIES.c.report_id.in_(reports)))
    session.execute(sa.delete(REPORTS).where(REPORTS.c.job_id == job_id))
    done = session.execute(
        sa.delete(JOBS).where(
            JOBS.c.id == job_id, pm_rows.visible(JOBS, project_id)
        )
    ).rowcount
    if not done:
        raise PmJobNotFound(id=job_id)
    outbox.drop_for_subscription(session, job_id)


def reports_of(
    conn: orm.Session | sa.engine.Connection, job_ids: Iterable[str]
) -> dict[str, list[Mapping[str, Any]]]:
    """The reports of each job (oldest first), for ``PmJob.reports``:
    one statement for a page of jobs."""
    ids = list(job_ids)
    out: dict[str, list[Mapping[str, Any]]] = {i: [] for i in ids}
    if not ids:
        return out
    rows = conn.execute(
        sa.select(
            REPORTS.c.id,
            REPORTS.c.job_id,
            REPORTS.c.ready_time,
            REPORTS.c.expiry_time,
        )
        .where(REPORTS.c.job_id.in_(ids))
        .order_by(REPORTS.c.ready_time, REPORTS.c.id)
    ).mappings()
    for row in rows:
        out[row["job_id"]].append(row)
    return out


def get_report(
    session: orm.Session,
    job_id: str,
    report_id: str,
    project_id: str | None = None,
) -> tuple[Mapping[str, Any], list[Mapping[str, Any]]]:
    """A report of a job with its entries (404 when either is absent)."""
    get(session, job_id, project_id)
    report = (
        session.execute(
            sa.select(REPORTS).where(
                REPORTS.c.id == report_id, REPORTS.c.job_id == job_id
            )
        )
        .mappings()
        .first()
    )
    if report is None:
        raise PerformanceReportNotFound(id=report_id, job_id=job_id)
    entries = list(
        session.execute(
            sa.select(ENTRIES)
            .where(ENTRIES.c.report_id == report_id)
            .order_by(ENTRIES.c.id)
        ).mappings()
    )
    return report, entries


def due(
    session: orm.Session,
    now: datetime.datetime,
    shards: Collection[int] | None = None,
    limit: int = 100,
) -> list[Mapping[str, Any]]:
    """Jobs whose reporting period ended by ``now`` (earliest first), in
    ``shards`` only unless None."""
    stmt = sa.select(JOBS).where(
        JOBS.c.next_report_at.is_not(None), JOBS.c.next_report_at <= now
    )
    if shards is not None:
        if not shards:
            return []
        stmt = stmt.where(JOBS.c.shard.in_(sorted(shards)))
    stmt = stmt.order_by(JOBS.c.next_report_at, JOBS.c.id).limit(limit)
    return list(session.execute(stmt).mappings())


_ADVANCE = (
    sa.update(JOBS)
    .where(
        JOBS.c.id == sa.bindparam("b_id"),
        JOBS.c.next_report_at == sa.bindparam("b_due"),
    )
    .values(
        next_report_at=sa.bindparam("b_next"),
        updated_at=sa.bindparam("b_now"),
    )
)


def advance(
    session: orm.Session,
    job_id: str,
    due_at: datetime.datetime,
    next_at: datetime.datetime | None,
) -> bool:
    """Move the job's schedule from ``due_at`` to ``next_at`` (None: no
    more reports); False when another collector did (or the job is gone).
    The row stays locked until the transaction ends. (One statement
    built once: a collector advances a thousand jobs a pass.)"""
    params = {"b_id": job_id, "b_due": due_at, "b_next": next_at}
    return bool(
        session.execute(_ADVANCE, {**params, "b_now": utcnow()}).rowcount
    )


def report_row(
    job: Mapping[str, Any],
    period: tuple[datetime.datetime, datetime.datetime],
    ready_time: datetime.datetime,
    expiry_time: datetime.datetime | None,
) -> dict[str, Any]:
    """A new report row of ``job`` (insert with :func:`insert_reports`)."""
    return {
        "id": str(uuid.uuid4()),
        "job_id": job["id"],
        "period_start": period[0],
        "period_end": period[1],
        "ready_time": ready_time,
        "expiry_time": expiry_time,
        "project_id": job["project_id"],
        "created_at": ready_time,
    }


def entry_rows(
    report: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The rows of a report's SOL-shaped ``entries``."""
    return [
        {
            "report_id": report["id"],
            "object_type": e["objectType"],
            "object_instance_id": e["objectInstanceId"],
            "sub_object_instance_id": e.get("subObjectInstanceId"),
            "performance_metric": e["performanceMetric"],
            "performance_values": e["performanceValues"],
            "created_at": report["ready_time"],
        }
        for e in entries
    ]


def insert_reports(
    session: orm.Session,
    reports: Sequence[Mapping[str, Any]],
    entries: Sequence[Mapping[str, Any]],
) -> None:
    """Store report rows and their entry rows (two statements)."""
    if reports:
        session.execute(sa.insert(REPORTS), list(reports))
    if entries:
        session.execute(sa.insert(ENTRIES), list(entries))


def insert_report(
    session: orm.Session,
    job: Mapping[str, Any],
    period: tuple[datetime.datetime, datetime.datetime],
    ready_time: datetime.datetime,
    expiry_time: datetime.datetime | None,
    entries: Sequence[Mapping[str, Any]],
) -> str:
    """Store a report of ``job`` with its SOL-shaped ``entries``."""
    report = report_row(job, period, ready_time, expiry_time)
    insert_reports(session, [report], entry_rows(report, entries))
    return report["id"]


def delete_expired_reports(
    session: orm.Session, now: datetime.datetime, limit: int = 1000
) -> int:
    """Delete up to ``limit`` reports whose expiryTime passed; returns how
    many (call again while it returns ``limit``)."""
    ids = list(
        session.execute(
            sa.select(REPORTS.c.id)
            .where(
                REPORTS.c.expiry_time.is_not(None),
                REPORTS.c.expiry_time <= now,
            )
            .limit(limit)
        ).scalars()
    )
    if not ids:
        return 0
    session.execute(sa.delete(ENTRIES).where(ENTRIES.c.report_id.in_(ids)))
    session.execute(sa.delete(REPORTS).where(REPORTS.c.id.in_(ids)))
    return len(ids)


def instantiated_among(session: orm.Session, ids: Iterable[str]) -> set[str]:
    """The VNF instances of ``ids`` that exist and are INSTANTIATED: the
    only ones a collector measures (a deleted or terminated instance's
    old series are no performance information)."""
    wanted = sorted(set(ids))
    found: set[str] = set()
    table = models.VnfInstance.__table__
    for i in range(0, len(wanted), 500):
        found.update(
            session.execute(
                sa.select(table.c.id).where(
                    table.c.id.in_(wanted[i : i + 500]),
                    table.c.instantiation_state == "INSTANTIATED",
                )
            ).scalars()
        )
    return found
