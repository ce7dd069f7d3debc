"""Deliver the notification outbox to subscribers (runs in conductors).

Each conductor claims the due head notification of each subscription
(so a subscription's notifications arrive in the order they were
written), POSTs it with the subscription's auth, and records success or
schedules a retry with exponential backoff; after ``max_attempts`` the
notification is given up and logged. Claims expire, so a conductor dying
mid-delivery delays but never loses a notification. A database outage
stops the loop until it is over; it is logged once when the database is
lost and once when it is back (:mod:`tacker_ng.connectivity`).
"""

import datetime
import threading

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import connectivity
from tacker_ng import context as tcontext
from tacker_ng.db import api as db_api
from tacker_ng.db import notifications as outbox
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo import callback

LOG = logging.getLogger(__name__)


def backoff(attempts: int, conf: cfg.ConfigOpts = cfg.CONF) -> float:
    """Seconds before the next try after ``attempts`` failed ones."""
    n = conf.notification
    return min(n.initial_backoff * (2 ** max(attempts - 1, 0)), n.max_backoff)


class Deliverer:
    """Delivery loop of one conductor."""

    def __init__(self, host: str, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.host = host
        self.conf = conf
        self.context = tcontext.get_admin_context()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._health = connectivity.ConnectionHealth(
            "notification delivery", LOG
        )

    def _lease(self) -> datetime.timedelta:
        return datetime.timedelta(seconds=self.conf.notification.timeout * 3)

    @staticmethod
    @db_api.retry_on_deadlock
    def _record(context, row_id, delivered: bool, error, retry_at) -> None:
        with db_api.writer(context) as session:
            if delivered:
                outbox.mark_delivered(session, row_id)
            else:
                outbox.mark_failed(session, row_id, error, retry_at)

    def deliver_one(self, row) -> bool:
        with db_api.reader(self.context) as session:
            sub = subscriptions_db.find_any(session, row["subscription_id"])
        if sub is None:
            self._record(
                self.context, row["id"], False, "subscription gone", None
            )
            return False
        error = None
        try:
            resp = callback.send(
                sub["callback_uri"],
                sub["authentication"],
                "POST",
                row["payload"],
                self.conf,
            )
            if not 200 <= resp.status_code < 300:
                error = f"callback answered {resp.status_code}"
        except callback.CallbackError as exc:
            error = f"{exc} ({exc.cause})"
        if error is None:
            self._record(self.context, row["id"], True, None, None)
            return True
        attempts = row["attempts"] + 1
        retry_at = None
        if attempts >= self.conf.notification.max_attempts:
            LOG.error(
                "Giving up %s %s to subscription %s after %d attempts: %s",
                row["notification_type"],
                row["payload"].get("id"),
                row["subscription_id"],
                attempts,
                error,
            )
        else:
            retry_at = utcnow() + datetime.timedelta(
                seconds=backoff(attempts, self.conf)
            )
            LOG.warning(
                "Delivery of %s to subscription %s failed (%s); retry "
                "%d at %s",
                row["notification_type"],
                row["subscription_id"],
                error,
                attempts,
                retry_at,
            )
        self._record(self.context, row["id"], False, error, retry_at)
        return False

    def run_once(self) -> int:
        """Claim and deliver what is due; returns how many were tried."""
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                rows = outbox.claim_due(session, self.host, self._lease())
        for row in rows:
            try:
                self.deliver_one(row)
            except Exception as exc:
                if connectivity.service_of(exc):
                    # The rest fails the same way: their claims expire
                    # and they go out once the database is back.
                    raise
                LOG.exception("Delivering notification %s failed", row["id"])
        return len(rows)

    def _loop(self) -> None:
        interval = self.conf.notification.poll_interval
        while not self._stop.is_set():
            try:
                busy = self.run_once()
            except Exception as exc:
                if not self._health.failed(exc):
                    LOG.exception("Notification delivery loop failed")
                busy = 0
            else:
                self._health.ok()
            if not busy:
                self._stop.wait(interval)

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._loop, name="notification-delivery", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.conf.notification.timeout + 5)
