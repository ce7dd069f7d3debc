"""The fleet's figures for ``/metrics``, in one statement per scrape.

What the database already knows is read, not instrumented: op occs by
operation and state, how long the recently finished ones took (histogram
buckets counted in SQL), the notification outbox's backlog, and what
each conductor reported with its heartbeat (its last observation cycle,
the jobboard it sees). The parts are one ``UNION ALL``: one round trip
whatever the number of metrics; its rows carry a ``kind`` and generic
columns that :func:`snapshot` unpacks into :class:`FleetSnapshot`.

Counting op occs by operation and state reads the index
``vnf_lcm_op_occs_metrics_idx`` only (15 ms for 100,000 op occs on
MariaDB or PostgreSQL). Durations (``stateEnteredTime - startTime``,
each dialect's own date arithmetic) are computed only for the op occs
that reached a final state (COMPLETED, FAILED, ROLLED_BACK) within a
window (``[metrics] duration_window``), found through the index on
``state_entered_time``: computing them for every op occ ever finished
took 200-300 ms per scrape at 100,000 (``tools/bench/metrics_query.py``).
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


@dataclasses.dataclass(frozen=True)
class OpOccDurations:
    """Op occs of one operation that reached final ``state`` within the
    window: how many, their total seconds and, per upper bound of
    :data:`DURATION_BUCKETS`, how many took at most that long."""

    operation: str
    state: str
    count: int
    total: float
    buckets: tuple[int, ...]


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
    durations: Sequence[OpOccDurations]
    notifications_pending: int
    #: Seconds since the oldest undelivered notification was queued.
    oldest_notification_age: float
    conductors: Sequence[ConductorFigures]


def _statement(now: datetime.datetime, window: float) -> sa.Select:
    occ = models.VnfLcmOpOcc
    took = SecondsBetween(occ.start_time, occ.state_entered_time)
    at = sa.literal(now, UTCDateTime())
    since = now - datetime.timedelta(seconds=window)

    def when(cond) -> sa.ColumnElement:
        return sa.func.sum(sa.case((cond, 1), else_=0))

    def nothing() -> sa.ColumnElement:
        return sa.null()  # a new one each time: a select dedupes repeats

    def pad(used: int) -> list[sa.ColumnElement]:
        return [nothing() for _ in range(used, len(DURATION_BUCKETS))]

    op_occs = sa.select(
        sa.literal("op").label("kind"),
        occ.operation.label("a"),
        occ.operation_state.label("b"),
        sa.func.count().label("n"),
        nothing().label("v"),
        *(nothing().label(f"x{i}") for i in range(len(DURATION_BUCKETS))),
    ).group_by(occ.operation_state, occ.operation)
    durations = (
        sa.select(
            sa.literal("took"),
            occ.operation,
            occ.operation_state,
            sa.func.count(),
            sa.func.sum(took),
            *(when(took <= le) for le in DURATION_BUCKETS),
        )
        .where(
            occ.state_entered_time >= since,
            occ.operation_state.in_(FINAL_STATES),
        )
        .group_by(occ.operation_state, occ.operation)
    )
    note = models.LcmNotification
    outbox = sa.select(
        sa.literal("outbox"),
        nothing(),
        nothing(),
        sa.func.count(),
        SecondsBetween(sa.func.min(note.created_at), at),
        *pad(0),
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
        *pad(2),
    )
    return sa.union_all(op_occs, durations, outbox, conductors)


def _count(value) -> int:
    return int(value or 0)


def snapshot(now: datetime.datetime, window: float = 86400.0) -> FleetSnapshot:
    """Every figure, read in one statement (``now``: for ages; durations
    of the op occs finished in the last ``window`` seconds)."""
    ops: list[OpOccGroup] = []
    took: list[OpOccDurations] = []
    hosts: list[ConductorFigures] = []
    pending, oldest = 0, 0.0
    with db_api.read_connection() as conn:
        rows = conn.execute(_statement(now, window)).all()
    for kind, a, b, n, v, *x in rows:
        if kind == "op":
            ops.append(OpOccGroup(a, b, _count(n)))
        elif kind == "took":
            took.append(
                OpOccDurations(
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
    return FleetSnapshot(ops, took, pending, oldest, hosts)
