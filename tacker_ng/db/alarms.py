"""FM alarms (SOL003 clause 7 ``Alarm``): raise, clear, acknowledge.

One open alarm per drifted VNFC is decided by the unique ``open_key``;
clearing sets it NULL so that a later drift of the same VNFC raises a
new alarm.
"""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db import models_convergence as cm
from tacker_ng.db.types import utcnow

ALARMS = cm.VnfAlarm.__table__


class AlarmNotFound(exceptions.NotFound):
    message = "Alarm {id} does not exist."


def open_key(instance_id: str, vnfc_id: str) -> str:
    return f"{instance_id}/{vnfc_id}"


def _visible(project_id: str | None):
    if project_id is None:
        return sa.true()
    return ALARMS.c.project_id == project_id


def get(
    session: orm.Session, alarm_id: str, project_id: str | None = None
) -> Mapping[str, Any]:
    row = (
        session.execute(
            sa.select(ALARMS).where(
                ALARMS.c.id == alarm_id, _visible(project_id)
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise AlarmNotFound(id=alarm_id)
    return row


def open_for(
    session: orm.Session, instance_id: str
) -> dict[str, Mapping[str, Any]]:
    """Open alarms of an instance by VNFC id."""
    rows = session.execute(
        sa.select(ALARMS).where(
            ALARMS.c.managed_object_id == instance_id,
            ALARMS.c.open_key.is_not(None),
        )
    ).mappings()
    return {r["open_key"].split("/", 1)[1]: r for r in rows}


def open_keys(
    session: orm.Session, instance_ids: list[str]
) -> set[tuple[str, str]]:
    """(instance id, VNFC id or stack key) of every open alarm of
    ``instance_ids`` (one statement for a chunk of instances)."""
    if not instance_ids:
        return set()
    rows = session.execute(
        sa.select(ALARMS.c.open_key).where(
            ALARMS.c.managed_object_id.in_(list(instance_ids)),
            ALARMS.c.open_key.is_not(None),
        )
    )
    out = set()
    for (key,) in rows:
        instance_id, vnfc_id = key.split("/", 1)
        out.add((instance_id, vnfc_id))
    return out


def raise_alarm(
    session: orm.Session,
    instance: Mapping[str, Any],
    vnfc_id: str,
    faulty_resource: dict[str, Any],
    severity: str,
    probable_cause: str,
    fault_type: str,
    details: list[str],
    vnfc_ids: list[str] | None = None,
) -> Mapping[str, Any]:
    """Insert an open alarm for ``vnfc_id`` of ``instance`` (the key of
    its open alarm: a VNFC id, or a pseudo key such as the stack's, with
    ``vnfc_ids`` naming the VNFCs concerned, none for a stack)."""
    now = utcnow()
    alarm_id = str(uuid.uuid4())
    session.execute(
        sa.insert(ALARMS).values(
            id=alarm_id,
            managed_object_id=instance["id"],
            vnfc_instance_ids=[vnfc_id] if vnfc_ids is None else vnfc_ids,
            root_cause_faulty_resource={
                "faultyResource": faulty_resource,
                "faultyResourceType": "COMPUTE",
            },
            alarm_raised_time=now,
            ack_state="UNACKNOWLEDGED",
            perceived_severity=severity,
            event_time=now,
            event_type="EQUIPMENT_ALARM",
            fault_type=fault_type,
            probable_cause=probable_cause,
            is_root_cause=True,
            fault_details=details,
            open_key=open_key(instance["id"], vnfc_id),
            project_id=instance["project_id"],
            created_at=now,
        )
    )
    return get(session, alarm_id)


def clear(session: orm.Session, alarm_id: str) -> Mapping[str, Any] | None:
    """Clear an open alarm; None when it was already cleared."""
    now = utcnow()
    done = session.execute(
        sa.update(ALARMS)
        .where(ALARMS.c.id == alarm_id, ALARMS.c.open_key.is_not(None))
        .values(
            open_key=None,
            perceived_severity="CLEARED",
            alarm_cleared_time=now,
            alarm_changed_time=now,
            updated_at=now,
        )
    ).rowcount
    return get(session, alarm_id) if done else None


def set_ack_state(
    session: orm.Session,
    alarm_id: str,
    ack_state: str,
    project_id: str | None,
) -> Mapping[str, Any]:
    """Change ``ackState``; 409 when it already has that value (SOL003
    7.4.3.3.4)."""
    row = get(session, alarm_id, project_id)
    now = utcnow()
    done = session.execute(
        sa.update(ALARMS)
        .where(ALARMS.c.id == alarm_id, ALARMS.c.ack_state != ack_state)
        .values(
            ack_state=ack_state,
            alarm_acknowledged_time=now
            if ack_state == "ACKNOWLEDGED"
            else None,
            alarm_changed_time=now,
            updated_at=now,
        )
    ).rowcount
    if not done:
        raise exceptions.Conflict(f"Alarm {row['id']} is already {ack_state}.")
    return get(session, alarm_id)


def open_of_departed(session: orm.Session) -> list[Mapping[str, Any]]:
    """Open alarms whose VNF instance is no longer INSTANTIATED."""
    instances = models.VnfInstance.__table__
    live = sa.select(instances.c.id).where(
        instances.c.instantiation_state == "INSTANTIATED"
    )
    return list(
        session.execute(
            sa.select(ALARMS).where(
                ALARMS.c.open_key.is_not(None),
                ALARMS.c.managed_object_id.not_in(live),
            )
        ).mappings()
    )


def raise_open(
    session: orm.Session,
    instance: Mapping[str, Any],
    key: str,
    *,
    faulty_resource: dict[str, Any],
    severity: str,
    event_type: str,
    probable_cause: str,
    fault_type: str,
    details: list[str],
    vnfc_ids: list[str],
) -> Mapping[str, Any]:
    """Insert the open alarm ``key`` of ``instance`` (a pseudo key with a
    colon, never a VNFC id: the observer leaves such alarms alone) with
    any ``event_type``; the COMPUTE resource at fault is
    ``faulty_resource``."""
    now = utcnow()
    alarm_id = str(uuid.uuid4())
    session.execute(
        sa.insert(ALARMS).values(
            id=alarm_id,
            managed_object_id=instance["id"],
            vnfc_instance_ids=vnfc_ids,
            root_cause_faulty_resource={
                "faultyResource": faulty_resource,
                "faultyResourceType": "COMPUTE",
            },
            alarm_raised_time=now,
            ack_state="UNACKNOWLEDGED",
            perceived_severity=severity,
            event_time=now,
            event_type=event_type,
            fault_type=fault_type,
            probable_cause=probable_cause,
            is_root_cause=True,
            fault_details=details,
            open_key=open_key(instance["id"], key),
            project_id=instance["project_id"],
            created_at=now,
        )
    )
    return get(session, alarm_id)


def change_open(
    session: orm.Session,
    alarm_id: str,
    *,
    faulty_resource: dict[str, Any],
    details: list[str],
    vnfc_ids: list[str],
    probable_cause: str | None = None,
) -> Mapping[str, Any] | None:
    """Update what an open alarm names (its fault goes on, on other
    VNFCs, or of another cause); None when it was cleared meanwhile."""
    now = utcnow()
    cause = (
        {} if probable_cause is None else {"probable_cause": probable_cause}
    )
    done = session.execute(
        sa.update(ALARMS)
        .where(ALARMS.c.id == alarm_id, ALARMS.c.open_key.is_not(None))
        .values(
            vnfc_instance_ids=vnfc_ids,
            root_cause_faulty_resource={
                "faultyResource": faulty_resource,
                "faultyResourceType": "COMPUTE",
            },
            fault_details=details,
            **cause,
            event_time=now,
            alarm_changed_time=now,
            updated_at=now,
        )
    ).rowcount
    return get(session, alarm_id) if done else None
