"""The conductor's warm-up: done on the side, never in the way."""

import logging
import threading
import time

from tacker_ng.conductor import service as conductor_service
from tacker_ng.conductor import warmup
from tacker_ng.infra import registry


def test_warm_up_loads_drivers_and_opens_connections(conf, db):
    took = warmup.warm_up(conf)
    assert set(took) == {"drivers", "database connections"}
    assert all(seconds >= 0 for seconds in took.values())
    # The drivers are cached: an operation finds them loaded.
    assert registry.get_driver.cache_info().currsize >= 1


def test_a_failing_step_only_logs_and_the_others_run(
    conf, monkeypatch, caplog
):
    ran = []

    def broken(conf):
        raise RuntimeError("no database yet")

    monkeypatch.setattr(
        warmup,
        "STEPS",
        {"broken": broken, "fine": lambda conf: ran.append("fine")},
    )
    with caplog.at_level(logging.WARNING, logger=warmup.__name__):
        took = warmup.warm_up(conf)
    assert took["broken"] == -1.0
    assert took["fine"] >= 0
    assert ran == ["fine"]
    assert "Warm-up step 'broken' failed" in caplog.text


def test_start_does_not_wait_for_the_warm_up(conf, db, monkeypatch):
    release = threading.Event()
    started = threading.Event()

    def slow(conf):
        started.set()
        release.wait(30)

    monkeypatch.setattr(warmup, "STEPS", {"slow": slow})
    conf.set_override("host", "cond-1")
    svc = conductor_service.ConductorService(conf)
    begun = time.monotonic()
    svc.start()
    try:
        assert started.wait(5)
        assert time.monotonic() - begun < 25
        assert not release.is_set()
    finally:
        release.set()
        svc.stop(graceful=False)


def test_a_conductor_whose_warm_up_fails_serves(conf, db, monkeypatch):
    from tacker_ng import context
    from tacker_ng.conductor import rpcapi

    def broken(conf):
        raise RuntimeError("boom")

    monkeypatch.setattr(warmup, "STEPS", {"broken": broken})
    conf.set_override("host", "cond-1")
    svc = conductor_service.ConductorService(conf)
    svc.start()
    try:
        answer = rpcapi.get_api().ping(
            context.get_admin_context(), "after a failed warm-up"
        )
        assert answer["host"] == "cond-1"
    finally:
        svc.stop(graceful=False)
