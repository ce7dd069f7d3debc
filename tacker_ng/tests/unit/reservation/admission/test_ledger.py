"""Admission costs a constant number of SQL statements and re-checks
under the lock; the last attempt plans under a lock on every host."""

import datetime

import pytest

from tacker_ng.reservation import allocation, exceptions
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import ledger
from tacker_ng.tests.unit.reservation.conftest import (
    add_hosts,
    count_statements,
    instance_body,
)


def _body(i: int, amount=2, prefix="lease") -> dict:
    body = instance_body(
        f"{prefix}-{i}", amount=amount, vcpus=1, memory_mb=256, disk_gb=1
    )
    day = 1 + i % 5
    body["start_date"] = f"2090-01-0{day} 10:00"
    body["end_date"] = f"2090-01-0{day + 1} 12:00"
    return body


def _admission_statements(db, ctx, hosts: int, leases: int) -> int:
    add_hosts(hosts, vcpus=64, memory_mb=65536, local_gb=1000)
    for i in range(leases):
        manager.create_lease(ctx, _body(i, prefix=f"n{hosts}"))
    with count_statements(db) as seen:
        manager.create_lease(ctx, _body(999, prefix=f"n{hosts}"))
    # SQLite is set up to "BEGIN IMMEDIATE" by a statement of its own.
    return len([s for s in seen if not s.startswith("BEGIN")])


def test_admission_statement_count_is_constant(db, ctx, conf):
    small = _admission_statements(db, ctx, hosts=3, leases=2)
    big = _admission_statements(db, ctx, hosts=60, leases=120)
    assert small == big
    # reads (hosts, ledger), lock (+1 on SQLite), re-check, 5 inserts
    assert small <= 10


def test_lost_race_is_retried(db, ctx, conf, monkeypatch):
    add_hosts(2, vcpus=1)
    calls = {"n": 0}
    real = allocation.fits

    def fits_once_false(*args, **kwargs):
        calls["n"] += 1
        return False if calls["n"] == 1 else real(*args, **kwargs)

    monkeypatch.setattr(allocation, "fits", fits_once_false)
    lease = manager.create_lease(ctx, _body(1, amount=2))
    assert calls["n"] == 2 and lease["status"] == "PENDING"


def test_last_attempt_decides_under_a_full_lock(db, ctx, conf, monkeypatch):
    add_hosts(2, vcpus=1)
    monkeypatch.setattr(allocation, "fits", lambda *a, **k: False)
    locked = []
    real = ledger.lock_hosts
    monkeypatch.setattr(
        ledger, "lock_hosts", lambda s, ids: locked.append(ids) or real(s, ids)
    )
    manager.create_lease(ctx, _body(1, amount=2))
    assert locked[-1] is None  # every host
    assert len(locked) == conf.reservation.admission_retries


def test_insufficient_capacity_is_not_retried(db, ctx, conf):
    add_hosts(1, vcpus=1)
    with pytest.raises(exceptions.InsufficientCapacity):
        manager.create_lease(ctx, _body(1, amount=2))


def test_cleaning_time_is_applied(db, ctx, conf):
    add_hosts(1, vcpus=1)
    body = _body(0, amount=1)
    manager.create_lease(ctx, body)
    after = _body(0, amount=1)
    after["name"] = "after"
    after["start_date"], after["end_date"] = (
        "2090-01-02 12:00",
        "2090-01-03 12:00",
    )
    conf.set_override("cleaning_time", 30, group="reservation")
    with pytest.raises(exceptions.InsufficientCapacity):
        manager.create_lease(ctx, after)
    conf.set_override("cleaning_time", 0, group="reservation")
    assert manager.create_lease(ctx, after)["status"] == "PENDING"
    assert datetime.timedelta(0) == ledger.pad()
