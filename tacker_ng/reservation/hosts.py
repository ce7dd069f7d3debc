"""The freepool's hosts: registered from Nova, listed, changed, removed.

Reads and extra-capability updates are DB work done in the API process;
registering (hypervisor details from Nova, capacity from Placement, join
the freepool aggregate) and removing (leave the freepool) touch Nova and
run in a conductor. Both hold the host row's lock while they decide, so a
host is never removed under a reservation being admitted on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import exceptions, store, views
from tacker_ng.reservation.admission import ledger

LOG = logging.getLogger(__name__)
H = models.ComputeHost
A = models.HostAllocation


#: Host ids are 32-bit integers; a larger number names no host.
_MAX_HOST_ID = 2**31 - 1


def _host_id(host_id: object) -> int:
    value = host_id
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value) if len(value) <= 10 else -1
    if isinstance(value, int) and 0 < value <= _MAX_HOST_ID:
        return value
    raise exceptions.HostNotFound(host_id=host_id)


def list_hosts(context) -> list[dict]:
    with db_api.reader(context) as session:
        rows = session.scalars(sa.select(H).order_by(H.id))
        return [store.columns(r) for r in rows]


def get_host(context, host_id: object) -> dict:
    with db_api.reader(context) as session:
        row = session.get(H, _host_id(host_id))
        if row is None:
            raise exceptions.HostNotFound(host_id=host_id)
        return store.columns(row)


def _check_capabilities(values: Mapping[str, Any]) -> None:
    if not isinstance(values, Mapping):
        raise exceptions.InvalidLease(reason="the body must be an object")
    reserved = sorted(set(values) & views.RESERVED_HOST_KEYS)
    if reserved:
        raise exceptions.InvalidLease(
            reason=f"{', '.join(reserved)} cannot be set: they come from Nova"
        )
    for key, value in values.items():
        if value is not None and not isinstance(value, str | int | float):
            raise exceptions.InvalidLease(
                reason=f"extra capability {key!r} must be a scalar"
            )


def update_host(context, host_id: object, values: Mapping[str, Any]) -> dict:
    """Set (or, with null, unset) extra capabilities of a host."""
    _check_capabilities(values)
    hid = _host_id(host_id)
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            ledger.lock_hosts(session, [hid])
            row = session.get(H, hid)
            if row is None:
                raise exceptions.HostNotFound(host_id=host_id)
            caps = dict(row.extra_capabilities or {})
            for key, value in values.items():
                if value is None:
                    caps.pop(key, None)
                else:
                    caps[key] = value
            row.extra_capabilities = caps
            row.updated_at = utcnow()
            session.flush()
            return store.columns(row)


def allocations(
    context,
    host_id: object | None = None,
    lease_id: str | None = None,
    reservation_id: str | None = None,
) -> dict[int, list[dict]]:
    """host id -> [{id, lease_id}] of current and future reservations."""
    query = (
        sa.select(H.id, A.reservation_id, A.lease_id)
        .outerjoin(A, A.host_id == H.id)
        .order_by(H.id, A.reservation_id)
    )
    if host_id is not None:
        query = query.where(H.id == _host_id(host_id))
    if lease_id is not None:
        query = query.where(A.lease_id == lease_id)
    if reservation_id is not None:
        query = query.where(A.reservation_id == reservation_id)
    out: dict[int, list[dict]] = {}
    with db_api.reader(context) as session:
        for hid, rid, lid in session.execute(query).all():
            items = out.setdefault(hid, [])
            item = {"id": rid, "lease_id": lid}
            if rid is not None and item not in items:
                items.append(item)
    if host_id is not None and not out:
        raise exceptions.HostNotFound(host_id=host_id)
    return out


# -- conductor side (Nova) ---------------------------------------------------
def _freepool(nova) -> int:
    return nova.ensure_aggregate(
        cfg.CONF.reservation.aggregate_freepool_name,
        {"filter_tenant_id": nova.service_project_id()},
    )


def return_to_freepool(nova, name: str) -> None:
    """Put a host the service already knows back into the freepool (a
    Nova that lost its aggregates, such as a restarted simulator)."""
    nova.add_host(_freepool(nova), name)


def register(nova, name: str, extra: Mapping[str, Any]) -> dict:
    """Add a Nova hypervisor to the freepool; returns the host record."""
    if not isinstance(name, str) or not name:
        raise exceptions.InvalidLease(reason="'name' must be a host name")
    _check_capabilities(extra)
    info = nova.hypervisor(name)
    capacity = nova.capacity(name)
    if capacity:
        info.update(capacity)
    services = nova.compute_services()
    service = services.get(info["service_name"])
    now = utcnow()
    try:
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                row = H(
                    **info,
                    availability_zone=getattr(service, "zone", None),
                    reservable=True,
                    status=None,
                    extra_capabilities=dict(extra),
                    created_at=now,
                )
                session.add(row)
                session.flush()
                nova.add_host(_freepool(nova), info["service_name"])
                return store.columns(row)
    except db_exc.DBDuplicateEntry as exc:
        raise exceptions.HostExists(name=name) from exc


def unregister(nova, host_id: object) -> None:
    """Remove a host without current or future reservations."""
    hid = _host_id(host_id)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            locked = ledger.lock_hosts(session, [hid])
            if not locked:
                raise exceptions.HostNotFound(host_id=host_id)
            used = session.execute(
                sa.select(A.id).where(A.host_id == hid).limit(1)
            ).first()
            if used:
                raise exceptions.HostInUse(host_id=host_id)
            row = session.get(H, hid)
            nova.remove_host(_freepool(nova), row.service_name)
            session.delete(row)
