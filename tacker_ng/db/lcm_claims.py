"""The SQL claim of an op occ (``conductor_host``) when work moves.

:func:`tacker_ng.db.vnf_lcm.claim` lets only a free op occ or its own
conductor take it (that makes duplicate casts harmless). When the
jobboard hands a job to another conductor, the claim must move with it,
and a conductor that restarts must find the operations it owned.
"""

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.objects import lcm

OP_OCCS = models.VnfLcmOpOcc.__table__

#: States in which a conductor is (or was, until it died) running an op.
RUNNING_STATES = (
    lcm.OperationState.STARTING,
    lcm.OperationState.PROCESSING,
    lcm.OperationState.ROLLING_BACK,
)


def owner(session: orm.Session, op_occ_id: str) -> str | None:
    """The conductor holding the op occ's claim (None: nobody)."""
    return session.execute(
        sa.select(OP_OCCS.c.conductor_host).where(OP_OCCS.c.id == op_occ_id)
    ).scalar_one_or_none()


def take_over(
    session: orm.Session, op_occ_id: str, host: str, previous: str | None
) -> bool:
    """Move the claim from ``previous`` to ``host`` (the jobboard gave
    ``host`` the job: ``previous`` lost it). False if the claim changed
    meanwhile."""
    owned_by = (
        OP_OCCS.c.conductor_host.is_(None)
        if previous is None
        else OP_OCCS.c.conductor_host == previous
    )
    return bool(
        session.execute(
            sa.update(OP_OCCS)
            .where(OP_OCCS.c.id == op_occ_id, owned_by)
            .values(conductor_host=host, updated_at=utcnow())
        ).rowcount
    )


def unfinished_of(session: orm.Session, host: str) -> list[tuple[str, str]]:
    """``(op occ id, state)`` of the ops ``host`` claimed and never ended
    (it was killed while running them)."""
    return [
        (row.id, row.operation_state)
        for row in session.execute(
            sa.select(OP_OCCS.c.id, OP_OCCS.c.operation_state)
            .where(
                OP_OCCS.c.conductor_host == host,
                OP_OCCS.c.operation_state.in_(
                    [str(s) for s in RUNNING_STATES]
                ),
            )
            .order_by(OP_OCCS.c.created_at)
        )
    ]


def claimed_by_host(session: orm.Session) -> dict[str, list[str]]:
    """Op occ ids each conductor holds and has not ended (fleet view)."""
    claimed: dict[str, list[str]] = {}
    for host, op_occ_id in session.execute(
        sa.select(OP_OCCS.c.conductor_host, OP_OCCS.c.id)
        .where(
            OP_OCCS.c.conductor_host.is_not(None),
            OP_OCCS.c.operation_state.in_([str(s) for s in RUNNING_STATES]),
        )
        .order_by(OP_OCCS.c.created_at)
    ):
        claimed.setdefault(host, []).append(op_occ_id)
    return claimed
