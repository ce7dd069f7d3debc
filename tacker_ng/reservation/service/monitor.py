"""Host failure detection: Nova's compute services, checked periodically.

A freepool host whose nova-compute service is down, forced down or
disabled stops being reservable. Each reservation holding it is planned
again without it (keeping its other hosts); an active one gets a
sync_lease event so its aggregate follows. When no other host can take
it, the reservation is marked ``missing_resources`` and its lease
``degraded``; later checks try again (healing) and clear the marks once
the capacity is back, e.g. when the host recovers.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import allocation, exceptions, plugins, store
from tacker_ng.reservation import status as st
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import ledger

LOG = logging.getLogger(__name__)
H = models.ComputeHost
A = models.HostAllocation
R = models.Reservation
L = models.Lease
LIVE = (st.PENDING, st.ACTIVE)


def failure_of(service) -> str | None:
    """Why a compute service cannot host reservations, or None."""
    if service is None:
        return "missing"
    if getattr(service, "forced_down", False) or service.state == "down":
        return "down"
    if service.status == "disabled":
        return "disabled"
    return None


def check_hosts(nova: Callable[[], object]) -> dict[str, list]:
    """One check; returns the hosts that failed / recovered and the
    reservations moved or left degraded. Nothing is asked of Nova
    while the freepool is empty (e.g. no ``[reservation_nova]`` yet)."""
    with db_api.reader() as session:
        if session.execute(sa.select(H.id).limit(1)).first() is None:
            return {}
    services = nova().compute_services()
    report: dict[str, list] = {
        "failed": [],
        "recovered": [],
        "moved": [],
        "degraded": [],
    }
    with db_api.reader() as session:
        hosts = session.execute(
            sa.select(H.id, H.service_name, H.reservable, H.status)
        ).all()
    for host in hosts:
        why = failure_of(services.get(host.service_name))
        if why and (host.reservable or host.status != why):
            _set_host(host.id, False, why)
            report["failed"].append(host.service_name)
        elif not why and not host.reservable:
            _set_host(host.id, True, None)
            report["recovered"].append(host.service_name)
    for rid in _to_replan():
        key = "moved" if _replan(rid) else "degraded"
        report[key].append(rid)
    if any(report.values()):
        LOG.info("Host check: %s", report)
    return report


@db_api.retry_on_deadlock
def _set_host(host_id: int, reservable: bool, why: str | None) -> None:
    with db_api.writer() as session:
        ledger.lock_hosts(session, [host_id])
        session.execute(
            sa.update(H)
            .where(H.id == host_id)
            .values(reservable=reservable, status=why, updated_at=utcnow())
        )


def _to_replan() -> list[str]:
    """Reservations on unreservable hosts, or missing resources."""
    with db_api.reader() as session:
        on_failed = sa.select(A.reservation_id).join(H, H.id == A.host_id)
        on_failed = on_failed.where(H.reservable.is_(False))
        rows = session.scalars(
            sa.select(R.id)
            .join(L, L.id == R.lease_id)
            .where(
                L.status.in_(LIVE),
                sa.or_(R.id.in_(on_failed), R.missing_resources.is_(True)),
            )
            .order_by(R.created_at)
        ).all()
    return list(rows)


def _replan(rid: str) -> bool:
    """Move a reservation off unreservable hosts; False if degraded."""
    with db_api.reader() as session:
        found = store.find_reservation(session, rid)
        if found is None:
            return True
        res, lease = found
        held = store.allocations_of(session, [rid])
        bad = set(
            session.scalars(sa.select(H.id).where(H.reservable.is_(False)))
        )
    keep = {rid: {h: n for h, n in held[rid].items() if h not in bad}}
    plugin = plugins.get(res["resource_type"])
    now = utcnow()
    window = allocation.Window(lease["start_date"], lease["end_date"])

    def write(session, chosen: allocation.Plan) -> None:
        _replace_rows(session, lease, res, chosen, now)
        session.execute(
            sa.update(R)
            .where(R.id == rid)
            .values(
                missing_resources=False,
                resources_changed=True,
                updated_at=now,
            )
        )
        _refresh_degraded(session, lease["id"], now)

    try:
        ledger.admit(
            window,
            [plugin.request(rid, res["detail"])],
            write,
            held=keep,
            exclude=[rid],
            also_lock=set(held[rid]),
        )
        return True
    except exceptions.InsufficientCapacity as exc:
        LOG.warning("Reservation %s is degraded: %s", rid, exc.reason)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            session.execute(
                sa.delete(A).where(A.reservation_id == rid, A.host_id.in_(bad))
            )
            session.execute(
                sa.update(R)
                .where(R.id == rid)
                .values(missing_resources=True, updated_at=now)
            )
            session.execute(
                sa.update(L)
                .where(L.id == lease["id"])
                .values(degraded=True, updated_at=now)
            )
            if lease["status"] == st.ACTIVE and held[rid].keys() & bad:
                _sync(session, lease["id"], now)
    return False


def _replace_rows(session, lease, res, chosen, now) -> None:
    session.execute(sa.delete(A).where(A.reservation_id == res["id"]))
    rows = store.ledger_rows({**lease, "updated_at": now}, [res], chosen)
    if rows:
        session.execute(sa.insert(A), rows)
    if lease["status"] == st.ACTIVE:
        _sync(session, lease["id"], now)


def _sync(session, lease_id: str, now) -> None:
    session.execute(
        sa.insert(models.LeaseEvent),
        [manager.event_row(lease_id, st.SYNC_LEASE, now, now)],
    )


def _refresh_degraded(session, lease_id: str, now) -> None:
    missing = session.execute(
        sa.select(R.id)
        .where(R.lease_id == lease_id, R.missing_resources.is_(True))
        .limit(1)
    ).first()
    session.execute(
        sa.update(L)
        .where(L.id == lease_id)
        .values(degraded=missing is not None, updated_at=now)
    )
