"""Host failures: reservations move off failed hosts, or are degraded
and healed once capacity is back; active ones get a sync_lease event.

Nova's compute services are given as plain objects (what
``compute_services()`` returns); the ledger is a real SQLite database.
"""

import types

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.reservation import status as st
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.service import lifecycle, monitor
from tacker_ng.tests.unit.reservation.conftest import instance_body
from tacker_ng.tests.unit.reservation.service.test_events import (
    FakeNova,
    _lease_now,
)


def service(state="up", status="enabled", forced_down=False):
    return types.SimpleNamespace(
        state=state, status=status, forced_down=forced_down
    )


class Services:
    """Nova's compute services by host name; all up unless told."""

    def __init__(self, names):
        self.by_name = {n: service() for n in names}

    def compute_services(self):
        return dict(self.by_name)


def _held(lease_id) -> set[str]:
    with db_api.reader() as session:
        return set(
            session.scalars(
                sa.select(models.ComputeHost.service_name)
                .join(
                    models.HostAllocation,
                    models.HostAllocation.host_id == models.ComputeHost.id,
                )
                .join(
                    models.Reservation,
                    models.Reservation.id
                    == models.HostAllocation.reservation_id,
                )
                .where(models.Reservation.lease_id == lease_id)
            )
        )


def _sync_events(lease_id) -> int:
    with db_api.reader() as session:
        return session.scalar(
            sa.select(sa.func.count(models.LeaseEvent.id)).where(
                models.LeaseEvent.lease_id == lease_id,
                models.LeaseEvent.event_type == st.SYNC_LEASE,
            )
        )


def test_failure_of_reads_down_forced_down_disabled_missing():
    assert monitor.failure_of(None) == "missing"
    assert monitor.failure_of(service(state="down")) == "down"
    assert monitor.failure_of(service(forced_down=True)) == "down"
    assert monitor.failure_of(service(status="disabled")) == "disabled"
    assert monitor.failure_of(service()) is None


def test_pending_reservation_moves_then_degrades_then_heals(db, ctx, hosts):
    nova = Services(["h1", "h2", "h3"])
    lease = manager.create_lease(ctx, instance_body("p", amount=2))
    first = _held(lease["id"])
    assert len(first) == 2
    # All up: nothing changes.
    assert not any(monitor.check_hosts(lambda: nova).values())

    # One held host fails: the reservation keeps the other, takes the
    # third (anti-affinity: still 2 distinct hosts).
    lost = sorted(first)[0]
    nova.by_name[lost] = service(status="disabled")
    report = monitor.check_hosts(lambda: nova)
    assert report["failed"] == [lost]
    assert report["moved"] == [lease["reservations"][0]["id"]]
    moved = _held(lease["id"])
    assert lost not in moved and len(moved) == 2
    assert moved - {lost} >= first - {lost}
    got = manager.get_lease(ctx, lease["id"])
    assert got["reservations"][0]["resources_changed"] is True
    assert _sync_events(lease["id"]) == 0  # pending: nothing in Nova yet

    # A second host fails: one host left for 2 anti-affinity slots.
    other = sorted(moved)[0]
    nova.by_name[other] = service(state="down")
    report = monitor.check_hosts(lambda: nova)
    rid = lease["reservations"][0]["id"]
    assert report["degraded"] == [rid]
    got = manager.get_lease(ctx, lease["id"])
    assert got["degraded"] is True
    assert got["reservations"][0]["missing_resources"] is True
    assert other not in _held(lease["id"])

    # Recovery: the host is reservable again and the reservation whole.
    nova.by_name[other] = service()
    report = monitor.check_hosts(lambda: nova)
    assert report["recovered"] == [other]
    assert report["moved"] == [rid]
    got = manager.get_lease(ctx, lease["id"])
    assert got["degraded"] is False
    assert got["reservations"][0]["missing_resources"] is False
    assert len(_held(lease["id"])) == 2


def test_active_reservation_moved_gets_a_sync_event(db, ctx, hosts):
    nova = Services(["h1", "h2", "h3"])
    lease = _lease_now(ctx)
    lifecycle.start_lease(FakeNova(), lease["id"])
    assert manager.get_lease(ctx, lease["id"])["status"] == st.ACTIVE
    (held,) = _held(lease["id"])
    nova.by_name.pop(held)  # its nova-compute service is gone
    report = monitor.check_hosts(lambda: nova)
    assert report["failed"] == [held]
    (now_held,) = _held(lease["id"])
    assert now_held != held
    # The conductor's sync_lease event moves the Nova aggregate.
    assert _sync_events(lease["id"]) == 1


def test_empty_freepool_asks_nothing_of_nova(db):
    def nova():
        raise AssertionError("Nova must not be called")

    assert monitor.check_hosts(nova) == {}
