"""PUT /leases/{id}: rename, move or resize a lease.

A change of window or of a reservation's size is a new admission of all
the lease's reservations, ignoring their own ledger rows and preferring
the hosts they hold. An active reservation must keep every host it holds
(instances may run there) and cannot change its flavor; a lease a
conductor works on cannot change at all (409). The lease row is updated
with ``WHERE status = <status read>``, so an update racing with a lease
event fails cleanly instead of undoing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import allocation, dates, exceptions, plugins, store
from tacker_ng.reservation import status as st
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import ledger

L = models.Lease
E = models.LeaseEvent
UPDATE_KEYS = (
    "name",
    "start_date",
    "end_date",
    "before_end_date",
    "reservations",
)


def _new_window(lease: dict, body: Mapping, now) -> tuple:
    start, end = lease["start_date"], lease["end_date"]
    started = lease["status"] != st.PENDING
    if "start_date" in body:
        new_start = dates.parse(body["start_date"], now, "start_date")
        if new_start != start:
            if started:
                raise exceptions.CantUpdateParameter(
                    param="start_date", reason="the lease has started"
                )
            if new_start < dates.minute(now):
                raise manager._bad("start_date must not be in the past")
            start = new_start
    if "end_date" in body:
        new_end = dates.parse(body["end_date"], now, "end_date")
        if new_end != end and new_end < dates.minute(now):
            raise manager._bad("end_date must not be in the past")
        end = new_end
    if end <= start:
        raise manager._bad("end_date must be later than start_date")
    return start, end


def _merge_reservations(lease: dict, body: Mapping) -> tuple[list, bool]:
    """The lease's reservations with the body's changes merged in."""
    changes = body.get("reservations") or []
    if not isinstance(changes, list):
        raise manager._bad("'reservations' must be a list")
    current = {r["id"]: r for r in lease["reservations"]}
    merged = {rid: dict(r) for rid, r in current.items()}
    changed = False
    for change in changes:
        if not isinstance(change, dict) or "id" not in change:
            raise manager._bad("each reservation update needs its 'id'")
        res = merged.get(change["id"])
        if res is None:
            raise manager._bad(f"no reservation {change['id']} in the lease")
        plugin = plugins.get(res["resource_type"])
        kind = change.get("resource_type", res["resource_type"])
        if kind != res["resource_type"]:
            raise exceptions.CantUpdateParameter(
                param="resource_type", reason="it is fixed at creation"
            )
        values = {k: v for k, v in change.items() if k != "resource_type"}
        new = plugin.merge(res["detail"], values)
        if lease["status"] == st.ACTIVE:
            plugin.check_active_change(res["detail"], new)
        changed = changed or any(res["detail"][k] != v for k, v in new.items())
        res["detail"] = {**res["detail"], **new}
    return list(merged.values()), changed


def _check_keeps_held(
    lease: dict, held: dict[str, dict[int, int]], chosen: allocation.Plan
) -> None:
    if lease["status"] != st.ACTIVE:
        return
    for rid, hosts in held.items():
        for host_id, instances in hosts.items():
            if chosen.get(rid, {}).get(host_id, 0) < instances:
                raise exceptions.CantUpdateParameter(
                    param="lease",
                    reason="a host the active reservation uses has no room "
                    "for it in the new window",
                )


def update_lease(context, lease: dict, body: Mapping[str, Any]) -> dict:
    """Apply an update body (400/409 when it cannot be); returns the
    lease as stored afterwards."""
    if not isinstance(body, Mapping):
        raise manager._bad("the body must be an object")
    unknown = sorted(set(body) - set(UPDATE_KEYS))
    if unknown:
        raise manager._bad(f"unknown lease parameters: {', '.join(unknown)}")
    status = lease["status"]
    if status in st.LEASE_BUSY:
        raise exceptions.InvalidStatus(
            lease_id=lease["id"],
            status=status,
            reason="a conductor is working on it; retry later",
        )
    now = utcnow()
    values: dict[str, Any] = {"updated_at": now}
    if "name" in body:
        values["name"] = manager.check_name(body["name"])
    if set(body) - {"name"} and status in st.LEASE_FINISHED:
        raise exceptions.InvalidStatus(
            lease_id=lease["id"],
            status=status,
            reason="only its name can change",
        )
    start, end = _new_window(lease, body, now)
    reservations, resized = _merge_reservations(lease, body)
    moved = (start, end) != (lease["start_date"], lease["end_date"])
    before_end = None
    if "before_end_date" in body or moved:
        before_end = manager.before_end_date(
            body.get("before_end_date"), start, end, now
        )
    values.update(start_date=start, end_date=end)
    new_lease = {**lease, **values}

    def write(session, chosen: allocation.Plan | None) -> None:
        done = session.execute(
            sa.update(L)
            .where(L.id == lease["id"], L.status == status)
            .values(**values)
        ).rowcount
        if not done:
            raise exceptions.InvalidStatus(
                lease_id=lease["id"],
                status="changing",
                reason="it changed while being updated; retry",
            )
        _update_events(
            session,
            lease,
            start=start,
            end=end,
            before_end=before_end,
            now=now,
            moved=moved,
        )
        if chosen is None:
            return
        _check_keeps_held(lease, held, chosen)
        _rewrite_reservations(session, new_lease, reservations, chosen)
        if status == st.ACTIVE and chosen != held:
            session.execute(
                sa.insert(E),
                [manager.event_row(lease["id"], st.SYNC_LEASE, now, now)],
            )

    held: dict[str, dict[int, int]] = {}
    if moved or resized:
        ids = [r["id"] for r in reservations]
        with db_api.reader(context) as session:
            held = store.allocations_of(session, ids)
        ledger.admit(
            allocation.Window(start, end),
            manager.requests_of(reservations),
            write,
            held=held,
            exclude=ids,
            also_lock={h for hosts in held.values() for h in hosts},
        )
    else:
        for attempt in db_api.retrying():
            with attempt, db_api.writer(context) as session:
                write(session, None)
    return manager.get_lease(context, lease["id"])


def _update_events(session, lease, *, start, end, before_end, now, moved):
    times = {st.START_LEASE: start, st.END_LEASE: end}
    for event_type, when in times.items():
        session.execute(
            sa.update(E)
            .where(
                E.lease_id == lease["id"],
                E.event_type == event_type,
                E.status == st.UNDONE,
            )
            .values(time=when, updated_at=now)
        )
    if before_end is None and not moved:
        return
    session.execute(
        sa.delete(E).where(
            E.lease_id == lease["id"],
            E.event_type == st.BEFORE_END_LEASE,
            E.status == st.UNDONE,
        )
    )
    if before_end is not None and before_end >= dates.minute(now):
        session.execute(
            sa.insert(E),
            [
                manager.event_row(
                    lease["id"], st.BEFORE_END_LEASE, before_end, now
                )
            ],
        )


def _rewrite_reservations(session, lease, reservations, chosen) -> None:
    ids = [r["id"] for r in reservations]
    for res in reservations:
        plugin = plugins.get(res["resource_type"])
        detail = {
            k: v
            for k, v in res["detail"].items()
            if k not in ("id", "reservation_id", "created_at", "updated_at")
        }
        session.execute(
            sa.update(plugin.model)
            .where(plugin.model.reservation_id == res["id"])
            .values(**detail, updated_at=lease["updated_at"])
        )
    session.execute(
        sa.delete(models.HostAllocation).where(
            models.HostAllocation.reservation_id.in_(ids)
        )
    )
    rows = store.ledger_rows(lease, reservations, chosen)
    if rows:
        session.execute(sa.insert(models.HostAllocation), rows)
    session.execute(
        sa.update(models.Reservation)
        .where(models.Reservation.id.in_(ids))
        .values(missing_resources=False, updated_at=lease["updated_at"])
    )
