"""VNF instances and LCM op occs: rows, atomic starts and transitions.

"One operation at a time per VNF instance" is decided by the database: an
operation starts with a conditional UPDATE that takes the instance's
``current_op_occ_id`` only when it is NULL (and the instance is in the
state the operation needs); the op occ row is inserted in the same
transaction. Every op-occ state change is an UPDATE conditioned on the
states it may come from, so two actors can never both win.
"""

import datetime
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.objects import lcm, state_machine

INSTANCES = models.VnfInstance.__table__
OP_OCCS = models.VnfLcmOpOcc.__table__


class VnfInstanceNotFound(exceptions.NotFound):
    message = "VNF instance {id} does not exist."


class OpOccNotFound(exceptions.NotFound):
    message = "VNF LCM operation occurrence {id} does not exist."


class OperationConflict(exceptions.Conflict):
    """The instance or op occ is not in a state that allows this."""


def _visible(table: sa.Table, project_id: str | None):
    """Rows of the caller's project (admins pass ``None``: all rows)."""
    if project_id is None:
        return sa.true()
    return table.c.project_id == project_id


def get_instance(
    session: orm.Session | sa.Connection,
    instance_id: str,
    project_id: str | None = None,
) -> Mapping[str, Any]:
    row = (
        session.execute(
            sa.select(INSTANCES).where(
                INSTANCES.c.id == instance_id,
                _visible(INSTANCES, project_id),
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise VnfInstanceNotFound(id=instance_id)
    return row


def get_op_occ(
    session: orm.Session | sa.Connection,
    op_occ_id: str,
    project_id: str | None = None,
) -> Mapping[str, Any]:
    row = (
        session.execute(
            sa.select(OP_OCCS).where(
                OP_OCCS.c.id == op_occ_id, _visible(OP_OCCS, project_id)
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise OpOccNotFound(id=op_occ_id)
    return row


_INSERT_INSTANCE = sa.insert(INSTANCES)


def insert_instance(
    session: orm.Session, values: dict[str, Any]
) -> dict[str, Any]:
    """Insert a NOT_INSTANTIATED instance; return the row as stored."""
    row = {column.name: None for column in INSTANCES.c}
    row.update(
        {
            "id": str(uuid.uuid4()),
            "instantiation_state": lcm.InstantiationState.NOT_INSTANTIATED,
            "version": 1,
            "created_at": utcnow(),
            **values,
        }
    )
    session.execute(_INSERT_INSTANCE, row)
    return row


def delete_instance(
    session: orm.Session, instance_id: str, project_id: str | None
) -> Mapping[str, Any]:
    """Delete a NOT_INSTANTIATED instance with no operation in progress."""
    row = get_instance(session, instance_id, project_id)
    deleted = session.execute(
        sa.delete(INSTANCES).where(
            INSTANCES.c.id == instance_id,
            INSTANCES.c.instantiation_state
            == lcm.InstantiationState.NOT_INSTANTIATED,
            INSTANCES.c.current_op_occ_id.is_(None),
        )
    ).rowcount
    if not deleted:
        raise OperationConflict(_busy_reason(row, for_delete=True))
    return row


def update_instance(
    session: orm.Session,
    instance_id: str,
    changes: dict[str, Any],
    expected_version: int | None = None,
    project_id: str | None = None,
) -> None:
    """Apply ``changes``, bumping the version (the ETag).

    With ``expected_version`` the update only happens when nobody changed
    the row since it was read (If-Match); otherwise 412.
    """
    where = [INSTANCES.c.id == instance_id, _visible(INSTANCES, project_id)]
    if expected_version is not None:
        where.append(INSTANCES.c.version == expected_version)
    done = session.execute(
        sa.update(INSTANCES)
        .where(*where)
        .values(
            **changes, version=INSTANCES.c.version + 1, updated_at=utcnow()
        )
    ).rowcount
    if not done:
        get_instance(session, instance_id, project_id)  # 404 if gone
        raise exceptions.PreconditionFailed()


def _busy_reason(row: Mapping[str, Any], for_delete: bool = False) -> str:
    if row["current_op_occ_id"]:
        return (
            f"VNF instance {row['id']} has operation occurrence "
            f"{row['current_op_occ_id']} in progress; wait for it to end or "
            "fail/roll it back."
        )
    if for_delete:
        return (
            f"VNF instance {row['id']} is {row['instantiation_state']}; "
            "terminate it before deleting it."
        )
    return f"VNF instance {row['id']} is {row['instantiation_state']}."


def start_operation(
    session: orm.Session,
    instance_id: str,
    operation: lcm.Operation,
    params: dict[str, Any],
    project_id: str | None,
    is_automatic: bool = False,
) -> Mapping[str, Any]:
    """Take the instance for a new op occ (STARTING) or raise 404/409."""
    op_occ_id = str(uuid.uuid4())
    where = [
        INSTANCES.c.id == instance_id,
        INSTANCES.c.current_op_occ_id.is_(None),
        _visible(INSTANCES, project_id),
    ]
    required = state_machine.required_instantiation_state(operation)
    if required is not None:
        where.append(INSTANCES.c.instantiation_state == required)
    taken = session.execute(
        sa.update(INSTANCES)
        .where(*where)
        .values(current_op_occ_id=op_occ_id, updated_at=utcnow())
    ).rowcount
    if not taken:
        row = get_instance(session, instance_id, project_id)
        if row["current_op_occ_id"] is None and required is not None:
            raise OperationConflict(
                f"{operation} needs the VNF instance {required}; it is "
                f"{row['instantiation_state']}."
            )
        raise OperationConflict(_busy_reason(row))
    instance = get_instance(session, instance_id)
    now = utcnow()
    session.execute(
        sa.insert(OP_OCCS).values(
            id=op_occ_id,
            operation_state=lcm.OperationState.STARTING,
            state_entered_time=now,
            start_time=now,
            vnf_instance_id=instance_id,
            operation=operation,
            is_automatic_invocation=is_automatic,
            operation_params=params,
            is_cancel_pending=False,
            progress={},
            project_id=instance["project_id"],
            created_at=now,
        )
    )
    return get_op_occ(session, op_occ_id)


def transition(
    session: orm.Session,
    op_occ_id: str,
    to_state: lcm.OperationState,
    from_states: Iterable[lcm.OperationState] | None = None,
    **changes: Any,
) -> bool:
    """Move an op occ to ``to_state`` if it is in one of ``from_states``.

    ``from_states`` defaults to every state the machine allows; returns
    False (and changes nothing) when the op occ was elsewhere.
    """
    allowed = set(from_states or state_machine.sources_of(to_state))
    if not allowed <= state_machine.sources_of(to_state):
        raise ValueError(f"{sorted(allowed)} -> {to_state} is not allowed")
    now = utcnow()
    return bool(
        session.execute(
            sa.update(OP_OCCS)
            .where(
                OP_OCCS.c.id == op_occ_id,
                OP_OCCS.c.operation_state.in_([str(s) for s in allowed]),
            )
            .values(
                operation_state=to_state,
                state_entered_time=now,
                updated_at=now,
                **changes,
            )
        ).rowcount
    )


def update_op_occ(
    session: orm.Session, op_occ_id: str, **changes: Any
) -> None:
    """Change op-occ fields other than its state (progress, grant id)."""
    session.execute(
        sa.update(OP_OCCS)
        .where(OP_OCCS.c.id == op_occ_id)
        .values(updated_at=utcnow(), **changes)
    )


def claim(session: orm.Session, op_occ_id: str, host: str) -> bool:
    """Make ``host`` the one conductor running the op occ.

    Succeeds when nobody runs it or ``host`` already does; a second
    conductor handed the same op occ (a duplicate cast, a re-dispatch)
    gets False and leaves it alone.
    """
    return bool(
        session.execute(
            sa.update(OP_OCCS)
            .where(
                OP_OCCS.c.id == op_occ_id,
                sa.or_(
                    OP_OCCS.c.conductor_host.is_(None),
                    OP_OCCS.c.conductor_host == host,
                ),
            )
            .values(conductor_host=host, updated_at=utcnow())
        ).rowcount
    )


def lost_starting(
    session: orm.Session, older_than: datetime.datetime, limit: int = 100
) -> list[str]:
    """STARTING op occs no conductor has claimed since ``older_than``.

    Their cast was lost (API died after commit, broker dropped it).
    """
    return list(
        session.execute(
            sa.select(OP_OCCS.c.id)
            .where(
                OP_OCCS.c.operation_state == lcm.OperationState.STARTING,
                OP_OCCS.c.conductor_host.is_(None),
                OP_OCCS.c.created_at < older_than,
            )
            .order_by(OP_OCCS.c.created_at)
            .limit(limit)
        ).scalars()
    )


def request_cancel(
    session: orm.Session, op_occ_id: str, mode: lcm.CancelMode
) -> bool:
    """Flag a running op occ for cancellation (isCancelPending)."""
    return bool(
        session.execute(
            sa.update(OP_OCCS)
            .where(
                OP_OCCS.c.id == op_occ_id,
                OP_OCCS.c.operation_state.in_(
                    [
                        str(s)
                        for s in state_machine.TASK_FROM[state_machine.CANCEL]
                    ]
                ),
                OP_OCCS.c.is_cancel_pending.is_(False),
            )
            .values(
                is_cancel_pending=True, cancel_mode=mode, updated_at=utcnow()
            )
        ).rowcount
    )


def release_instance(
    session: orm.Session,
    instance_id: str,
    op_occ_id: str,
    changes: dict[str, Any] | None = None,
) -> None:
    """End the op occ's hold on the instance, applying final changes."""
    session.execute(
        sa.update(INSTANCES)
        .where(
            INSTANCES.c.id == instance_id,
            INSTANCES.c.current_op_occ_id == op_occ_id,
        )
        .values(
            current_op_occ_id=None,
            version=INSTANCES.c.version + 1,
            updated_at=utcnow(),
            **(changes or {}),
        )
    )


def unfinished_op_occs(
    session: orm.Session, older_than: datetime.datetime
) -> list[Mapping[str, Any]]:
    """Op occs STARTING/PROCESSING/ROLLING_BACK not touched since then."""
    return list(
        session.execute(
            sa.select(OP_OCCS).where(
                OP_OCCS.c.operation_state.in_(
                    ["STARTING", "PROCESSING", "ROLLING_BACK"]
                ),
                sa.func.coalesce(OP_OCCS.c.updated_at, OP_OCCS.c.created_at)
                < older_than,
            )
        ).mappings()
    )
