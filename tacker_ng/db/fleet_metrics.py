"""The fleet's figures for ``/metrics``, in one statement per scrape.

What the database already knows is read, not instrumented: op occs by
operation and state (and how long the finished ones took, as histogram
buckets counted in SQL), the notification outbox's backlog, and what each
conductor reported with its heartbeat (its last observation cycle, the
jobboard it sees). The three parts are one ``UNION ALL``: one round trip
whatever the number of metrics; its rows carry a ``kind`` and generic
columns that :func:`snapshot` unpacks into :class:`FleetSnapshot`.

Op occ durations are ``stateEnteredTime - startTime`` of op occs in a
final state (COMPLETED, FAILED, ROLLED_BACK), computed by each dialect's
own date arithmetic.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.ext import compiler
from sqlalchemy.sql import expression

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.db.types import UTCDateTime

FINAL_STATES = ("COMPLETED", "FAILED", "ROLLED_BACK")
#: Upper bounds (seconds) of the op occ duration buckets.
DURATION_BUCKETS = (1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0,
                    1800.0, 3600.0)  # fmt: skip


class SecondsBetween(expression.FunctionElement):
    """``end - start`` in seconds (float), in each dialect's terms."""

    type = sa.Float()
    name = "seconds_between"
    inherit_cache = True


@compiler.compiles(SecondsBetween, "sqlite")
def _sqlite(element, compiler_, **kw) -> str:
    start, end = (compiler_.process(c, **kw) for c in element.clauses)
    return f"((julianday({end}) - julianday({start})) * 86400.0)"


@compiler.compiles(SecondsBetween, "mysql")
@compiler.compiles(SecondsBetween, "mariadb")
def _mysql(element, compiler_, **kw) -> str:
    start, end = (compiler_.process(c, **kw) for c in element.clauses)
    return f"(TIMESTAMPDIFF(MICROSECOND, {start}, {end}) / 1000000.0)"


@compiler.compiles(SecondsBetween, "postgresql")
def _postgresql(element, compiler_, **kw) -> str:
    start, end = (compiler_.process(c, **kw) for c in element.clauses)
    return f"EXTRACT(EPOCH FROM ({end} - {start}))"


@dataclasses.dataclass(frozen=True)
class OpOccGroup:
    """Op occs of one operation in one state."""

    operation: str
    state: str
    count: int
    #: Finished ones only (else 0): total seconds and, per upper bound of
    #: :data:`DURATION_BUCKETS`, how many took at most that long.
    duration_sum: float
    duration_buckets: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class ConductorFigures:
    """A conductor's row: liveness and what its heartbeat reported."""

    hostname: str
    online: bool
    heartbeat_age: float
    observe_cycle_seconds: float | None
    jobboard_jobs: int | None
    jobboard_unclaimed: int | None


@dataclasses.dataclass(frozen=True)
class FleetSnapshot:
    op_occs: Sequence[OpOccGroup]
    notifications_pending: int
    #: Seconds since the oldest undelivered notification was queued.
    oldest_notification_age: float
    conductors: Sequence[ConductorFigures]


def _statement(now: datetime.datetime) -> sa.Select:
    occ = models.VnfLcmOpOcc
    final = occ.operation_state.in_(FINAL_STATES)
    took = SecondsBetween(occ.start_time, occ.state_entered_time)
    at = sa.literal(now, UTCDateTime())

    def when(cond) -> sa.ColumnElement:
        return sa.func.sum(sa.case((cond, 1), else_=0))

    op_occs = sa.select(
        sa.literal("op").label("kind"),
        occ.operation.label("a"),
        occ.operation_state.label("b"),
        sa.func.count().label("n"),
        sa.func.sum(sa.case((final, took), else_=0.0)).label("v"),
        *(
            when(sa.and_(final, took <= le)).label(f"x{i}")
            for i, le in enumerate(DURATION_BUCKETS)
        ),
    ).group_by(occ.operation, occ.operation_state)

    def nothing() -> sa.ColumnElement:
        return sa.null()  # a new one each time: a select dedupes repeats

    def pad() -> list[sa.ColumnElement]:
        return [nothing() for _ in range(3, len(DURATION_BUCKETS))]

    note = models.LcmNotification
    outbox = sa.select(
        sa.literal("outbox"),
        nothing(),
        nothing(),
        sa.func.count(),
        SecondsBetween(sa.func.min(note.created_at), at),
        nothing(),
        nothing(),
        nothing(),
        *pad(),
    ).where(note.delivered_at.is_(None))
    cond = models.Conductor
    conductors = sa.select(
        sa.literal("conductor"),
        cond.hostname,
        sa.case((cond.online, "online"), else_="offline"),
        cond.jobboard_jobs,
        cond.observe_cycle_seconds,
        SecondsBetween(cond.heartbeat_at, at),
        cond.jobboard_unclaimed,
        nothing(),
        *pad(),
    )
    return sa.union_all(op_occs, outbox, conductors)


def _count(value) -> int:
    return int(value or 0)


def snapshot(now: datetime.datetime) -> FleetSnapshot:
    """Every figure, read in one statement (``now``: for ages)."""
    ops: list[OpOccGroup] = []
    hosts: list[ConductorFigures] = []
    pending, oldest = 0, 0.0
    with db_api.read_connection() as conn:
        rows = conn.execute(_statement(now)).all()
    for kind, a, b, n, v, *x in rows:
        if kind == "op":
            ops.append(
                OpOccGroup(
                    a, b, _count(n), float(v or 0), tuple(map(_count, x))
                )
            )
        elif kind == "outbox":
            pending, oldest = _count(n), max(0.0, float(v or 0))
        else:
            hosts.append(
                ConductorFigures(
                    hostname=a,
                    online=b == "online",
                    heartbeat_age=max(0.0, float(x[0] or 0)),
                    observe_cycle_seconds=None if v is None else float(v),
                    jobboard_jobs=None if n is None else int(n),
                    jobboard_unclaimed=None if x[1] is None else int(x[1]),
                )
            )
    return FleetSnapshot(ops, pending, oldest, hosts)
