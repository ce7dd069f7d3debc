"""The lease event loop on a real DB: claims, ordering, retries, take-over
of a dead conductor's event; handlers are injected (no Nova here)."""

import datetime

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.db import models_reservation as rmodels
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import status as st
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.service import events, lifecycle
from tacker_ng.tests.unit.reservation.conftest import instance_body

E = rmodels.LeaseEvent


def _lease_now(ctx, name="l1"):
    body = instance_body(name, amount=1)
    body["start_date"] = "now"
    return manager.create_lease(ctx, body)


def _events(lease_id):
    with db_api.reader() as session:
        rows = session.scalars(sa.select(E).where(E.lease_id == lease_id))
        return {
            e.event_type: (e.status, e.conductor_host, e.attempts)
            for e in rows
        }


def _conductor(host, age_s=0, online=True):
    now = utcnow() - datetime.timedelta(seconds=age_s)
    with db_api.writer() as session:
        session.add(
            models.Conductor(
                hostname=host,
                online=online,
                rpc_version="1.0",
                started_at=now,
                heartbeat_at=now,
            )
        )


def test_due_start_runs_once_and_future_events_wait(db, ctx, hosts):
    lease = _lease_now(ctx)
    ran = []
    runner = events.EventRunner(
        "c1", lambda: "nova", {st.START_LEASE: lambda n, lid: ran.append(lid)}
    )
    assert runner.run_due() == 1
    assert runner.run_due() == 0
    assert ran == [lease["id"]]
    assert _events(lease["id"])[st.START_LEASE] == (st.DONE, "c1", 1)
    assert _events(lease["id"])[st.END_LEASE][0] == st.UNDONE


def test_two_runners_never_run_an_event_twice(db, ctx, hosts):
    _lease_now(ctx, "a")
    _lease_now(ctx, "b")
    ran = []
    handlers = {st.START_LEASE: lambda n, lid: ran.append(lid)}
    r1 = events.EventRunner("c1", lambda: None, handlers)
    r2 = events.EventRunner("c2", lambda: None, handlers)
    # r2 sees the same candidates but loses every claim to r1.
    stale = r2._candidates(utcnow())
    assert r1.run_due() == 2
    assert [r2._claim(e) for e in stale] == [False, False]
    assert sorted(ran) == sorted(set(ran)) and len(ran) == 2


def test_failure_is_retried_then_error(db, ctx, hosts, conf):
    conf.set_override("event_retry_limit", 2, group="reservation")
    lease = _lease_now(ctx)

    def boom(nova, lid):
        raise RuntimeError("nova down")

    runner = events.EventRunner("c1", lambda: None, {st.START_LEASE: boom})
    runner.run_due()
    assert _events(lease["id"])[st.START_LEASE][0] == st.UNDONE
    runner.run_due()
    status, _, attempts = _events(lease["id"])[st.START_LEASE]
    assert (status, attempts) == (st.EV_ERROR, 2)


def test_dead_conductors_event_is_taken_over(db, ctx, hosts, conf):
    lease = _lease_now(ctx)
    _conductor("dead", age_s=3600)
    _conductor("alive")
    with db_api.writer() as session:
        session.execute(
            sa.update(E)
            .where(E.lease_id == lease["id"], E.event_type == st.START_LEASE)
            .values(status=st.IN_PROGRESS, conductor_host="dead", attempts=1)
        )
    ran = []
    handlers = {st.START_LEASE: lambda n, lid: ran.append(lid)}
    # An event of a live conductor is left alone...
    with db_api.writer() as session:
        session.execute(
            sa.update(E)
            .where(E.conductor_host == "dead")
            .values(conductor_host="alive")
        )
    assert events.EventRunner("c1", lambda: None, handlers).run_due() == 0
    # ...a dead one's is resumed, exactly once.
    with db_api.writer() as session:
        session.execute(
            sa.update(E)
            .where(E.conductor_host == "alive")
            .values(conductor_host="dead")
        )
    assert events.EventRunner("c1", lambda: None, handlers).run_due() == 1
    assert ran == [lease["id"]]
    assert _events(lease["id"])[st.START_LEASE] == (st.DONE, "c1", 2)


def test_end_waits_for_start(db, ctx, hosts):
    lease = _lease_now(ctx)
    with db_api.writer() as session:
        session.execute(
            sa.update(E)
            .where(E.lease_id == lease["id"], E.event_type == st.END_LEASE)
            .values(time=utcnow() - datetime.timedelta(minutes=1))
        )
        session.execute(
            sa.update(E)
            .where(E.lease_id == lease["id"], E.event_type == st.START_LEASE)
            .values(time=utcnow() - datetime.timedelta(minutes=2))
        )
    order = []
    handlers = {
        st.START_LEASE: lambda n, lid: order.append("start"),
        st.END_LEASE: lambda n, lid: order.append("end"),
    }
    events.EventRunner("c1", lambda: None, handlers).run_due()
    assert order == ["start", "end"]


class FakeNova:
    """Records calls; enough to drive the lifecycle state machine."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def call(*args, **kwargs):
            self.calls.append(name)
            return {"ensure_aggregate": 7}.get(name, f"{name}-id")

        return call


def test_lifecycle_statuses(db, ctx, hosts):
    lease = _lease_now(ctx)
    nova = FakeNova()
    lifecycle.start_lease(nova, lease["id"])
    got = manager.get_lease(ctx, lease["id"])
    assert got["status"] == st.ACTIVE
    res = got["reservations"][0]
    assert res["status"] == st.RES_ACTIVE
    detail = res["detail"]
    assert (
        detail["flavor_id"],
        detail["server_group_id"],
        detail["aggregate_id"],
    ) == (
        "ensure_flavor-id",
        "ensure_server_group-id",
        7,
    )
    lifecycle.end_lease(nova, lease["id"])
    got = manager.get_lease(ctx, lease["id"])
    assert got["status"] == st.TERMINATED
    assert got["reservations"][0]["status"] == st.RES_DELETED
    assert {
        "delete_servers_with_flavor",
        "delete_flavor",
        "delete_aggregate",
    } <= set(nova.calls)


def test_delete_of_active_lease_goes_through_an_event(db, ctx, hosts):
    lease = _lease_now(ctx)
    lifecycle.start_lease(FakeNova(), lease["id"])
    assert (
        manager.delete_lease(ctx, manager.get_lease(ctx, lease["id"])) is True
    )
    assert manager.get_lease(ctx, lease["id"])["status"] == st.DELETING
    runner = events.EventRunner("c1", FakeNova)
    assert runner.run_due() == 1
    assert manager.list_leases(ctx, None) == []
