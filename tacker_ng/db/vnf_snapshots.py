"""VnfSnapshotInfo rows: create, read, use by an op occ, delete.

Whether a snapshot is in use (an op occ creating it or reverting to it
has not reached a final state) is decided by conditional UPDATEs/DELETEs
that join the op occs table, never by a read-then-write check.
"""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db import models_snapshots as sm
from tacker_ng.db.types import utcnow
from tacker_ng.objects import state_machine

SNAPSHOTS = sm.VnfSnapshot.__table__
OP_OCCS = models.VnfLcmOpOcc.__table__


class VnfSnapshotNotFound(exceptions.NotFound):
    message = "VNF snapshot {id} does not exist."


class VnfSnapshotFilled(exceptions.Conflict):
    message = (
        "VNF snapshot {id} already holds a VnfSnapshot; SOL003 allows "
        "modifying a VnfSnapshotInfo only while it is empty."
    )


class VnfSnapshotInUse(exceptions.Conflict):
    message = (
        "VNF snapshot {id} is in use by op occ {op_occ_id}; try again once "
        "it is finished."
    )


def _visible(project_id: str | None):
    if project_id is None:
        return sa.true()
    return SNAPSHOTS.c.project_id == project_id


def _free():
    """SQL: no op occ uses the row (none, or it is in a final state)."""
    busy = sa.select(OP_OCCS.c.id).where(
        OP_OCCS.c.id == SNAPSHOTS.c.op_occ_id,
        OP_OCCS.c.operation_state.not_in(
            [str(s) for s in state_machine.FINAL_STATES]
        ),
    )
    return sa.or_(SNAPSHOTS.c.op_occ_id.is_(None), ~sa.exists(busy))


def create(
    session: orm.Session,
    project_id: str | None,
    vnf_snapshot_pkg_id: str | None = None,
    vnf_snapshot: dict[str, Any] | None = None,
) -> Mapping[str, Any]:
    """A new VnfSnapshotInfo (empty unless ``vnf_snapshot`` is given)."""
    snapshot_id = str(uuid.uuid4())
    session.execute(
        sa.insert(SNAPSHOTS).values(
            id=snapshot_id,
            vnf_snapshot_pkg_id=vnf_snapshot_pkg_id,
            vnf_instance_id=(vnf_snapshot or {}).get("vnfInstanceId"),
            vnf_snapshot=vnf_snapshot,
            deleting=False,
            project_id=project_id,
            created_at=utcnow(),
        )
    )
    return get(session, snapshot_id)


def get(
    session: orm.Session,
    snapshot_id: str,
    project_id: str | None = None,
    deleting: bool = False,
) -> Mapping[str, Any]:
    """The row; 404 if absent, not the caller's, or being deleted (unless
    ``deleting``: the conductor's delete reads it)."""
    where = [SNAPSHOTS.c.id == snapshot_id, _visible(project_id)]
    if not deleting:
        where.append(SNAPSHOTS.c.deleting.is_(False))
    row = session.execute(sa.select(SNAPSHOTS).where(*where)).mappings()
    found = row.first()
    if found is None:
        raise VnfSnapshotNotFound(id=snapshot_id)
    return found


def use(
    session: orm.Session,
    snapshot_id: str,
    op_occ_id: str,
    project_id: str | None = None,
) -> None:
    """Mark the snapshot used by ``op_occ_id``; 409 if another unfinished
    op occ uses it, 404 if it does not exist."""
    _update_if_free(session, snapshot_id, project_id, op_occ_id=op_occ_id)


def record(
    session: orm.Session,
    snapshot_id: str,
    op_occ_id: str,
    vnf_snapshot: dict[str, Any],
) -> bool:
    """Store the VnfSnapshot taken by ``op_occ_id`` (only that op occ's
    row is written: a retried finish writes the same again)."""
    return bool(
        session.execute(
            sa.update(SNAPSHOTS)
            .where(
                SNAPSHOTS.c.id == snapshot_id,
                SNAPSHOTS.c.op_occ_id == op_occ_id,
            )
            .values(
                vnf_snapshot=vnf_snapshot,
                vnf_instance_id=vnf_snapshot["vnfInstanceId"],
                updated_at=utcnow(),
            )
        ).rowcount
    )


def mark_deleting(
    session: orm.Session, snapshot_id: str, project_id: str | None
) -> Mapping[str, Any]:
    """DELETE: hide the row and hand it to a conductor (409 while an op
    occ uses it). Returns the row."""
    _update_if_free(session, snapshot_id, project_id, deleting=True)
    return get(session, snapshot_id, deleting=True)


def _update_if_free(
    session: orm.Session,
    snapshot_id: str,
    project_id: str | None,
    **values: Any,
) -> None:
    """One conditional UPDATE: the row is visible, not being deleted and
    used by no unfinished op occ; else 409 (or 404 if it does not exist)."""
    done = session.execute(
        sa.update(SNAPSHOTS)
        .where(
            SNAPSHOTS.c.id == snapshot_id,
            SNAPSHOTS.c.deleting.is_(False),
            _visible(project_id),
            _free(),
        )
        .values(**values, updated_at=utcnow())
    ).rowcount
    if not done:
        row = get(session, snapshot_id, project_id)
        raise VnfSnapshotInUse(id=snapshot_id, op_occ_id=row["op_occ_id"])


def check_modifiable(
    session: orm.Session, snapshot_id: str, project_id: str | None
) -> Mapping[str, Any]:
    """PATCH: lock the row if it is empty (no VnfSnapshot: its
    ``vnf_instance_id`` is set with it) and no unfinished op occ uses
    it; else 409 (404 if it does not exist). Returns the row."""
    done = session.execute(
        sa.update(SNAPSHOTS)
        .where(
            SNAPSHOTS.c.id == snapshot_id,
            SNAPSHOTS.c.deleting.is_(False),
            SNAPSHOTS.c.vnf_instance_id.is_(None),
            _visible(project_id),
            _free(),
        )
        .values(updated_at=utcnow())
    ).rowcount
    row = get(session, snapshot_id, project_id)
    if not done:
        if row["vnf_instance_id"] is not None:
            raise VnfSnapshotFilled(id=snapshot_id)
        raise VnfSnapshotInUse(id=snapshot_id, op_occ_id=row["op_occ_id"])
    return row


def remove(session: orm.Session, snapshot_id: str) -> None:
    """Delete the row for good (its VIM resources are gone)."""
    session.execute(sa.delete(SNAPSHOTS).where(SNAPSHOTS.c.id == snapshot_id))
