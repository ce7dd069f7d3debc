"""Coordination among conductors (tooz): one leader per periodic duty.

A conductor connects once to ``[coordination] backend_url`` and takes part
in one election per duty (lease events, LCM housekeeping, ...). The leader
is whoever holds a tooz lock named after the duty (the mechanism tooz's
Redis driver itself uses for leader election, and one that also works on
the file:// default, where tooz has no election). A dead leader's lock
expires (Redis) or is released by the kernel (file), and another conductor
takes over at its next tick. Correctness never depends on it: the work
itself is claimed in the database, so two leaders for a moment cost only a
lost claim, never work done twice. A lost backend is logged once when it
is lost and once when it is back (:mod:`tacker_ng.connectivity`).
"""

from __future__ import annotations

import threading
from typing import Any

import tooz
from oslo_log import log as logging
from tooz import coordination

from tacker_ng import connectivity

LOG = logging.getLogger(__name__)


def lock_name(duty: str) -> bytes:
    """The tooz lock that elects the leader of ``duty``."""
    return f"tacker-ng-{duty}-leader".encode()


class Coordinator:
    """This conductor's connection to the coordination backend."""

    def __init__(self, backend_url: str, member_id: str) -> None:
        self._url = backend_url
        self._member = member_id.encode()
        self._coordinator: Any = None
        self._mutex = threading.RLock()
        self._leaders: dict[str, Leader] = {}
        #: Shared by every election: one line per outage, not per duty.
        self.health = connectivity.ConnectionHealth("coordination", LOG)

    @property
    def member_id(self) -> str:
        return self._member.decode()

    def _connected(self) -> Any:
        if self._coordinator is None:
            coordinator = coordination.get_coordinator(self._url, self._member)
            coordinator.start(start_heart=True)
            self._coordinator = coordinator
        return self._coordinator

    def start(self) -> None:
        """Connect now (a backend that is down is retried by every
        election at its next tick)."""
        with self._mutex:
            try:
                self._connected()
            except tooz.ToozError as exc:
                if not self.health.failed(exc):
                    LOG.exception(
                        "Coordination backend %s unreachable; retrying later",
                        self._url,
                    )

    def leader(self, duty: str) -> Leader:
        """The election of ``duty`` (one object per duty and process)."""
        with self._mutex:
            if duty not in self._leaders:
                self._leaders[duty] = Leader(self, duty)
            return self._leaders[duty]

    def _lock(self, duty: str) -> Any:
        with self._mutex:
            return self._connected().get_lock(lock_name(duty))

    def _drop(self) -> None:
        """Forget the connection after a backend error (every election
        starts again at its next tick)."""
        with self._mutex:
            coordinator, self._coordinator = self._coordinator, None
            for leader in self._leaders.values():
                leader.forget()
        if coordinator is not None:
            try:
                coordinator.stop()
            except tooz.ToozError:
                LOG.debug("Stopping the coordinator failed", exc_info=True)

    def stop(self) -> None:
        """Give every leadership up (clean shutdown)."""
        with self._mutex:
            for leader in self._leaders.values():
                leader.release()
        self._drop()


class Leader:
    """Whether this conductor leads one duty; re-checked at every tick."""

    def __init__(self, coordinator: Coordinator, duty: str) -> None:
        self._coordinator = coordinator
        self.duty = duty
        self._lock: Any = None
        self._leading = False
        self._mutex = threading.Lock()

    def is_leader(self) -> bool:
        """Keep or try to take the leadership; False on backend errors."""
        health = self._coordinator.health
        with self._mutex:
            try:
                if self._lock is None:
                    self._lock = self._coordinator._lock(self.duty)
                if self._leading:
                    if self._lock.is_still_owner():
                        health.ok()
                        return True
                    LOG.warning("Lost the leadership of %s", self.duty)
                    self._leading = False
                    self._let_go()
                self._leading = bool(self._lock.acquire(blocking=False))
                health.ok()
                if self._leading:
                    LOG.info(
                        "%s leads %s", self._coordinator.member_id, self.duty
                    )
                return self._leading
            except tooz.ToozError as exc:
                if not health.failed(exc):
                    LOG.exception(
                        "Coordination backend failed; not leading %s",
                        self.duty,
                    )
                self._leading = False
                self._lock = None
        self._coordinator._drop()
        return False

    def _let_go(self) -> None:
        """Release a lock that expired (Redis was away longer than its
        timeout): tooz keeps renewing every lock it acquired until it is
        released, and would log a failed renewal every few seconds for as
        long as another conductor holds it."""
        try:
            self._lock.release()
        except tooz.ToozError:
            LOG.debug("Releasing the lapsed %s lock failed", self.duty)

    def forget(self) -> None:
        self._leading = False
        self._lock = None

    def release(self) -> None:
        if self._leading and self._lock is not None:
            try:
                self._lock.release()
            except tooz.ToozError:
                LOG.debug("Releasing %s failed", self.duty, exc_info=True)
        self.forget()
