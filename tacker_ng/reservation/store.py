"""Reading and removing leases: a few SELECTs per request, never per row.

A lease is handed around as a plain dict of its columns with its
``reservations`` (each with its plugin ``detail``) and ``events``; a list
of leases costs the same three SELECTs as one lease.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models_reservation as models
from tacker_ng.reservation import plugins

L = models.Lease
R = models.Reservation
E = models.LeaseEvent
A = models.HostAllocation


def columns(row: Any) -> dict[str, Any]:
    """A mapped row as a dict of its column attributes."""
    mapper = sa.inspect(type(row))
    return {attr.key: getattr(row, attr.key) for attr in mapper.column_attrs}


def _attach(session: orm.Session, leases: list[dict]) -> list[dict]:
    if not leases:
        return leases
    by_id = {lease["id"]: lease for lease in leases}
    for lease in leases:
        lease["reservations"] = []
        lease["events"] = []
    ids = list(by_id)
    rows = session.execute(
        sa.select(R, models.InstanceReservation, models.HostReservation)
        .outerjoin(
            models.InstanceReservation,
            models.InstanceReservation.reservation_id == R.id,
        )
        .outerjoin(
            models.HostReservation,
            models.HostReservation.reservation_id == R.id,
        )
        .where(R.lease_id.in_(ids))
        .order_by(R.created_at, R.id)
    ).all()
    for res, inst, host in rows:
        item = columns(res)
        detail = inst if res.resource_type == "virtual:instance" else host
        item["detail"] = columns(detail) if detail is not None else {}
        by_id[res.lease_id]["reservations"].append(item)
    for event in session.scalars(
        sa.select(E).where(E.lease_id.in_(ids)).order_by(E.time, E.id)
    ):
        by_id[event.lease_id]["events"].append(columns(event))
    return leases


def get_lease(session: orm.Session, lease_id: str) -> dict | None:
    """One lease with its reservations and events, or None."""
    row = session.get(L, lease_id)
    if row is None:
        return None
    return _attach(session, [columns(row)])[0]


def list_leases(
    session: orm.Session, project_id: str | None, limit: int | None = None
) -> list[dict]:
    """Leases of a project (all when None), oldest first, in SQL."""
    query = sa.select(L).order_by(L.created_at, L.id)
    if project_id is not None:
        query = query.where(L.project_id == project_id)
    if limit is not None:
        query = query.limit(limit)
    leases = [columns(r) for r in session.scalars(query)]
    return _attach(session, leases)


def find_reservation(
    session: orm.Session, reservation_id: str
) -> tuple[dict, dict] | None:
    """(reservation with detail, lease) of one reservation, or None."""
    res = session.get(R, reservation_id)
    if res is None:
        return None
    lease = get_lease(session, res.lease_id)
    if lease is None:
        return None
    item = next(r for r in lease["reservations"] if r["id"] == res.id)
    return item, lease


def allocations_of(
    session: orm.Session, reservation_ids: Collection[str]
) -> dict[str, dict[int, int]]:
    """reservation id -> {host id: instances} from the ledger."""
    held: dict[str, dict[int, int]] = {r: {} for r in reservation_ids}
    if not reservation_ids:
        return held
    rows = session.execute(
        sa.select(A.reservation_id, A.host_id, A.instances).where(
            A.reservation_id.in_(list(reservation_ids))
        )
    ).all()
    for rid, host_id, instances in rows:
        held[rid][host_id] = held[rid].get(host_id, 0) + instances
    return held


def hosts_of(
    session: orm.Session, reservation_id: str
) -> list[tuple[int, str]]:
    """(host id, Nova service name) of a reservation's ledger rows."""
    rows = session.execute(
        sa.select(models.ComputeHost.id, models.ComputeHost.service_name)
        .join(A, A.host_id == models.ComputeHost.id)
        .where(A.reservation_id == reservation_id)
        .distinct()
        .order_by(models.ComputeHost.id)
    ).all()
    return [(r.id, r.service_name) for r in rows]


def host_details(session: orm.Session, reservation_id: str) -> list[dict]:
    """Service name and zone of each host a reservation holds."""
    host = models.ComputeHost
    rows = session.execute(
        sa.select(host.service_name, host.availability_zone)
        .join(A, A.host_id == host.id)
        .where(A.reservation_id == reservation_id)
        .distinct()
        .order_by(host.service_name)
    ).all()
    return [{"service_name": r[0], "zone": r[1]} for r in rows]


def zone_slots(session: orm.Session, reservation_id: str) -> dict[str, int]:
    """Instance slots a reservation holds per availability zone.

    A host's slots are the most instances any of its ledger rows gives
    this reservation (rows of one host differ only by time window after
    a lease update). Hosts without a zone are left out.
    """
    host = models.ComputeHost
    rows = session.execute(
        sa.select(host.availability_zone, A.host_id, sa.func.max(A.instances))
        .join(A, A.host_id == host.id)
        .where(A.reservation_id == reservation_id)
        .group_by(host.availability_zone, A.host_id)
    ).all()
    slots: dict[str, int] = {}
    for zone, _host_id, instances in rows:
        if zone:
            slots[zone] = slots.get(zone, 0) + int(instances or 0)
    return slots


def ledger_rows(
    lease: dict,
    reservations: Sequence[dict],
    chosen: dict[str, dict[int, int]],
) -> list[dict]:
    """Ledger rows for planned reservations of a lease."""
    rows = []
    for res in reservations:
        plugin = plugins.get(res["resource_type"])
        vcpus, memory_mb, disk_gb, exclusive = plugin.demand(res["detail"])
        for host_id, instances in sorted(chosen[res["id"]].items()):
            rows.append(
                {
                    "reservation_id": res["id"],
                    "lease_id": lease["id"],
                    "host_id": host_id,
                    "start_date": lease["start_date"],
                    "end_date": lease["end_date"],
                    "instances": instances,
                    "vcpus": vcpus,
                    "memory_mb": memory_mb,
                    "disk_gb": disk_gb,
                    "exclusive": exclusive,
                    "created_at": lease["updated_at"] or lease["created_at"],
                }
            )
    return rows


def delete_lease_rows(session: orm.Session, lease_id: str) -> int:
    """Remove a lease and everything under it; returns leases deleted.

    Children are deleted explicitly: SQLite does not enforce cascades.
    """
    res_ids = sa.select(R.id).where(R.lease_id == lease_id)
    session.execute(sa.delete(A).where(A.lease_id == lease_id))
    for model in (models.InstanceReservation, models.HostReservation):
        session.execute(
            sa.delete(model).where(model.reservation_id.in_(res_ids))
        )
    session.execute(sa.delete(R).where(R.lease_id == lease_id))
    session.execute(sa.delete(E).where(E.lease_id == lease_id))
    return session.execute(sa.delete(L).where(L.id == lease_id)).rowcount
