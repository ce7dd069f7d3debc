"""What each lease event does, in Nova and in the database.

Every step is safe to run again: the conductor that takes over an event
from a dead one re-runs it from the top. Nova objects are found by their
deterministic names, their ids are saved as soon as they exist, and every
status change is a conditional UPDATE from the statuses the step may
start from, so a lease deleted meanwhile is left alone.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import plugins, store
from tacker_ng.reservation import status as st
from tacker_ng.reservation.plugins import base

LOG = logging.getLogger(__name__)
L = models.Lease
R = models.Reservation


@db_api.retry_on_deadlock
def _move(lease_id: str, froms: tuple[str, ...], to: str) -> bool:
    with db_api.writer() as session:
        return bool(
            session.execute(
                sa.update(L)
                .where(L.id == lease_id, L.status.in_(froms))
                .values(status=to, updated_at=utcnow())
            ).rowcount
        )


@db_api.retry_on_deadlock
def _set_reservations(lease_id: str, froms: tuple[str, ...], to: str) -> None:
    with db_api.writer() as session:
        session.execute(
            sa.update(R)
            .where(R.lease_id == lease_id, R.status.in_(froms))
            .values(status=to, updated_at=utcnow())
        )


def _saver(model, reservation_id: str, detail: dict) -> base.Save:
    def save(**values) -> None:
        if all(detail.get(k) == v for k, v in values.items()):
            return
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                session.execute(
                    sa.update(model)
                    .where(model.reservation_id == reservation_id)
                    .values(**values, updated_at=utcnow())
                )
        detail.update(values)

    return save


def _jobs(nova, lease: dict, statuses: tuple[str, ...]) -> list:
    jobs = []
    with db_api.reader() as session:
        for res in lease["reservations"]:
            if res["status"] not in statuses:
                continue
            hosts = [name for _, name in store.hosts_of(session, res["id"])]
            plugin = plugins.get(res["resource_type"])
            job = base.Job(
                nova=nova,
                lease=lease,
                res=res,
                detail=res["detail"],
                hosts=hosts,
                save=_saver(plugin.model, res["id"], res["detail"]),
            )
            jobs.append((plugin, job))
    return jobs


def _lease(lease_id: str) -> dict | None:
    with db_api.reader() as session:
        return store.get_lease(session, lease_id)


def start_lease(nova, lease_id: str) -> None:
    """Create the reservations' flavors, groups and aggregates."""
    if not _move(lease_id, (st.PENDING, st.STARTING), st.STARTING):
        LOG.info("Lease %s is not pending; start skipped", lease_id)
        return
    lease = _lease(lease_id)
    for plugin, job in _jobs(nova, lease, (st.RES_PENDING, st.RES_ACTIVE)):
        plugin.on_start(job)
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                session.execute(
                    sa.update(R)
                    .where(R.id == job.res["id"])
                    .values(status=st.RES_ACTIVE, updated_at=utcnow())
                )
    _move(lease_id, (st.STARTING,), st.ACTIVE)


def sync_lease(nova, lease_id: str) -> None:
    """Make Nova's aggregates match the ledger after a change."""
    lease = _lease(lease_id)
    if lease is None or lease["status"] != st.ACTIVE:
        return
    for plugin, job in _jobs(nova, lease, (st.RES_ACTIVE,)):
        plugin.on_sync(job)


def before_end_lease(nova, lease_id: str) -> None:
    """Blazar's 'default' before-end action: nothing in Nova."""
    LOG.info("Lease %s reached its before_end_date", lease_id)


def _clean(nova, lease: dict) -> None:
    for plugin, job in _jobs(nova, lease, st.RES_ALL):
        plugin.on_end(job)


def end_lease(nova, lease_id: str) -> None:
    """Delete the servers and Nova objects; free the capacity."""
    froms = (st.ACTIVE, st.ERROR, st.TERMINATING, st.STARTING, st.PENDING)
    if not _move(lease_id, froms, st.TERMINATING):
        LOG.info("Lease %s is not running; end skipped", lease_id)
        return
    _clean(nova, _lease(lease_id))
    _set_reservations(lease_id, st.RES_ALL, st.RES_DELETED)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            session.execute(
                sa.delete(models.HostAllocation).where(
                    models.HostAllocation.lease_id == lease_id
                )
            )
    _move(lease_id, (st.TERMINATING,), st.TERMINATED)


def delete_lease(nova, lease_id: str) -> None:
    """Clean up in Nova, then remove the lease's rows."""
    lease = _lease(lease_id)
    if lease is None:
        return
    _clean(nova, lease)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            store.delete_lease_rows(session, lease_id)


def fail(lease_id: str, event_type: str) -> None:
    """An event failed for good: the lease goes to ERROR."""
    if event_type in (st.START_LEASE, st.SYNC_LEASE, st.END_LEASE):
        _set_reservations(
            lease_id, (st.RES_PENDING, st.RES_ACTIVE), st.RES_ERROR
        )
        _move(lease_id, (st.STARTING, st.ACTIVE, st.TERMINATING), st.ERROR)


HANDLERS: dict[str, Callable[[object, str], None]] = {
    st.START_LEASE: start_lease,
    st.SYNC_LEASE: sync_lease,
    st.BEFORE_END_LEASE: before_end_lease,
    st.END_LEASE: end_lease,
    st.DELETE_LEASE: delete_lease,
}
