"""Observed state of VNFCs (``vnfc_observed``) and auto-heal bookkeeping.

Written by the observer only; a cycle writes set-based statements per
chunk of instances (one insert of the new rows, one update per changed
row, one ``observed_at`` touch), so 10,000 VNFCs cost a few statements,
not 10,000 round trips.
"""

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models, upsert
from tacker_ng.db import models_convergence as cm
from tacker_ng.db.types import utcnow

OBSERVED = cm.VnfcObserved.__table__
CONVERGENCE = cm.VnfConvergence.__table__
INSTANCES = models.VnfInstance.__table__

#: What changes between two observations of a VNFC.
_STATE = ("resource_id", "status", "host", "host_up", "zone", "drift")

_INSTANCE_COLUMNS = (
    INSTANCES.c.id,
    INSTANCES.c.instantiation_state,
    INSTANCES.c.instantiated_vnf_info,
    INSTANCES.c.vim_connection_info,
    INSTANCES.c.vnf_configurable_properties,
    INSTANCES.c.current_op_occ_id,
    INSTANCES.c.project_id,
    INSTANCES.c.vnfd_id,
    INSTANCES.c.vnf_provider,
    INSTANCES.c.vnf_product_name,
    INSTANCES.c.vnf_software_version,
    INSTANCES.c.vnfd_version,
    INSTANCES.c.vnf_instance_name,
)


def instantiated(
    session: orm.Session | sa.engine.Connection,
    after: str | None = None,
    limit: int = 500,
    ids: Sequence[str] | None = None,
) -> list[Mapping[str, Any]]:
    """INSTANTIATED instances by id (keyset pages), or the given ones."""
    stmt = sa.select(*_INSTANCE_COLUMNS).where(
        INSTANCES.c.instantiation_state == "INSTANTIATED"
    )
    if ids is not None:
        stmt = stmt.where(INSTANCES.c.id.in_(list(ids)))
    else:
        if after is not None:
            stmt = stmt.where(INSTANCES.c.id > after)
        stmt = stmt.order_by(INSTANCES.c.id).limit(limit)
    return list(session.execute(stmt).mappings())


def of_instances(
    session: orm.Session, instance_ids: Iterable[str]
) -> dict[tuple[str, str], Mapping[str, Any]]:
    """Observed rows keyed by (instance id, VNFC id)."""
    rows = session.execute(
        sa.select(OBSERVED).where(
            OBSERVED.c.vnf_instance_id.in_(list(instance_ids))
        )
    ).mappings()
    return {(r["vnf_instance_id"], r["vnfc_id"]): r for r in rows}


def of_instance(
    session: orm.Session, instance_id: str
) -> list[Mapping[str, Any]]:
    return list(
        session.execute(
            sa.select(OBSERVED)
            .where(OBSERVED.c.vnf_instance_id == instance_id)
            .order_by(OBSERVED.c.vnfc_id)
        ).mappings()
    )


