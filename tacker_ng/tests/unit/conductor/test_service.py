"""A conductor on the in-process bus: RPC round trip, heartbeat, stop."""

import datetime

import pytest

from tacker_ng import context
from tacker_ng.conductor import rpcapi
from tacker_ng.conductor import service as conductor_service
from tacker_ng.db import conductors as conductors_db
from tacker_ng.db.types import utcnow


@pytest.fixture
def conductor(conf, db):
    conf.set_override("host", "cond-1")
    conf.set_override("heartbeat_interval", 1, group="conductor")
    svc = conductor_service.ConductorService(conf)
    svc.start()
    yield svc
    svc.stop(graceful=False)


def _fleet() -> dict:
    horizon = utcnow() - datetime.timedelta(seconds=60)
    rows = conductors_db.list_all(context.get_admin_context(), horizon)
    return {row["hostname"]: row for row in rows}


def test_ping_round_trip_carries_request_id(conductor):
    ctx = context.RequestContext(request_id="req-unit-ping", is_admin=True)
    answer = rpcapi.get_api().ping(ctx, "hello", timeout=10)
    assert answer["host"] == "cond-1"
    assert answer["payload"] == "hello"
    assert datetime.datetime.fromisoformat(answer["time"]).tzinfo


def test_registered_and_alive(conductor):
    row = _fleet()["cond-1"]
    assert row["alive"] is True
    assert row["rpcVersion"] == rpcapi.RPC_API_VERSION


def test_heartbeat_advances(conductor):
    first = _fleet()["cond-1"]["heartbeatAt"]
    deadline = utcnow() + datetime.timedelta(seconds=5)
    while utcnow() < deadline:
        if _fleet()["cond-1"]["heartbeatAt"] > first:
            return
    pytest.fail("heartbeat did not advance within 5 s")


def test_heartbeat_reregisters_a_vanished_row(conductor):
    from tacker_ng.db import api as db_api
    from tacker_ng.db import models

    with db_api.writer() as session:
        session.query(models.Conductor).delete()
    deadline = utcnow() + datetime.timedelta(seconds=5)
    while utcnow() < deadline:
        if "cond-1" in _fleet():
            return
    pytest.fail("conductor did not register again")


def test_stop_marks_offline(conf, db):
    conf.set_override("host", "cond-2")
    svc = conductor_service.ConductorService(conf)
    svc.start()
    svc.stop(graceful=True)
    row = _fleet()["cond-2"]
    assert row["online"] is False
    assert row["alive"] is False


def test_stale_heartbeat_is_not_alive(conductor):
    later = utcnow() + datetime.timedelta(seconds=120)
    rows = conductors_db.list_all(context.get_admin_context(), later)
    assert [r["alive"] for r in rows] == [False]


def test_api_lists_conductors(conductor, api):
    body = api.get("/v1/conductors").json
    assert [c["hostname"] for c in body["conductors"]] == ["cond-1"]
    assert body["conductors"][0]["alive"] is True
    assert body["conductors"][0]["heartbeatAt"].endswith("Z")


def test_api_ping_through_bus(conductor, api):
    resp = api.post_json("/v1/ping", {"payload": "via-api"})
    assert resp.json["host"] == "cond-1"
    assert resp.json["payload"] == "via-api"


def test_api_ping_without_conductor_is_503(api):
    resp = api.post_json(
        "/v1/ping", {"payload": "x", "timeout": 1}, expect_errors=True
    )
    assert resp.status_int == 503
    assert resp.json["detail"] == "No conductor answered in time."


def test_heartbeat_goes_on_while_another_job_hangs(conf, db, monkeypatch):
    """A periodic job stuck on a dead service (tooz retrying a lost
    Redis) must not stop the heartbeat."""
    import threading
    import time

    from tacker_ng import periodic

    release = threading.Event()
    conf.set_override("host", "cond-1")
    conf.set_override("heartbeat_interval", 1, group="conductor")
    svc = conductor_service.ConductorService(conf)
    jobs = svc.periodic_jobs()
    monkeypatch.setattr(
        svc,
        "periodic_jobs",
        lambda: [*jobs, periodic.PeriodicJob("stuck", 0.1, release.wait)],
    )
    svc.start()
    try:
        # Past the first round (every job runs once at start).
        time.sleep(1.5)
        first = _fleet()["cond-1"]["heartbeatAt"]
        deadline = utcnow() + datetime.timedelta(seconds=5)
        while utcnow() < deadline:
            if _fleet()["cond-1"]["heartbeatAt"] > first:
                break
        else:
            pytest.fail("heartbeat stopped behind a hanging job")
    finally:
        release.set()
        svc.stop(graceful=False)
