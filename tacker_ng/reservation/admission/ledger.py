"""Admission against the capacity ledger, decided in the database.

An admission costs a constant number of SQL statements, whatever the
number of hosts and reservations:

1. read transaction: every host (a fingerprint SELECT, plus one more
   when the host table changed since the last admission) and each busy
   host's peak usage in the window (1 grouped SELECT, see
   :func:`load_usage`); the pure planner chooses hosts;
2. write transaction: lock the chosen hosts' rows (``SELECT ... ORDER BY
   id FOR UPDATE``), read those hosts' peaks again (1 grouped SELECT;
   their ledger rows when a cleaning time pads them), re-check the plan,
   then write (a few multi-row INSERTs).

Every writer of ledger rows takes the locks of the hosts it writes
against first, so the re-check under the lock sees every committed
booking of those hosts and two admissions can never both take a host's
last slot. When the re-check fails (another admission won the race) the
admission starts over; the last attempt locks every host first and plans
under the lock, so it always terminates.
"""

from __future__ import annotations

import dataclasses
import datetime
import threading
from collections.abc import Callable, Collection, Iterable, Sequence

import sqlalchemy as sa
from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging
from sqlalchemy import orm

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.reservation import allocation
from tacker_ng.reservation.admission import statements

LOG = logging.getLogger(__name__)

H = models.ComputeHost
A = models.HostAllocation

HOST_COLUMNS = statements.HOST_COLUMNS
BOOKING_COLUMNS = statements.BOOKING_COLUMNS

#: Writes the lease's rows inside the locked transaction.
Writer = Callable[[orm.Session, allocation.Plan], None]


def pad() -> datetime.timedelta:
    """The cleaning time kept between two bookings of a host."""
    return datetime.timedelta(minutes=cfg.CONF.reservation.cleaning_time)


def to_host(row) -> allocation.Host:
    """A planner host from a row of :data:`HOST_COLUMNS`."""
    props: dict[str, object] = dict(row.extra_capabilities or {})
    props.update(
        hypervisor_hostname=row.hypervisor_hostname,
        service_name=row.service_name,
        availability_zone=row.availability_zone,
        hypervisor_type=row.hypervisor_type,
        hypervisor_version=row.hypervisor_version,
        vcpus=row.vcpus,
        memory_mb=row.memory_mb,
        local_gb=row.local_gb,
    )
    return allocation.Host(
        id=row.id,
        name=row.hypervisor_hostname,
        vcpus=row.vcpus,
        memory_mb=row.memory_mb,
        disk_gb=row.local_gb,
        reservable=row.reservable,
        properties=props,
    )


