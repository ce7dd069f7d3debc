"""Reservation unit fixtures: a migrated SQLite DB with freepool hosts."""

import contextlib

import pytest
import sqlalchemy as sa

from tacker_ng import context as tcontext
from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow

V1 = "/reservation/v1"


def add_hosts(count: int, vcpus=4, memory_mb=8192, local_gb=80, **caps):
    """Insert freepool hosts h1..hN straight into the DB (no Nova)."""
    with db_api.writer() as session:
        start = session.scalar(sa.select(sa.func.count(models.ComputeHost.id)))
        for i in range(start + 1, start + count + 1):
            session.add(
                models.ComputeHost(
                    hypervisor_hostname=f"h{i}",
                    service_name=f"h{i}",
                    availability_zone=f"AZ-{i % 2 + 1}",
                    vcpus=vcpus,
                    memory_mb=memory_mb,
                    local_gb=local_gb,
                    reservable=True,
                    extra_capabilities=dict(caps),
                    created_at=utcnow(),
                )
            )


@pytest.fixture
def hosts(db):
    add_hosts(3)


@pytest.fixture
def ctx(conf):
    return tcontext.RequestContext(
        user_id="u1", project_id="p1", roles=["member", "reader"]
    )


def instance_body(name="l1", amount=2, affinity=False, **kw):
    res = {
        "resource_type": "virtual:instance",
        "vcpus": 1,
        "memory_mb": 1024,
        "disk_gb": 10,
        "amount": amount,
        "affinity": affinity,
    }
    res.update(kw)
    return {
        "name": name,
        "start_date": "2090-01-01 10:00",
        "end_date": "2090-01-02 10:00",
        "reservations": [res],
        "events": [],
    }


@contextlib.contextmanager
def count_statements(engine):
    """Count the SQL statements the DBAPI cursor executes."""
    seen: list[str] = []

    def listener(conn, cursor, statement, *args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", listener)
