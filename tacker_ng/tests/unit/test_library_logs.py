"""oslo.messaging's and tooz's repeated outage lines, said once."""

import inspect
import logging
import re
import sys
import types

import redis.exceptions
import tooz
from oslo_messaging._drivers import impl_rabbit
from tooz.drivers import redis as tooz_redis

from tacker_ng import library_logs

# The driver's own templates (oslo.messaging 18.x).
UNREACHABLE = (
    "[%(connection_id)s] AMQP server on %(hostname)s:%(port)s is "
    "unreachable: %(err_str)s. Trying again in %(sleep_time)d seconds."
)
CLOSED = (
    "[%(connection_id)s] AMQP server %(hostname)s:%(port)s closed the "
    "connection. Check login credentials: %(err_str)s"
)
RECONNECTED = (
    "[%(connection_id)s] Reconnected to AMQP server on "
    "%(hostname)s:%(port)s via [%(transport)s] client with port "
    "%(client_port)s."
)


def _record(logger, level, msg, args, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord(logger, level, __file__, 1, msg, args, exc_info)


def _amqp(msg, conn="c1", level=logging.ERROR) -> logging.LogRecord:
    info = {
        "connection_id": conn,
        "hostname": "10.0.0.5",
        "port": 5672,
        "err_str": OSError("Server unexpectedly closed connection"),
        "sleep_time": 2,
        "transport": "amqp",
        "client_port": 40000,
    }
    return _record(library_logs.AMQP_LOGGER, level, msg, (info,))


def _literals(module) -> str:
    """The module's source with adjacent string literals joined."""
    return re.sub(r"""['"]\s*\n\s*['"]""", "", inspect.getsource(module))


def test_the_templates_are_still_the_libraries_own():
    """An upgrade that rewords them must fail here, not in production."""
    rabbit = _literals(impl_rabbit)
    for template in (UNREACHABLE, CLOSED, RECONNECTED):
        assert template in rabbit, template
    tooz_src = _literals(tooz_redis)
    assert "Unable to heartbeat lock '%s'" in tooz_src
    assert "Unable to release lock '%r': %s" in tooz_src


def test_amqp_one_warning_per_connection_then_one_info():
    amqp = library_logs.AmqpFilter()
    first = _amqp(UNREACHABLE)
    assert amqp.filter(first)
    assert first.levelname == "WARNING"
    assert first.getMessage() == (
        "AMQP connection c1: lost connection to message bus at "
        "10.0.0.5:5672: Server unexpectedly closed connection; reconnecting"
    )
    # Every further attempt of that connection is dropped...
    assert not amqp.filter(_amqp(UNREACHABLE))
    assert not amqp.filter(_amqp(CLOSED))
    # ...but another connection has its own line.
    other = _amqp(CLOSED, conn="c2")
    assert amqp.filter(other)
    assert "check the login credentials" in other.getMessage()

    back = _amqp(RECONNECTED, level=logging.INFO)
    assert amqp.filter(back)
    assert back.levelname == "INFO"
    assert back.getMessage().startswith(
        "AMQP connection c1: connection to message bus is back after 0 s: "
        "[c1] Reconnected to AMQP server on 10.0.0.5:5672"
    )
    # The next outage of c1 is told again.
    assert amqp.filter(_amqp(UNREACHABLE))


def test_amqp_other_lines_pass_unchanged():
    amqp = library_logs.AmqpFilter()
    never_lost = _amqp(RECONNECTED, conn="c9", level=logging.INFO)
    assert amqp.filter(never_lost)
    assert never_lost.getMessage().startswith("[c9] Reconnected")
    plain = _record(
        library_logs.AMQP_LOGGER, logging.ERROR, "Failed: %s", ("x",)
    )
    assert amqp.filter(plain)
    assert plain.levelname == "ERROR"


def _lock(token: bytes) -> object:
    lock = types.SimpleNamespace(
        name=b"_tooz_tacker-ng-lcm-leader_lock",
        _lock=types.SimpleNamespace(local=types.SimpleNamespace(token=token)),
    )
    return lock


def _not_owned_exc_info():
    try:
        try:
            raise redis.exceptions.LockNotOwnedError(
                "Cannot reacquire a lock that's no longer owned"
            )
        except redis.exceptions.LockError as exc:
            raise tooz.ToozError(str(exc)) from exc
    except tooz.ToozError:
        return sys.exc_info()


def _heartbeat(lock) -> logging.LogRecord:
    return _record(
        library_logs.TOOZ_LOGGER,
        logging.WARNING,
        "Unable to heartbeat lock '%s'",
        (lock,),
        _not_owned_exc_info(),
    )


def test_tooz_one_line_per_lost_lock_without_traceback():
    tooz_filter = library_logs.ToozLockFilter()
    held = _lock(b"token-1")
    first = _heartbeat(held)
    assert tooz_filter.filter(first)
    assert first.exc_info is None
    assert first.levelname == "WARNING"
    assert first.getMessage() == (
        "coordination: could not renew the lock "
        "_tooz_tacker-ng-lcm-leader_lock (Redis unreachable, or the lock "
        "expired meanwhile): LockNotOwnedError: Cannot reacquire a lock "
        "that's no longer owned"
    )
    assert not tooz_filter.filter(_heartbeat(held))
    # Taken again (a new token) and lost again: told again.
    assert tooz_filter.filter(_heartbeat(_lock(b"token-2")))


def test_tooz_release_of_an_expired_lock_is_dropped():
    tooz_filter = library_logs.ToozLockFilter()
    expired = _record(
        library_logs.TOOZ_LOGGER,
        logging.ERROR,
        "Unable to release lock '%r': %s",
        (
            _lock(b"t"),
            redis.exceptions.LockNotOwnedError(
                "Cannot release a lock that's no longer owned"
            ),
        ),
    )
    assert not tooz_filter.filter(expired)
    other = _record(
        library_logs.TOOZ_LOGGER,
        logging.ERROR,
        "Unable to release lock '%r': %s",
        (_lock(b"t"), redis.exceptions.LockError("Cannot release")),
    )
    assert tooz_filter.filter(other)


def test_install_adds_each_filter_once():
    library_logs.install()
    library_logs.install()
    for name, kind in (
        (library_logs.AMQP_LOGGER, library_logs.AmqpFilter),
        (library_logs.TOOZ_LOGGER, library_logs.ToozLockFilter),
    ):
        filters = logging.getLogger(name).filters
        assert sum(isinstance(f, kind) for f in filters) == 1