def record(
    session: orm.Session,
    instance_ids: Sequence[str],
    rows: Sequence[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Store one observation of ``instance_ids`` (``rows``: every VNFC of
    them, keyed like the table). Returns the rows whose drift changed,
    each with ``previous_drift``; VNFCs no longer desired are forgotten."""
    now = utcnow()
    before = of_instances(session, instance_ids)
    inserts, changed = [], []
    seen = set()
    for row in rows:
        key = (row["vnf_instance_id"], row["vnfc_id"])
        seen.add(key)
        old = before.get(key)
        if old is None:
            since = now if row["drift"] else None
            inserts.append(
                {
                    **row,
                    "drift_since": since,
                    "observed_at": now,
                    "created_at": now,
                }
            )
            if row["drift"]:
                changed.append({**row, "previous_drift": None})
            continue
        if any(old[c] != row[c] for c in _STATE):
            since = old["drift_since"]
            if row["drift"] != old["drift"]:
                since = now if row["drift"] else None
                changed.append({**row, "previous_drift": old["drift"]})
            session.execute(
                sa.update(OBSERVED)
                .where(
                    OBSERVED.c.vnf_instance_id == key[0],
                    OBSERVED.c.vnfc_id == key[1],
                )
                .values(
                    **{c: row[c] for c in _STATE},
                    drift_since=since,
                    updated_at=now,
                )
            )
    if inserts:
        session.execute(sa.insert(OBSERVED), inserts)
    # Only this VIM's rows can be gone (an instance may span VIMs).
    vims = {row["vim_connection_id"] for row in rows}
    gone = [
        k
        for k, old in before.items()
        if k not in seen and (not vims or old["vim_connection_id"] in vims)
    ]
    for instance_id, vnfc_id in gone:
        if before[(instance_id, vnfc_id)]["drift"]:
            changed.append(
                {
                    **dict(before[(instance_id, vnfc_id)]),
                    "drift": None,
                    "previous_drift": before[(instance_id, vnfc_id)]["drift"],
                }
            )
        session.execute(
            sa.delete(OBSERVED).where(
                OBSERVED.c.vnf_instance_id == instance_id,
                OBSERVED.c.vnfc_id == vnfc_id,
            )
        )
    if instance_ids:
        session.execute(
            sa.update(OBSERVED)
            .where(OBSERVED.c.vnf_instance_id.in_(list(instance_ids)))
            .values(observed_at=now)
        )
    return changed


def autoheal_state(
    session: orm.Session, instance_id: str
) -> Mapping[str, Any] | None:
    return (
        session.execute(
            sa.select(CONVERGENCE).where(
                CONVERGENCE.c.vnf_instance_id == instance_id
            )
        )
        .mappings()
        .first()
    )


def set_autoheal_state(
    session: orm.Session,
    instance_id: str,
    failures: int,
    op_occ_id: str | None,
    backoff_until: datetime.datetime | None,
) -> None:
    now = utcnow()
    state = {
        "autoheal_failures": failures,
        "last_autoheal_op_occ_id": op_occ_id,
        "backoff_until": backoff_until,
    }
    upsert.upsert(
        session,
        CONVERGENCE,
        {"vnf_instance_id": instance_id, "created_at": now, **state},
        keys=["vnf_instance_id"],
        update={**state, "updated_at": now},
    )


def request_observation(session: orm.Session, instance_id: str) -> None:
    """Ask the observers to look at ``instance_id`` now."""
    now = utcnow()
    upsert.upsert(
        session,
        CONVERGENCE,
        {
            "vnf_instance_id": instance_id,
            "autoheal_failures": 0,
            "observe_requested_at": now,
            "created_at": now,
        },
        keys=["vnf_instance_id"],
        update={"observe_requested_at": now, "updated_at": now},
    )


def claim_observation_requests(
    session: orm.Session, limit: int = 50
) -> list[str]:
    """Take pending on-demand requests (each goes to one conductor)."""
    pending = list(
        session.execute(
            sa.select(
                CONVERGENCE.c.vnf_instance_id,
                CONVERGENCE.c.observe_requested_at,
            )
            .where(CONVERGENCE.c.observe_requested_at.is_not(None))
            .limit(limit)
        )
    )
    won = []
    for instance_id, requested in pending:
        if session.execute(
            sa.update(CONVERGENCE)
            .where(
                CONVERGENCE.c.vnf_instance_id == instance_id,
                CONVERGENCE.c.observe_requested_at == requested,
            )
            .values(observe_requested_at=None)
        ).rowcount:
            won.append(instance_id)
    return won


def forget_departed(session: orm.Session) -> list[str]:
    """Drop observed rows of instances no longer INSTANTIATED (terminated
    or deleted); returns their ids."""
    live = sa.select(INSTANCES.c.id).where(
        INSTANCES.c.instantiation_state == "INSTANTIATED"
    )
    gone = list(
        session.execute(
            sa.select(OBSERVED.c.vnf_instance_id)
            .where(OBSERVED.c.vnf_instance_id.not_in(live))
            .distinct()
        ).scalars()
    )
    if gone:
        session.execute(
            sa.delete(OBSERVED).where(OBSERVED.c.vnf_instance_id.in_(gone))
        )
    return gone


def refresh_vnf_info(
    session: orm.Session,
    instance_id: str,
    change: Any,
) -> bool:
    """Rewrite an idle instance's ``instantiated_vnf_info`` through
    ``change`` (a pure function of the stored document returning the new
    one, or None for no change). Never while an operation holds the
    instance: the update is conditional on no op and on the version read,
    so an op starting (or finishing) meanwhile wins. True when written."""
    row = (
        session.execute(
            sa.select(
                INSTANCES.c.instantiated_vnf_info,
                INSTANCES.c.version,
                INSTANCES.c.current_op_occ_id,
            ).where(INSTANCES.c.id == instance_id)
        )
        .mappings()
        .first()
    )
    if row is None or row["current_op_occ_id"]:
        return False
    new = change(row["instantiated_vnf_info"] or {})
    if new is None:
        return False
    done = session.execute(
        sa.update(INSTANCES)
        .where(
            INSTANCES.c.id == instance_id,
            INSTANCES.c.version == row["version"],
            INSTANCES.c.current_op_occ_id.is_(None),
        )
        .values(
            instantiated_vnf_info=new,
            version=INSTANCES.c.version + 1,
            updated_at=utcnow(),
        )
    ).rowcount
    return bool(done)
