"""Thresholds (SOL003 clause 6) and the last crossing of each one per
measured object and sub-object.

A crossing is recorded by :func:`set_direction`: the threshold row is
locked first (a threshold deleted meanwhile records nothing), then a
conditional UPDATE changes the direction only where it differs, and a
first observation inserts the row. The database, not a read-then-write
check, decides whether a value is a change, so a crossing seen by two
collectors notifies once.
"""

import datetime
from collections.abc import Collection, Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm
from sqlalchemy.dialects import postgresql, sqlite

from tacker_ng import exceptions
from tacker_ng.db import models_pm, pm_rows
from tacker_ng.db import notifications as outbox
from tacker_ng.db.types import utcnow

THRESHOLDS = models_pm.PmThreshold.__table__
STATES = models_pm.PmThresholdState.__table__
#: Stored for a threshold (or a measured object) without sub-objects.
NO_SUB_OBJECT = ""


class ThresholdNotFound(exceptions.NotFound):
    message = "Threshold {id} does not exist."


def insert(session: orm.Session, values: Mapping[str, Any]) -> str:
    """Insert a threshold (``values`` are its columns, ``id`` included)."""
    return pm_rows.insert(session, THRESHOLDS, values)


def find(session: orm.Session, threshold_id: str) -> Mapping[str, Any] | None:
    return pm_rows.find(session, THRESHOLDS, threshold_id)


def get(
    session: orm.Session, threshold_id: str, project_id: str | None = None
) -> Mapping[str, Any]:
    """The threshold (404 when absent or another project's)."""
    return pm_rows.get(
        session, THRESHOLDS, threshold_id, project_id, ThresholdNotFound
    )


def modify(
    session: orm.Session,
    threshold_id: str,
    project_id: str | None,
    changes: Mapping[str, Any],
) -> None:
    """Apply ThresholdModifications (``callback_uri``, ``authentication``)."""
    pm_rows.modify(
        session,
        THRESHOLDS,
        threshold_id,
        project_id,
        changes,
        ThresholdNotFound,
    )


def delete(
    session: orm.Session, threshold_id: str, project_id: str | None
) -> None:
    """Delete a threshold, its states and undelivered notifications."""
    session.execute(
        sa.delete(STATES).where(STATES.c.threshold_id == threshold_id)
    )
    done = session.execute(
        sa.delete(THRESHOLDS).where(
            THRESHOLDS.c.id == threshold_id,
            pm_rows.visible(THRESHOLDS, project_id),
        )
    ).rowcount
    if not done:
        raise ThresholdNotFound(id=threshold_id)
    outbox.drop_for_subscription(session, threshold_id)


def due(
    session: orm.Session,
    now: datetime.datetime,
    shards: Collection[int] | None = None,
    limit: int = 100,
) -> list[Mapping[str, Any]]:
    """Thresholds due for an evaluation by ``now`` (earliest first), in
    ``shards`` only unless None."""
    stmt = sa.select(THRESHOLDS).where(THRESHOLDS.c.next_check_at <= now)
    if shards is not None:
        if not shards:
            return []
        stmt = stmt.where(THRESHOLDS.c.shard.in_(sorted(shards)))
    stmt = stmt.order_by(THRESHOLDS.c.next_check_at, THRESHOLDS.c.id)
    return list(session.execute(stmt.limit(limit)).mappings())


def checked(
    session: orm.Session,
    threshold_id: str,
    due_at: datetime.datetime,
    next_at: datetime.datetime,
) -> bool:
    """Move the next evaluation from ``due_at`` to ``next_at``; False when
    another collector did (it evaluates this round) or it is gone."""
    return bool(
        session.execute(
            sa.update(THRESHOLDS)
            .where(
                THRESHOLDS.c.id == threshold_id,
                THRESHOLDS.c.next_check_at == due_at,
            )
            .values(next_check_at=next_at)
        ).rowcount
    )


