"""Leases in the database: create, read, update, delete.

Runs in the API process: admission is pure database work and must answer
201 or 409 within the request. Nova work (lease start and end, deleting a
lease that exists in Nova, re-syncing after an update) is left to the
conductors as lease events, which survive a conductor's death.
"""

from __future__ import annotations

import datetime
import functools
import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from oslo_config import cfg
from oslo_db import exception as db_exc

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import allocation, dates, exceptions, plugins, store
from tacker_ng.reservation import status as st
from tacker_ng.reservation.admission import ledger

L = models.Lease
E = models.LeaseEvent
LEASE_KEYS = (
    "name",
    "start_date",
    "end_date",
    "before_end_date",
    "reservations",
    "events",
)


def _bad(reason: str) -> exceptions.InvalidLease:
    return exceptions.InvalidLease(reason=reason)


def check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise _bad("'name' must be a non-empty string of at most 80 chars")
    return name


def default_before_end(
    start: datetime.datetime, end: datetime.datetime
) -> datetime.datetime | None:
    """``[reservation] minutes_before_end_lease`` before the end."""
    minutes = cfg.CONF.reservation.minutes_before_end_lease
    if minutes <= 0:
        return None
    return max(end - datetime.timedelta(minutes=minutes), start)


def before_end_date(
    value: object, start: datetime.datetime, end: datetime.datetime, now
) -> datetime.datetime | None:
    """The before_end_lease time: given (within the lease) or default."""
    if value in (None, ""):
        return default_before_end(start, end)
    when = dates.parse(value, now, "before_end_date")
    if not start <= when <= end:
        raise _bad("before_end_date must be within the lease")
    return when


def event_row(lease_id: str, event_type: str, when, now) -> dict:
    return {
        "id": str(uuid.uuid4()),
        "lease_id": lease_id,
        "event_type": event_type,
        "time": when,
        "status": st.UNDONE,
        "attempts": 0,
        "created_at": now,
    }


def requests_of(reservations: list[dict]) -> list[allocation.Request]:
    return [
        plugins.get(r["resource_type"]).request(r["id"], r["detail"])
        for r in reservations
    ]


def _parse_reservations(values: object) -> list[tuple[Any, dict]]:
    if not isinstance(values, list) or not values:
        raise _bad("'reservations' must be a non-empty list")
    parsed = []
    for item in values:
        if not isinstance(item, dict):
            raise _bad("each reservation must be an object")
        plugin = plugins.get(item.get("resource_type"))
        parsed.append((plugin, plugin.parse(item)))
    return parsed


@functools.cache
def _column_keys(model: type) -> dict[str, str]:
    """Attribute name -> column name of a model (they differ for a few
    columns, e.g. a host reservation's ``count_range_min`` is ``min``)."""
    return {
        attr.key: attr.columns[0].key
        for attr in sa.inspect(model).column_attrs
    }


def _insert(session, model: type, rows: list[dict]) -> None:
    """A multi-row INSERT through SQLAlchemy Core: the ORM's bulk insert
    path cost a quarter of an admission's CPU for rows we already hold
    as plain dicts."""
    keys = _column_keys(model)
    session.execute(
        sa.insert(model.__table__),
        [{keys.get(k, k): v for k, v in row.items()} for row in rows],
    )


def _insert_all(session, lease, reservations, chosen, events) -> None:
    _insert(session, L, [_lease_columns(lease)])
    _insert(
        session,
        models.Reservation,
        [{k: v for k, v in r.items() if k != "detail"} for r in reservations],
    )
    for plugin in plugins.PLUGINS.values():
        details = [
            r["detail"]
            for r in reservations
            if r["resource_type"] == plugin.resource_type
        ]
        if details:
            _insert(session, plugin.model, details)
    _insert(
        session,
        models.HostAllocation,
        store.ledger_rows(lease, reservations, chosen),
    )
    _insert(session, E, events)


def _lease_columns(lease: dict) -> dict:
    return {
        k: v for k, v in lease.items() if k not in ("reservations", "events")
    }


