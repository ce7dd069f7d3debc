"""Leader election of the lease event loop among conductors (tooz).

The leader is whoever holds a tooz lock on ``[coordination] backend_url``
(the mechanism tooz's Redis driver itself uses for leader election, and
one that also works on the file:// default, where tooz has no election).
A dead leader's lock expires (Redis) or is released by the kernel
(file), and another conductor takes over at its next tick. Correctness
does not depend on it: events are claimed in the database, so two
leaders for a moment cost only a lost claim, never an event run twice.
"""

from __future__ import annotations

import threading

import tooz
from oslo_log import log as logging
from tooz import coordination

LOG = logging.getLogger(__name__)

LOCK_NAME = b"tacker-ng-reservation-leader"


class Leader:
    """Whether this conductor leads; re-checked at every tick."""

    def __init__(self, backend_url: str, member_id: str) -> None:
        self._url = backend_url
        self._member = member_id.encode()
        self._coordinator = None
        self._lock = None
        self._leading = False
        self._mutex = threading.Lock()

    def _connect(self) -> None:
        if self._coordinator is None:
            coordinator = coordination.get_coordinator(self._url, self._member)
            coordinator.start(start_heart=True)
            self._coordinator = coordinator
            self._lock = coordinator.get_lock(LOCK_NAME)

    def is_leader(self) -> bool:
        """Keep or try to take the leadership; False on backend errors."""
        with self._mutex:
            try:
                self._connect()
                if self._leading:
                    if self._lock.is_still_owner():
                        return True
                    LOG.warning("Lost the reservation event leadership")
                self._leading = bool(self._lock.acquire(blocking=False))
                if self._leading:
                    LOG.info(
                        "%s leads the reservation event loop",
                        self._member.decode(),
                    )
                return self._leading
            except tooz.ToozError:
                LOG.exception("Coordination backend failed; not leading")
                self._drop()
                return False

    def _drop(self) -> None:
        coordinator, self._coordinator = self._coordinator, None
        self._leading = False
        self._lock = None
        if coordinator is not None:
            try:
                coordinator.stop()
            except tooz.ToozError:
                LOG.debug("Stopping the coordinator failed", exc_info=True)

    def stop(self) -> None:
        """Give the leadership up (clean shutdown)."""
        with self._mutex:
            if self._leading and self._lock is not None:
                try:
                    self._lock.release()
                except tooz.ToozError:
                    LOG.debug("Releasing leadership failed", exc_info=True)
            self._drop()