def checked_many(
    session: orm.Session,
    threshold_ids: Collection[str],
    now: datetime.datetime,
    next_at: datetime.datetime,
) -> set[str]:
    """Take this round of every threshold of ``threshold_ids`` still due
    at ``now`` (two statements): lock the ones still due, move their
    next evaluation to ``next_at``; returns their ids. A second
    collector's lock waits for this transaction and then finds them no
    longer due. (Locking first, rather than telling the moved rows by
    their new time, keeps to whole rows: a DATETIME column without
    fractional seconds would not give ``next_at`` back.)"""
    ids = sorted(set(threshold_ids))
    if not ids:
        return set()
    taken = set(
        session.execute(
            sa.select(THRESHOLDS.c.id)
            .where(THRESHOLDS.c.id.in_(ids), THRESHOLDS.c.next_check_at <= now)
            .with_for_update()
        ).scalars()
    )
    if taken:
        session.execute(
            sa.update(THRESHOLDS)
            .where(THRESHOLDS.c.id.in_(sorted(taken)))
            .values(next_check_at=next_at)
        )
    return taken


def lock(session: orm.Session, threshold_id: str) -> Mapping[str, Any] | None:
    """The threshold row, locked until the transaction ends (None: gone)."""
    return (
        session.execute(
            sa.select(THRESHOLDS)
            .where(THRESHOLDS.c.id == threshold_id)
            .with_for_update()
        )
        .mappings()
        .first()
    )


def _insert_if_absent(session: orm.Session, values: Mapping[str, Any]) -> bool:
    """INSERT unless the key exists; whether a row was inserted."""
    dialect = session.get_bind().dialect.name
    if dialect == "mysql":
        stmt: Any = sa.insert(STATES).values(**values).prefix_with("IGNORE")
    else:
        module = postgresql if dialect == "postgresql" else sqlite
        stmt = module.insert(STATES).values(**values).on_conflict_do_nothing()
    return bool(session.execute(stmt).rowcount)


def set_direction(
    session: orm.Session,
    threshold_id: str,
    object_instance_id: str,
    sub_object_instance_id: str | None,
    direction: str,
    value: Any,
    initial: str,
    at: datetime.datetime | None = None,
) -> bool | None:
    """Record that the measured (sub-)object is on side ``direction``.

    True: that is a crossing (the direction changed, or a first value is
    on the other side than ``initial``); False: no change; None: the
    threshold is gone. Call inside the transaction that enqueues the
    notification, so both happen or neither.
    """
    if lock(session, threshold_id) is None:
        return None
    at = at or utcnow()
    key = (
        STATES.c.threshold_id == threshold_id,
        STATES.c.object_instance_id == object_instance_id,
        STATES.c.sub_object_instance_id
        == (sub_object_instance_id or NO_SUB_OBJECT),
    )
    changed = session.execute(
        sa.update(STATES)
        .where(*key, STATES.c.crossing_direction != direction)
        .values(
            crossing_direction=direction,
            performance_value=value,
            crossed_at=at,
            updated_at=at,
        )
    ).rowcount
    if changed:
        return True
    inserted = _insert_if_absent(
        session,
        {
            "threshold_id": threshold_id,
            "object_instance_id": object_instance_id,
            "sub_object_instance_id": sub_object_instance_id or NO_SUB_OBJECT,
            "crossing_direction": direction,
            "performance_value": value,
            "crossed_at": at,
            "created_at": at,
        },
    )
    return inserted and direction != initial


def states(session: orm.Session, threshold_id: str) -> list[Mapping[str, Any]]:
    """The recorded states of a threshold, by (sub-)object."""
    return list(
        session.execute(
            sa.select(STATES)
            .where(STATES.c.threshold_id == threshold_id)
            .order_by(
                STATES.c.object_instance_id, STATES.c.sub_object_instance_id
            )
        ).mappings()
    )


def directions(
    session: orm.Session, threshold_ids: Iterable[str]
) -> dict[tuple[str, str, str], str]:
    """(threshold id, object instance id, sub-object id or ``''``) ->
    its recorded crossing direction, for many thresholds at once."""
    ids = sorted(set(threshold_ids))
    out: dict[tuple[str, str, str], str] = {}
    for i in range(0, len(ids), 500):
        rows = session.execute(
            sa.select(
                STATES.c.threshold_id,
                STATES.c.object_instance_id,
                STATES.c.sub_object_instance_id,
                STATES.c.crossing_direction,
            ).where(STATES.c.threshold_id.in_(ids[i : i + 500]))
        )
        for tid, obj, sub, direction in rows:
            out[(tid, obj, sub)] = direction
    return out
