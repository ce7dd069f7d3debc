"""The admission's fixed SQL statements, built once per process.

Building a statement with a CTE, subqueries and a dozen columns cost an
admission more CPU than the database took to run it (issue #32: a lease
on 100 idle hosts spent a third of its 13 ms of CPU in SQLAlchemy's
statement construction); these are built on first use with bound
parameters for everything that varies, and SQLAlchemy's compiled cache
does the rest.
"""

import functools

import sqlalchemy as sa

from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import UTCDateTime

H = models.ComputeHost
A = models.HostAllocation

#: Host columns the planner and the property queries read.
HOST_COLUMNS = (
    H.id,
    H.hypervisor_hostname,
    H.service_name,
    H.availability_zone,
    H.hypervisor_type,
    H.hypervisor_version,
    H.vcpus,
    H.memory_mb,
    H.local_gb,
    H.reservable,
    H.extra_capabilities,
)
BOOKING_COLUMNS = (
    A.host_id,
    A.start_date,
    A.end_date,
    A.instances,
    A.vcpus,
    A.memory_mb,
    A.disk_gb,
    A.exclusive,
    A.reservation_id,
)


@functools.cache
def fingerprint_statement() -> sa.Select:
    """The host table's fingerprint query (built once, like every fixed
    statement of an admission: building them cost more CPU than
    running them)."""
    return sa.select(
        sa.func.count(H.id),
        sa.func.max(H.id),
        sa.func.max(H.updated_at),
        sa.func.sum(sa.case((H.reservable, 1), else_=0)),
    )


@functools.cache
def lock_statement(some: bool) -> sa.Select:
    """``SELECT hosts ... FOR UPDATE`` of the hosts ``ids`` (or all)."""
    query = sa.select(*HOST_COLUMNS).order_by(H.id).with_for_update()
    if some:
        query = query.where(H.id.in_(sa.bindparam("ids", expanding=True)))
    return query


@functools.cache
def usage_statement(exclude: bool, hosts: bool) -> sa.Select:
    """The grouped peak query of :func:`load_usage`, built once per shape
    (building its CTE and subqueries took about a third of an admission's
    CPU); the window, ``exclude`` and host ids are bound parameters."""
    start = sa.bindparam("ws", type_=UTCDateTime)
    query = sa.select(*BOOKING_COLUMNS).where(
        A.start_date < sa.bindparam("we", type_=UTCDateTime),
        A.end_date > start,
    )
    if exclude:
        query = query.where(
            A.reservation_id.not_in(sa.bindparam("exclude", expanding=True))
        )
    if hosts:
        query = query.where(
            A.host_id.in_(sa.bindparam("host_ids", expanding=True))
        )
    w = query.cte("w")
    w2 = w.alias("w2")
    point = sa.case((w.c.start_date > start, w.c.start_date), else_=start)
    points = (
        sa.select(w.c.host_id, point.label("p")).distinct().subquery("pts")
    )
    per_point = (
        sa.select(
            points.c.host_id,
            sa.func.sum(w2.c.instances * w2.c.vcpus).label("v"),
            sa.func.sum(w2.c.instances * w2.c.memory_mb).label("m"),
            sa.func.sum(w2.c.instances * w2.c.disk_gb).label("d"),
            sa.func.max(sa.case((w2.c.exclusive, 1), else_=0)).label("x"),
        )
        .join(
            w2,
            sa.and_(
                w2.c.host_id == points.c.host_id,
                w2.c.start_date <= points.c.p,
                points.c.p < w2.c.end_date,
            ),
        )
        .group_by(points.c.host_id, points.c.p)
        .subquery("per_point")
    )
    return sa.select(
        per_point.c.host_id,
        sa.func.max(per_point.c.v),
        sa.func.max(per_point.c.m),
        sa.func.max(per_point.c.d),
        sa.func.max(per_point.c.x),
    ).group_by(per_point.c.host_id)
