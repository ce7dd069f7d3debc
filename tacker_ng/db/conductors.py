"""Queries on the ``conductors`` table: registration and heartbeats."""

import datetime
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import lcm_claims, models, upsert
from tacker_ng.db.types import utcnow


@db_api.retry_on_deadlock
def register(hostname: str, rpc_version: str) -> None:
    """Insert or revive this conductor's row, marking it online."""
    now = utcnow()
    state = {
        "online": True,
        "rpc_version": rpc_version,
        "started_at": now,
        "heartbeat_at": now,
        # A new life reports its own figures; none from the last one.
        "observe_cycle_seconds": None,
        "observe_cycle_at": None,
        "jobboard_jobs": None,
        "jobboard_unclaimed": None,
    }
    with db_api.writer() as session:
        upsert.upsert(
            session,
            models.Conductor.__table__,
            {"hostname": hostname, "created_at": now, **state},
            keys=["hostname"],
            update={**state, "updated_at": now},
        )


@db_api.retry_on_deadlock
def heartbeat(hostname: str, figures: Mapping[str, Any] | None = None) -> bool:
    """Touch the heartbeat, writing the conductor's latest ``figures``
    (columns, see :mod:`tacker_ng.metrics.conductor`) in the same
    statement; False when the row vanished (re-register)."""
    with db_api.writer() as session:
        return bool(
            session.execute(
                sa.update(models.Conductor)
                .where(models.Conductor.hostname == hostname)
                .values(heartbeat_at=utcnow(), online=True, **(figures or {}))
            ).rowcount
        )


@db_api.retry_on_deadlock
def unregister(hostname: str) -> None:
    """Mark this conductor offline on a clean shutdown."""
    with db_api.writer() as session:
        session.execute(
            sa.update(models.Conductor)
            .where(models.Conductor.hostname == hostname)
            .values(online=False, updated_at=utcnow())
        )


def list_all(context, alive_after: datetime.datetime) -> list[dict]:
    """Every known conductor with an ``alive`` flag and the op occs it
    has claimed (runs now; with a jobboard, the claim moves with the
    job to the conductor that resumes it), by host name."""
    with db_api.reader(context) as session:
        rows = session.scalars(
            sa.select(models.Conductor).order_by(models.Conductor.hostname)
        ).all()
        claimed = lcm_claims.claimed_by_host(session)
        return [
            {
                "hostname": row.hostname,
                "alive": row.online and row.heartbeat_at >= alive_after,
                "online": row.online,
                "rpcVersion": row.rpc_version,
                "startedAt": row.started_at,
                "heartbeatAt": row.heartbeat_at,
                "claimedOpOccs": claimed.get(row.hostname, []),
            }
            for row in rows
        ]
