"""Leader election per duty and periodic jobs run by the leader only."""

import logging

import tooz
from oslo_db import exception as db_exc

from tacker_ng import coordination, periodic


def _pair(tmp_path):
    url = f"file://{tmp_path}/coord"
    return (
        coordination.Coordinator(url, "conductor-a"),
        coordination.Coordinator(url, "conductor-b"),
    )


def test_one_leader_per_duty_and_takeover(tmp_path):
    a, b = _pair(tmp_path)
    try:
        assert a.leader("lcm").is_leader()
        assert not b.leader("lcm").is_leader()
        # Another duty is elected on its own.
        assert b.leader("reservation").is_leader()
        assert not a.leader("reservation").is_leader()
        # A leader that stops hands the duty over at the next tick.
        a.stop()
        assert b.leader("lcm").is_leader()
        assert b.leader("lcm").is_leader()  # keeps it
    finally:
        a.stop()
        b.stop()


def test_leader_only_job_runs_on_the_leader(tmp_path):
    a, b = _pair(tmp_path)
    ran: list[str] = []
    try:
        for who, coord in (("a", a), ("b", b)):
            job = periodic.PeriodicJob(
                "j", 1, lambda who=who: ran.append(who), leader="duty"
            )
            tick, _, _ = periodic.as_futurist(job, coord)
            tick()
            tick()
        assert ran == ["a", "a"]
    finally:
        a.stop()
        b.stop()


def test_every_conductor_job_and_failures_are_contained(tmp_path, caplog):
    a, _ = _pair(tmp_path)
    calls = []

    def boom():
        calls.append(1)
        raise RuntimeError("bad tick")

    tick, _, _ = periodic.as_futurist(periodic.PeriodicJob("boom", 1, boom), a)
    tick()
    tick()
    assert calls == [1, 1]
    assert "Periodic job boom failed" in caplog.text
    a.stop()


def test_backend_errors_mean_not_leading(tmp_path, caplog):
    """A backend that cannot be reached (here: a file backend on a path
    that cannot be created) is logged once, without a traceback, and
    nobody leads until it works again."""
    caplog.set_level(logging.INFO, "tacker_ng.coordination")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    coord = coordination.Coordinator(f"file://{blocker}/coord", "x")
    coord.start()  # logged, not raised
    assert not coord.leader("lcm").is_leader()
    assert not coord.leader("packages").is_leader()
    told = [r for r in caplog.records if r.name == "tacker_ng.coordination"]
    assert [r.levelname for r in told] == ["WARNING"]
    assert (
        told[0]
        .getMessage()
        .startswith(
            "coordination: lost connection to coordination backend: "
            "NotADirectoryError"
        )
    )
    assert not told[0].exc_info
    blocker.unlink()
    assert coord.leader("lcm").is_leader()
    assert "coordination: connection to coordination backend is back" in (
        caplog.text
    )
    coord.stop()


def test_a_lost_database_is_one_warning_per_job_and_outage(tmp_path, caplog):
    """Ticks failing for a lost connection say so once, without a
    traceback; the first tick that works says it is back."""
    caplog.set_level(logging.INFO, "tacker_ng.periodic")
    a, _ = _pair(tmp_path)
    outcomes = [db_exc.DBConnectionError("gone")] * 3 + [None]

    def heartbeat():
        exc = outcomes.pop(0)
        if exc is not None:
            raise exc

    job = periodic.PeriodicJob("heartbeat", 1, heartbeat)
    tick, _, _ = periodic.as_futurist(job, a)
    for _ in range(4):
        tick()
    told = [r for r in caplog.records if r.name == "tacker_ng.periodic"]
    assert [(r.levelname, r.getMessage()) for r in told] == [
        (
            "WARNING",
            "periodic job heartbeat: lost connection to database: "
            "DBConnectionError: gone",
        ),
        (
            "INFO",
            "periodic job heartbeat: connection to database is back after 0 s",
        ),
    ]
    assert not any(r.exc_info for r in told)
    a.stop()


class _ExpiringLock:
    """A tooz lock whose key expired while Redis was away."""

    def __init__(self) -> None:
        self.owned = False
        self.acquired = self.released = 0

    def acquire(self, blocking=True):
        self.acquired += 1
        self.owned = True
        return True

    def is_still_owner(self):
        return self.owned

    def release(self):
        self.released += 1
        raise tooz.ToozError("Cannot release a lock that's no longer owned")


def test_an_expired_lock_is_let_go_before_it_is_taken_again(
    tmp_path, monkeypatch
):
    """tooz renews every lock it acquired until it is released: one left
    behind would fail its renewal every few seconds for as long as
    another conductor leads."""
    coord = coordination.Coordinator(f"file://{tmp_path}/coord", "a")
    lock = _ExpiringLock()
    monkeypatch.setattr(coord, "_lock", lambda duty: lock)
    leader = coord.leader("lcm")
    assert leader.is_leader()
    lock.owned = False
    assert leader.is_leader()
    assert (lock.released, lock.acquired) == (1, 2)
