"""Lost connections to the shared services, logged once per component.

A conductor's background work (its heartbeat and periodic jobs, the
notification delivery, the jobboard and coordination loops) meets a
database, message bus or Redis outage again at every tick. Logging each
failure with its traceback buried a 20 s database outage under 3,992
lines with 52 tracebacks in one idle conductor, and read like a bug. A
:class:`ConnectionHealth` per component logs one WARNING when the
component loses a service and one INFO when its work succeeds again;
the failures in between are DEBUG. Only a lost connection is taken
(:func:`service_of`): any other error is the caller's to log, with its
traceback, as the internal error it is.
"""

from __future__ import annotations

import logging as std_logging
import threading
import time
from collections.abc import Callable, Iterator

import amqp.exceptions
import kombu.exceptions
import oslo_messaging as messaging
import redis.exceptions
import sqlalchemy.exc
import tooz.coordination
from oslo_db import exception as db_exc
from oslo_log import log as logging

LOG = logging.getLogger(__name__)

DATABASE = "database"
MESSAGE_BUS = "message bus"
REDIS = "Redis"
#: tooz's backend: Redis in a fleet, a file or etcd elsewhere.
COORDINATION = "coordination backend"

#: Exception types that mean "the connection to this service is gone".
LOST: tuple[tuple[str, tuple[type[BaseException], ...]], ...] = (
    (
        DATABASE,
        (db_exc.DBConnectionError, sqlalchemy.exc.DisconnectionError),
    ),
    (COORDINATION, (tooz.coordination.ToozConnectionError,)),
    (
        REDIS,
        (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError),
    ),
    (
        MESSAGE_BUS,
        (
            messaging.MessageDeliveryFailure,
            kombu.exceptions.OperationalError,
            amqp.exceptions.RecoverableConnectionError,
        ),
    ),
)

#: Longest reason quoted in a log line (a driver's message can be long).
MAX_REASON = 200
#: Links of a cause chain followed before giving up (chains can loop).
MAX_CHAIN = 12
#: Where oslo.db, SQLAlchemy and taskflow keep the error they wrap.
_WRAPPED = ("inner_exception", "orig", "cause")


def chain(exc: BaseException | None) -> Iterator[BaseException]:
    """``exc`` and what caused it: ``__cause__``/``__context__`` and the
    wrapped errors oslo.db (``inner_exception``), SQLAlchemy (``orig``)
    and taskflow (``cause``) keep beside them."""
    seen: set[int] = set()
    todo = [exc]
    while todo and len(seen) < MAX_CHAIN:
        link = todo.pop(0)
        if link is None or id(link) in seen:
            continue
        seen.add(id(link))
        yield link
        for attr in ("__cause__", *_WRAPPED):
            nxt = getattr(link, attr, None)
            if isinstance(nxt, BaseException):
                todo.append(nxt)
        todo.append(link.__context__)


def service_of(exc: BaseException | None) -> str | None:
    """The service whose lost connection ``exc`` is (``"database"``,
    ``"message bus"``, ``"Redis"``, ``"coordination backend"``), or None:
    not a lost connection. The outermost link that names one wins."""
    for link in chain(exc):
        for service, types in LOST:
            if isinstance(link, types):
                return service
        if (
            isinstance(link, sqlalchemy.exc.DBAPIError)
            and link.connection_invalidated
        ):
            return DATABASE
    return None


def root_cause(exc: BaseException) -> BaseException:
    """The end of ``exc``'s chain, following the wrapped error first
    (what the driver said), then ``__cause__``, then ``__context__``."""
    root = exc
    for _ in range(MAX_CHAIN):
        for attr in (*_WRAPPED, "__cause__", "__context__"):
            link = getattr(root, attr, None)
            if isinstance(link, BaseException) and link is not root:
                root = link
                break
        else:
            break
    return root


def reason(exc: BaseException) -> str:
    """The root cause of ``exc`` in one short line, e.g.
    ``OperationalError: (2013, 'Lost connection to MySQL server ...')``:
    the wrappers' own words are in the error summary oslo.log appends."""
    root = root_cause(exc)
    text = str(root).strip().splitlines()
    line = f"{type(root).__name__}: {text[0]}" if text else type(root).__name__
    if len(line) > MAX_REASON:
        line = line[: MAX_REASON - 3] + "..."
    return line


def lost_message(component: str, service: str, why: str) -> str:
    """The one WARNING line of a component that lost a service."""
    return f"{component}: lost connection to {service}: {why}"


def back_message(component: str, service: str, seconds: float) -> str:
    """The one INFO line of a component whose service works again."""
    return (
        f"{component}: connection to {service} is back after {seconds:.0f} s"
    )


class ConnectionHealth:
    """Whether one component (``"periodic job heartbeat"``,
    ``"jobboard"``, ...) can reach the services it needs.

    The component calls :meth:`failed` with every error of its work and
    :meth:`ok` after every success; both are cheap while nothing changes.
    Thread-safe: loops of one component may share it.
    """

    def __init__(
        self,
        component: str,
        log: std_logging.Logger | std_logging.LoggerAdapter | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.component = component
        self._log = log or LOG
        self._clock = clock
        self._mutex = threading.Lock()
        #: service -> monotonic time it was lost
        self._down: dict[str, float] = {}

    @property
    def down(self) -> tuple[str, ...]:
        """The services this component cannot reach now."""
        with self._mutex:
            return tuple(self._down)

    def failed(self, exc: BaseException) -> bool:
        """Take ``exc`` if it is a lost connection (one WARNING the first
        time per service, DEBUG after) and return True; return False for
        any other error, which the caller logs as an internal one."""
        service = service_of(exc)
        if service is None:
            return False
        with self._mutex:
            first = service not in self._down
            if first:
                self._down[service] = self._clock()
        if first:
            self._log.warning(
                lost_message(self.component, service, reason(exc))
            )
        else:
            self._log.debug(
                "%s: %s still unreachable: %s",
                self.component,
                service,
                reason(exc),
            )
        return True

    def ok(self) -> None:
        """The component's work succeeded: every service it had lost is
        back (one INFO each)."""
        if not self._down:  # the common case, without the lock
            return
        now = self._clock()
        with self._mutex:
            down, self._down = self._down, {}
        for service, since in down.items():
            self._log.info(back_message(self.component, service, now - since))

    def forget(self) -> None:
        """Stop tracking without a verdict: the component stopped running
        here (e.g. another conductor leads its duty now), so it will not
        tell when the service is back."""
        with self._mutex:
            down, self._down = self._down, {}
        if down:
            self._log.debug(
                "%s: no longer run here; %s not known to be back",
                self.component,
                ", ".join(down),
            )
