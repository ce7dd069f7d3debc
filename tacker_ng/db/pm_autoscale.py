"""Rows of automatic scaling: which instances may declare scaling rules,
their last SCALE's end, and each instance's automatic-scale state.

Scaling rules are part of the instantiate request (``additionalParams``),
which the instance row does not keep: they are read from the instance's
last COMPLETED INSTANTIATE op occ. The pass asks for op occ ids first
(cheap) and for the parameters only of the op occs it has not parsed.
Every read takes a list of instances and is one statement per chunk of
ids, never one per instance.
"""

import datetime
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models, models_pm, upsert
from tacker_ng.db.types import utcnow
from tacker_ng.objects import lcm

STATE = models_pm.VnfAutoscale.__table__
INSTANCES = models.VnfInstance.__table__
OP_OCCS = models.VnfLcmOpOcc.__table__
S = lcm.OperationState
#: Ids per IN list.
CHUNK = 500
_ENDED = [str(S.COMPLETED), str(S.FAILED), str(S.ROLLED_BACK)]
_SCALES = [str(lcm.Operation.SCALE), str(lcm.Operation.SCALE_TO_LEVEL)]


def _chunks(ids: Iterable[str]) -> Iterator[list[str]]:
    ordered = sorted(set(ids))
    for i in range(0, len(ordered), CHUNK):
        yield ordered[i : i + CHUNK]


def instantiated(session: orm.Session) -> dict[str, str]:
    """INSTANTIATED instance id -> its last COMPLETED INSTANTIATE op occ
    id (where its scaling rules, if any, were declared)."""
    rows = session.execute(
        sa.select(OP_OCCS.c.vnf_instance_id, OP_OCCS.c.id)
        .join(INSTANCES, INSTANCES.c.id == OP_OCCS.c.vnf_instance_id)
        .where(
            INSTANCES.c.instantiation_state == "INSTANTIATED",
            OP_OCCS.c.operation == str(lcm.Operation.INSTANTIATE),
            OP_OCCS.c.operation_state == str(S.COMPLETED),
        )
        .order_by(OP_OCCS.c.start_time, OP_OCCS.c.id)
    )
    return {row[0]: row[1] for row in rows}


def additional_params(
    session: orm.Session, op_occ_ids: Iterable[str]
) -> dict[str, Mapping[str, Any]]:
    """Op occ id -> the additionalParams of its request."""
    out: dict[str, Mapping[str, Any]] = {}
    for chunk in _chunks(op_occ_ids):
        rows = session.execute(
            sa.select(OP_OCCS.c.id, OP_OCCS.c.operation_params).where(
                OP_OCCS.c.id.in_(chunk)
            )
        )
        for occ_id, params in rows:
            out[occ_id] = (params or {}).get("additionalParams") or {}
    return out


def instances(
    session: orm.Session, ids: Iterable[str]
) -> list[Mapping[str, Any]]:
    """The rows of still INSTANTIATED instances among ``ids``."""
    out: list[Mapping[str, Any]] = []
    for chunk in _chunks(ids):
        out += session.execute(
            sa.select(INSTANCES).where(
                INSTANCES.c.id.in_(chunk),
                INSTANCES.c.instantiation_state == "INSTANTIATED",
            )
        ).mappings()
    return out


def last_scale_ends(
    session: orm.Session, ids: Iterable[str]
) -> dict[str, datetime.datetime]:
    """Instance id -> when its last SCALE (automatic or not, whatever
    its outcome) ended; instances never scaled are absent."""
    out: dict[str, datetime.datetime] = {}
    for chunk in _chunks(ids):
        rows = session.execute(
            sa.select(
                OP_OCCS.c.vnf_instance_id,
                sa.func.max(OP_OCCS.c.state_entered_time),
            )
            .where(
                OP_OCCS.c.vnf_instance_id.in_(chunk),
                OP_OCCS.c.operation.in_(_SCALES),
                OP_OCCS.c.operation_state.in_(_ENDED),
            )
            .group_by(OP_OCCS.c.vnf_instance_id)
        )
        for instance_id, ended in rows:
            if ended is not None:
                # Aware whatever the driver hands back for an aggregate.
                out[instance_id] = (
                    ended
                    if ended.tzinfo
                    else ended.replace(tzinfo=datetime.UTC)
                )
    return out


def states(
    session: orm.Session, ids: Iterable[str]
) -> dict[str, Mapping[str, Any]]:
    """Instance id -> its automatic-scale state row (absent: none)."""
    out: dict[str, Mapping[str, Any]] = {}
    for chunk in _chunks(ids):
        for row in session.execute(
            sa.select(STATE).where(STATE.c.vnf_instance_id.in_(chunk))
        ).mappings():
            out[row["vnf_instance_id"]] = row
    return out


def state(session: orm.Session, instance_id: str) -> Mapping[str, Any] | None:
    return states(session, [instance_id]).get(instance_id)


def set_state(
    session: orm.Session,
    instance_id: str,
    failures: int,
    op_occ_id: str | None,
    backoff_until: datetime.datetime | None,
) -> None:
    now = utcnow()
    values = {
        "failures": failures,
        "last_op_occ_id": op_occ_id,
        "backoff_until": backoff_until,
    }
    upsert.upsert(
        session,
        STATE,
        {"vnf_instance_id": instance_id, "created_at": now, **values},
        keys=["vnf_instance_id"],
        update={**values, "updated_at": now},
    )


def forget_departed(session: orm.Session) -> int:
    """Delete the state of instances no longer INSTANTIATED (a new
    instantiation starts with a clean count)."""
    live = sa.select(INSTANCES.c.id).where(
        INSTANCES.c.instantiation_state == "INSTANTIATED"
    )
    return session.execute(
        sa.delete(STATE).where(STATE.c.vnf_instance_id.not_in(live))
    ).rowcount
