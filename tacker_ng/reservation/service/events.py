"""The lease event loop: start_lease, before_end_lease, end_lease.

The leader conductor runs it periodically (and when the API casts a wake
up). An event is *claimed* before it runs, with a conditional UPDATE
(``UNDONE -> IN_PROGRESS`` with this conductor's name), so no two
conductors ever run it at once. An event whose conductor died (its
heartbeat in the conductors table is older than
``[conductor] heartbeat_timeout``) is claimed again, by a conditional
UPDATE on the dead owner's name, and re-run from the top; the handlers
are idempotent (see :mod:`tacker_ng.reservation.service.lifecycle`).
So an event is neither lost nor run twice when a conductor dies. Failures are
retried ``[reservation] event_retry_limit`` times, then the event and
the lease go to ERROR.
"""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable, Mapping

import sqlalchemy as sa
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.db import models_reservation as rmodels
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import status as st
from tacker_ng.reservation import store
from tacker_ng.reservation.service import lifecycle

LOG = logging.getLogger(__name__)
E = rmodels.LeaseEvent
C = models.Conductor


class EventRunner:
    """Runs due lease events on behalf of one conductor."""

    def __init__(
        self,
        host: str,
        nova_factory: Callable[[], object],
        handlers: Mapping[str, Callable[[object, str], None]] | None = None,
    ) -> None:
        self.host = host
        self._nova_factory = nova_factory
        self._handlers = handlers or lifecycle.HANDLERS
        self._busy = threading.Lock()

    def run_due(self) -> int:
        """One pass over the due events; returns how many ran."""
        if not self._busy.acquire(blocking=False):
            return 0
        try:
            ran = 0
            for event in self._candidates(utcnow()):
                if self._blocked(event) or not self._claim(event):
                    continue
                self._run(event)
                ran += 1
            return ran
        finally:
            self._busy.release()

    # -- selection and claims ----------------------------------------------
    def _alive(self, session, now: datetime.datetime) -> list[str]:
        timeout = cfg.CONF.conductor.heartbeat_timeout
        horizon = now - datetime.timedelta(seconds=timeout)
        return list(
            session.scalars(
                sa.select(C.hostname).where(
                    C.online.is_(True), C.heartbeat_at >= horizon
                )
            )
        )

    def _candidates(self, now: datetime.datetime) -> list[dict]:
        with db_api.reader() as session:
            others = [h for h in self._alive(session, now) if h != self.host]
            orphaned = sa.and_(
                E.status == st.IN_PROGRESS,
                sa.or_(
                    E.conductor_host.is_(None),
                    E.conductor_host.not_in(others) if others else sa.true(),
                ),
            )
            due = sa.and_(E.status == st.UNDONE, E.time <= now)
            rows = session.scalars(
                sa.select(E).where(sa.or_(due, orphaned)).order_by(E.time)
            ).all()
            events = [store.columns(r) for r in rows]
        return sorted(
            events,
            key=lambda e: (e["time"], st.EVENT_ORDER.get(e["event_type"], 9)),
        )

    def _blocked(self, event: dict) -> bool:
        """Another event of the lease runs, or its start has not run."""
        with db_api.reader() as session:
            query = sa.select(E.id).where(
                E.lease_id == event["lease_id"],
                E.id != event["id"],
                sa.or_(
                    sa.and_(
                        E.status == st.IN_PROGRESS,
                        E.conductor_host != self.host,
                    ),
                    sa.and_(
                        E.event_type == st.START_LEASE,
                        E.status == st.UNDONE,
                    ),
                ),
            )
            if event["event_type"] == st.DELETE_LEASE:
                query = query.where(E.status == st.IN_PROGRESS)
            return session.execute(query.limit(1)).first() is not None

    def _claim(self, event: dict) -> bool:
        now = utcnow()
        where = [E.id == event["id"], E.status == event["status"]]
        if event["status"] == st.IN_PROGRESS:
            owner = event["conductor_host"]
            where.append(
                E.conductor_host.is_(None)
                if owner is None
                else E.conductor_host == owner
            )
            LOG.warning(
                "Taking over %s of lease %s from conductor %s",
                event["event_type"],
                event["lease_id"],
                owner,
            )
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                claimed = session.execute(
                    sa.update(E)
                    .where(*where)
                    .values(
                        status=st.IN_PROGRESS,
                        conductor_host=self.host,
                        claimed_at=now,
                        attempts=E.attempts + 1,
                        updated_at=now,
                    )
                ).rowcount
        event["attempts"] += 1
        return bool(claimed)

    @db_api.retry_on_deadlock
    def _finish(self, event: dict, status: str, error: str | None) -> None:
        with db_api.writer() as session:
            session.execute(
                sa.update(E)
                .where(
                    E.id == event["id"],
                    E.status == st.IN_PROGRESS,
                    E.conductor_host == self.host,
                )
                .values(status=status, error=error, updated_at=utcnow())
            )

    # -- running -------------------------------------------------------------
    def _run(self, event: dict) -> None:
        kind, lease_id = event["event_type"], event["lease_id"]
        handler = self._handlers.get(kind)
        if handler is None:
            self._finish(event, st.EV_ERROR, f"unknown event type {kind}")
            return
        LOG.info("Running %s of lease %s", kind, lease_id)
        try:
            handler(self._nova_factory(), lease_id)
        except Exception as exc:  # noqa: BLE001 - recorded on the event
            limit = cfg.CONF.reservation.event_retry_limit
            reason = f"{type(exc).__name__}: {exc}"
            if event["attempts"] < limit:
                LOG.warning(
                    "%s of lease %s failed (attempt %d of %d): %s",
                    kind,
                    lease_id,
                    event["attempts"],
                    limit,
                    reason,
                )
                self._finish(event, st.UNDONE, reason)
                return
            LOG.error(
                "%s of lease %s failed for good: %s", kind, lease_id, reason
            )
            self._finish(event, st.EV_ERROR, reason)
            lifecycle.fail(lease_id, kind)
            return
        self._finish(event, st.DONE, None)
