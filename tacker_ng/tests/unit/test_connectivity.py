"""Which errors are a lost connection, and one line per outage."""

import logging

import oslo_messaging as messaging
import pytest
import redis.exceptions
import sqlalchemy.exc
from oslo_db import exception as db_exc
from taskflow import exceptions as tf_exc
from tooz import coordination as tooz_coord

from tacker_ng import connectivity

LOGGER = "tacker_ng.tests.connectivity"


def _raised(exc: BaseException, cause: BaseException) -> BaseException:
    """``exc`` as ``raise exc from cause`` leaves it."""
    try:
        raise exc from cause
    except BaseException as caught:  # noqa: BLE001 - a test fixture
        return caught


def _db_lost() -> db_exc.DBConnectionError:
    driver = OSError(2013, "Lost connection to MySQL server during query")
    sa_error = sqlalchemy.exc.OperationalError("SELECT 1", {}, driver)
    return _raised(db_exc.DBConnectionError(sa_error), sa_error)


@pytest.mark.parametrize(
    ("exc", "service"),
    [
        (_db_lost(), "database"),
        (
            sqlalchemy.exc.OperationalError(
                "SELECT 1", {}, OSError(), connection_invalidated=True
            ),
            "database",
        ),
        (redis.exceptions.ConnectionError("Connection refused"), "Redis"),
        (redis.exceptions.TimeoutError("timed out"), "Redis"),
        (tooz_coord.ToozConnectionError("gone"), "coordination backend"),
        # taskflow's jobboard wraps what redis-py raised.
        (
            tf_exc.JobFailure(
                "Failed to connect to redis",
                cause=redis.exceptions.ConnectionError("closed"),
            ),
            "Redis",
        ),
        (
            _raised(
                RuntimeError("while looking for jobs"),
                redis.exceptions.ConnectionError("reset"),
            ),
            "Redis",
        ),
        (messaging.MessageDeliveryFailure("no broker"), "message bus"),
        # Not a lost connection: the caller logs a traceback.
        (db_exc.DBDeadlock(), None),
        (db_exc.DBError("syntax error"), None),
        (redis.exceptions.ResponseError("WRONGTYPE"), None),
        (ValueError("a bug"), None),
        (None, None),
    ],
)
def test_service_of(exc, service):
    assert connectivity.service_of(exc) == service


def test_a_cause_chain_that_loops_ends():
    a, b = RuntimeError("a"), RuntimeError("b")
    a.__context__, b.__context__ = b, a
    assert connectivity.service_of(a) is None
    assert connectivity.root_cause(a) in (a, b)


def test_reason_is_what_the_driver_said_in_one_short_line():
    assert connectivity.reason(_db_lost()) == (
        "OSError: [Errno 2013] Lost connection to MySQL server during query"
    )
    long = redis.exceptions.ConnectionError("x" * 500 + "\nsecond line")
    text = connectivity.reason(long)
    assert len(text) == connectivity.MAX_REASON
    assert text.endswith("...") and "second" not in text
    assert connectivity.reason(RuntimeError()) == "RuntimeError"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _health(clock=None):
    return connectivity.ConnectionHealth(
        "periodic job heartbeat",
        logging.getLogger(LOGGER),
        clock=clock or Clock(),
    )


def _lines(caplog) -> list[tuple[str, str]]:
    return [
        (r.levelname, r.getMessage())
        for r in caplog.records
        if r.name == LOGGER and r.levelno >= logging.INFO
    ]


def test_one_warning_when_lost_one_info_when_back(caplog):
    caplog.set_level(logging.DEBUG, LOGGER)
    clock = Clock()
    health = _health(clock)
    health.ok()  # nothing was lost: nothing to say
    for _ in range(5):
        assert health.failed(_db_lost())
        clock.now += 3
    assert health.down == ("database",)
    health.ok()
    health.ok()
    assert _lines(caplog) == [
        (
            "WARNING",
            "periodic job heartbeat: lost connection to database: "
            "OSError: [Errno 2013] Lost connection to MySQL server during "
            "query",
        ),
        (
            "INFO",
            "periodic job heartbeat: connection to database is back "
            "after 15 s",
        ),
    ]
    assert health.down == ()
    # The repeats are there at DEBUG, for whoever needs them.
    assert sum("still unreachable" in r.message for r in caplog.records) == 4


def test_each_outage_is_told_again(caplog):
    caplog.set_level(logging.INFO, LOGGER)
    health = _health()
    for _ in range(2):
        health.failed(redis.exceptions.ConnectionError("refused"))
        health.ok()
    assert [level for level, _ in _lines(caplog)] == [
        "WARNING",
        "INFO",
        "WARNING",
        "INFO",
    ]


def test_two_services_lost_are_two_lines_each(caplog):
    caplog.set_level(logging.INFO, LOGGER)
    health = _health()
    health.failed(_db_lost())
    health.failed(redis.exceptions.ConnectionError("refused"))
    health.failed(_db_lost())
    assert sorted(health.down) == ["Redis", "database"]
    health.ok()
    told = [
        (level, msg.split(": ")[1].rsplit(" after", 1)[0])
        for level, msg in _lines(caplog)
    ]
    assert told == [
        ("WARNING", "lost connection to database"),
        ("WARNING", "lost connection to Redis"),
        ("INFO", "connection to database is back"),
        ("INFO", "connection to Redis is back"),
    ]


def test_other_errors_are_left_to_the_caller(caplog):
    caplog.set_level(logging.DEBUG, LOGGER)
    health = _health()
    assert not health.failed(ValueError("a bug"))
    assert not health.failed(db_exc.DBDeadlock())
    assert health.down == ()
    assert _lines(caplog) == []


def test_forget_says_nothing_more(caplog):
    caplog.set_level(logging.INFO, LOGGER)
    health = _health()
    health.failed(_db_lost())
    health.forget()
    health.ok()
    assert [level for level, _ in _lines(caplog)] == ["WARNING"]
    # A later outage is told again.
    health.failed(_db_lost())
    assert [level for level, _ in _lines(caplog)] == ["WARNING", "WARNING"]
