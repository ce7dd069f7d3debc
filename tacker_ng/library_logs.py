"""The libraries' own log lines about a lost connection, said once.

Our components report a lost database, bus or Redis once
(:mod:`tacker_ng.connectivity`); two libraries repeat themselves:

* oslo.messaging's rabbit driver logs an ERROR for every reconnection
  attempt of an AMQP connection (ten in a 20 s RabbitMQ outage, for each
  connection) and one INFO "Reconnected" at the end. :class:`AmqpFilter`
  keeps the first attempt, as a WARNING in our wording, drops the
  repeats (with ``debug`` on, the driver's own DEBUG line still shows
  each attempt) and rewords the INFO line, which it keeps.
* tooz's Redis driver logs a WARNING with a traceback each time it fails
  to renew a lock it holds (every few seconds after an outage outlived
  the lock). :class:`ToozLockFilter` keeps one line per lost lock,
  without the traceback, and drops tooz's ERROR on releasing a lock that
  had already expired (the election logs "Lost the leadership" itself).

:func:`install` adds both to their loggers, once per process.
"""

from __future__ import annotations

import logging
import threading
import time

from tacker_ng import connectivity

AMQP_LOGGER = "oslo.messaging._drivers.impl_rabbit"
TOOZ_LOGGER = "tooz.drivers.redis"

_installed = False
_install_lock = threading.Lock()


def _template(record: logging.LogRecord) -> str:
    return record.msg if isinstance(record.msg, str) else ""


def _rewrite(record: logging.LogRecord, level: int, message: str) -> None:
    """``record`` says ``message`` at ``level``, without a traceback."""
    record.levelno = level
    record.levelname = logging.getLevelName(level)
    record.msg = message
    record.args = ()
    record.exc_info = None
    record.exc_text = None


class AmqpFilter(logging.Filter):
    """One WARNING per lost AMQP connection, one INFO when it is back."""

    def __init__(self) -> None:
        super().__init__()
        #: connection id -> monotonic time it was lost
        self._lost: dict[str, float] = {}
        self._mutex = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not isinstance(args, dict) or "connection_id" not in args:
            return True
        template = _template(record)
        conn = str(args["connection_id"])
        component = f"AMQP connection {conn}"
        if "is unreachable" in template or "closed the connection" in template:
            with self._mutex:
                first = conn not in self._lost
                self._lost.setdefault(conn, time.monotonic())
            if first:
                where = f"{args.get('hostname')}:{args.get('port')}"
                hint = (
                    " (check the login credentials if it does not come back)"
                    if "closed the connection" in template
                    else ""
                )
                _rewrite(
                    record,
                    logging.WARNING,
                    connectivity.lost_message(
                        component,
                        f"{connectivity.MESSAGE_BUS} at {where}",
                        f"{args.get('err_str')}{hint}; reconnecting",
                    ),
                )
            return first
        if "Reconnected to AMQP server" in template:
            with self._mutex:
                since = self._lost.pop(conn, None)
            if since is not None:
                back = connectivity.back_message(
                    component,
                    connectivity.MESSAGE_BUS,
                    time.monotonic() - since,
                )
                _rewrite(record, logging.INFO, f"{back}: {template % args}")
        return True


def _lock_key(lock: object) -> tuple[object, object]:
    """One holding of a tooz Redis lock: its name and redis-py's token,
    which every acquire renews (falls back to the name alone)."""
    inner = getattr(lock, "_lock", None)
    token = getattr(getattr(inner, "local", None), "token", None)
    return (getattr(lock, "name", repr(lock)), token)


def _not_owned(error: object) -> bool:
    return type(error).__name__ == "LockNotOwnedError" or (
        "no longer owned" in str(error)
    )


class ToozLockFilter(logging.Filter):
    """One line per lost lock from tooz's heartbeat, no traceback."""

    def __init__(self) -> None:
        super().__init__()
        self._reported: set[tuple[object, object]] = set()
        self._mutex = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        template = _template(record)
        args = record.args if isinstance(record.args, tuple) else ()
        if template.startswith("Unable to heartbeat lock") and args:
            lock = args[0]
            key = _lock_key(lock)
            with self._mutex:
                first = key not in self._reported
                self._reported.add(key)
            if first:
                error = record.exc_info[1] if record.exc_info else None
                name = key[0]
                if isinstance(name, bytes):
                    name = name.decode(errors="replace")
                _rewrite(
                    record,
                    logging.WARNING,
                    f"coordination: could not renew the lock {name} "
                    f"({connectivity.REDIS} unreachable, or the lock "
                    f"expired meanwhile): "
                    f"{connectivity.reason(error) if error else '?'}",
                )
            return first
        # Releasing a lock that had expired: the election let it go.
        return not (
            template.startswith("Unable to release lock")
            and len(args) > 1
            and _not_owned(args[1])
        )


def install() -> None:
    """Add the filters to the libraries' loggers (once per process)."""
    global _installed  # noqa: PLW0603
    with _install_lock:
        if _installed:
            return
        logging.getLogger(AMQP_LOGGER).addFilter(AmqpFilter())
        logging.getLogger(TOOZ_LOGGER).addFilter(ToozLockFilter())
        _installed = True