class _HostCache:
    """The host list of the last admission, reused while a cheap
    fingerprint of the table (count, max id, newest update, reservable
    count) is unchanged. Only the optimistic plan reads it; the re-check
    under the lock always reads the locked rows themselves."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.hosts: list[allocation.Host] = []
        self.lock = threading.Lock()


_HOSTS = _HostCache()


def load_hosts(session: orm.Session) -> list[allocation.Host]:
    """Every registered host (one SELECT, two when the table changed)."""
    key = tuple(session.execute(statements.fingerprint_statement()).one())
    with _HOSTS.lock:
        if key == _HOSTS.key:
            return _HOSTS.hosts
    rows = session.execute(sa.select(*HOST_COLUMNS)).all()
    hosts = [to_host(r) for r in rows]
    with _HOSTS.lock:
        _HOSTS.key, _HOSTS.hosts = key, hosts
    return hosts


def load_usage(
    session: orm.Session,
    window: allocation.Window,
    exclude: Collection[str] = (),
    host_ids: Collection[int] | None = None,
) -> dict[int, allocation.Usage]:
    """Per-host peak usage in the window, computed by the database.

    Usage only rises where a booking starts, so the peak of a host is the
    largest sum over the bookings covering one of its bookings' (clipped)
    start points: one grouped self-join returning a row per busy host
    instead of every ledger row. Agrees with :func:`allocation.peak_usage`
    (tested); used when there is no cleaning time to pad with.
    ``host_ids`` limits it to those hosts (the re-check under the lock).
    """
    params: dict[str, object] = {"ws": window.start, "we": window.end}
    if exclude:
        params["exclude"] = list(exclude)
    if host_ids is not None:
        if not host_ids:
            return {}
        params["host_ids"] = sorted(host_ids)
    rows = session.execute(
        statements.usage_statement(bool(exclude), host_ids is not None), params
    ).all()
    return {
        host_id: allocation.Usage(
            int(v), int(m), int(d), exclusive=bool(x), busy=True
        )
        for host_id, v, m, d, x in rows
    }


def lock_hosts(
    session: orm.Session, host_ids: Collection[int] | None
) -> list[allocation.Host]:
    """Lock host rows in id order (all when ``host_ids`` is None).

    SQLite has no row locks: an UPDATE takes its database write lock
    first, which serialises writers just the same.
    """
    if session.bind.dialect.name == "sqlite":
        where = [] if host_ids is None else [H.id.in_(sorted(host_ids))]
        session.execute(
            sa.update(H)
            .where(*where)
            .values(reservable=H.reservable, updated_at=H.updated_at)
        )
        query = sa.select(*HOST_COLUMNS).where(*where).order_by(H.id)
        rows = session.execute(query).all()
    elif host_ids is None:
        rows = session.execute(statements.lock_statement(False)).all()
    elif not host_ids:
        return []
    else:
        rows = session.execute(
            statements.lock_statement(True), {"ids": sorted(host_ids)}
        ).all()
    return [to_host(r) for r in rows]


def load_bookings(
    session: orm.Session,
    window: allocation.Window,
    exclude: Collection[str] = (),
    host_ids: Collection[int] | None = None,
) -> list[allocation.Booking]:
    """Ledger rows overlapping the (padded) window (one SELECT)."""
    margin = pad()
    query = sa.select(*BOOKING_COLUMNS).where(
        A.start_date < window.end + margin,
        A.end_date > window.start - margin,
    )
    if exclude:
        query = query.where(A.reservation_id.not_in(list(exclude)))
    if host_ids is not None:
        query = query.where(A.host_id.in_(sorted(host_ids)))
    return [
        allocation.Booking(
            host_id=r.host_id,
            start=r.start_date,
            end=r.end_date,
            instances=r.instances,
            vcpus=r.vcpus,
            memory_mb=r.memory_mb,
            disk_gb=r.disk_gb,
            exclusive=r.exclusive,
            reservation_id=r.reservation_id,
        )
        for r in session.execute(query).all()
    ]


def _hosts_of(chosen: allocation.Plan) -> set[int]:
    return {h for hosts in chosen.values() for h in hosts}


@dataclasses.dataclass
class _Admission:
    window: allocation.Window
    requests: Sequence[allocation.Request]
    write: Writer
    held: dict[str, dict[int, int]] | None
    exclude: Collection[str]
    extra: set[int]
    margin: datetime.timedelta

    def plan(self, session, hosts) -> allocation.Plan:
        """Plan on the ledger as ``session`` sees it: peaks from SQL, or a
        sweep over the rows when a cleaning time pads them."""
        if self.margin:
            bookings = load_bookings(session, self.window, self.exclude)
            usage = None
        else:
            bookings, usage = (
                [],
                load_usage(session, self.window, self.exclude),
            )
        return allocation.plan(
            self.requests,
            hosts,
            bookings,
            self.window,
            held=self.held,
            pad=self.margin,
            usage=usage,
        )

    def optimistic(self) -> allocation.Plan | None:
        """Plan on a snapshot, then lock and re-check only the chosen
        hosts; None when another admission took their room meanwhile."""
        with db_api.reader() as session:
            chosen = self.plan(session, load_hosts(session))
        ids = _hosts_of(chosen)
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                locked = lock_hosts(session, ids | self.extra)
                if self.margin:
                    fresh = load_bookings(
                        session, self.window, self.exclude, ids
                    )
                    usage = None
                else:
                    # The peaks of the chosen hosts, not their rows.
                    fresh = []
                    usage = load_usage(session, self.window, self.exclude, ids)
                if not allocation.fits(
                    chosen,
                    self.requests,
                    locked,
                    fresh,
                    self.window,
                    pad=self.margin,
                    usage=usage,
                ):
                    return None
                self.write(session, chosen)
        return chosen

    def under_lock(self) -> allocation.Plan:
        """Lock every host, then plan and write: always conclusive."""
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                chosen = self.plan(session, lock_hosts(session, None))
                self.write(session, chosen)
        return chosen


def admit(
    window: allocation.Window,
    requests: Sequence[allocation.Request],
    write: Writer,
    *,
    held: dict[str, dict[int, int]] | None = None,
    exclude: Collection[str] = (),
    also_lock: Iterable[int] = (),
) -> allocation.Plan:
    """Plan ``requests`` for ``window`` and ``write`` them atomically.

    ``exclude`` are reservation ids whose own ledger rows are ignored (an
    update replaces them); ``held`` their current hosts, preferred.
    ``also_lock`` are hosts whose rows ``write`` changes too.
    Raises InsufficientCapacity (409) when the freepool cannot hold them.
    """
    retries = cfg.CONF.reservation.admission_retries
    job = _Admission(
        window, requests, write, held, exclude, set(also_lock), pad()
    )
    for attempt in range(1, retries + 1):
        try:
            if attempt == retries:
                return job.under_lock()
            chosen = job.optimistic()
            if chosen is not None:
                return chosen
            LOG.debug("Admission lost a race (attempt %d)", attempt)
        except db_exc.DBDeadlock:
            LOG.debug("Admission deadlocked (attempt %d); retrying", attempt)
            if attempt == retries:
                raise
    raise AssertionError("unreachable")