def create_lease(context, body: Mapping[str, Any]) -> dict:
    """Admit a lease (201) or raise 400/409; returns the lease record."""
    if not isinstance(body, Mapping):
        raise _bad("the body must be an object")
    unknown = sorted(set(body) - set(LEASE_KEYS))
    if unknown:
        raise _bad(f"unknown lease parameters: {', '.join(unknown)}")
    if body.get("events"):
        raise _bad("custom lease events are not supported")
    now = utcnow()
    name = check_name(body.get("name"))
    start = dates.parse(body.get("start_date", "now"), now, "start_date")
    end = dates.parse(body.get("end_date"), now, "end_date")
    if start < dates.minute(now):
        raise _bad("start_date must not be in the past")
    if end <= start:
        raise _bad("end_date must be later than start_date")
    before_end = before_end_date(body.get("before_end_date"), start, end, now)
    parsed = _parse_reservations(body.get("reservations"))

    lease_id = str(uuid.uuid4())
    lease = {
        "id": lease_id,
        "name": name,
        "user_id": context.user_id,
        "project_id": context.project_id,
        "start_date": start,
        "end_date": end,
        "status": st.PENDING,
        "degraded": False,
        "trust_id": None,
        "created_at": now,
        "updated_at": None,
    }
    reservations = []
    for plugin, values in parsed:
        res_id, detail_id = str(uuid.uuid4()), str(uuid.uuid4())
        detail = {
            **values,
            "id": detail_id,
            "reservation_id": res_id,
            "created_at": now,
        }
        if plugin.resource_type == "virtual:instance":
            detail.update(flavor_id=None, server_group_id=None)
        detail["aggregate_id"] = None
        reservations.append(
            {
                "id": res_id,
                "lease_id": lease_id,
                "resource_type": plugin.resource_type,
                "resource_id": detail_id,
                "status": st.RES_PENDING,
                "missing_resources": False,
                "resources_changed": False,
                "created_at": now,
                "detail": detail,
            }
        )
    events = [
        event_row(lease_id, st.START_LEASE, start, now),
        event_row(lease_id, st.END_LEASE, end, now),
    ]
    if before_end is not None:
        events.append(
            event_row(lease_id, st.BEFORE_END_LEASE, before_end, now)
        )

    def write(session, chosen: allocation.Plan) -> None:
        _insert_all(session, lease, reservations, chosen, events)

    try:
        ledger.admit(
            allocation.Window(start, end), requests_of(reservations), write
        )
    except db_exc.DBDuplicateEntry as exc:
        raise exceptions.LeaseNameExists(name=name) from exc
    lease["reservations"] = reservations
    lease["events"] = sorted(events, key=lambda e: (e["time"], e["id"]))
    for event in lease["events"]:
        event.setdefault("updated_at", None)
    for res in reservations:
        res["updated_at"] = None
        res["detail"]["updated_at"] = None
    return lease


def get_lease(context, lease_id: str) -> dict:
    """A lease record, or 404."""
    with db_api.reader(context) as session:
        lease = store.get_lease(session, lease_id)
    if lease is None:
        raise exceptions.LeaseNotFound(lease_id=lease_id)
    return lease


def list_leases(context, project_id: str | None) -> list[dict]:
    """Leases of ``project_id`` (every project when None)."""
    with db_api.reader(context) as session:
        return store.list_leases(session, project_id)


def delete_lease(context, lease: dict) -> bool:
    """Delete now when nothing exists in Nova; otherwise hand the
    clean-up to a conductor (a delete_lease event). Returns whether a
    conductor has work to do."""
    now = utcnow()
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            moved = session.execute(
                sa.update(L)
                .where(
                    L.id == lease["id"], L.status.in_(st.LEASE_NOTHING_IN_NOVA)
                )
                .values(status=st.DELETING, updated_at=now)
            ).rowcount
            if moved:
                store.delete_lease_rows(session, lease["id"])
                return False
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            moved = session.execute(
                sa.update(L)
                .where(L.id == lease["id"], L.status != st.DELETING)
                .values(status=st.DELETING, updated_at=now)
            ).rowcount
            if not moved:
                exists = session.get(L, lease["id"]) is not None
                if not exists:
                    raise exceptions.LeaseNotFound(lease_id=lease["id"])
                return True
            session.execute(
                sa.delete(E).where(
                    E.lease_id == lease["id"], E.status == st.UNDONE
                )
            )
            session.execute(
                sa.insert(E),
                [event_row(lease["id"], st.DELETE_LEASE, now, now)],
            )
    return True
