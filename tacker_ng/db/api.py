"""Database access: the enginefacade shared by every query module.

Query modules (``tacker_ng.db.<resource>``) open transactions with
``reader(context)``/``writer(context)``; the caller's context object
carries the session so nested calls join one transaction.

A write transaction can lose a deadlock (InnoDB gap locks, PostgreSQL
lock cycles) or its connection; the database then rolled it back, so the
whole transaction is run again. Every outermost writer goes through
:func:`retry_on_deadlock` (a function that is one transaction) or
:func:`retrying` (an inline ``with`` block). Inside an open transaction
neither retries: only the outermost one can, after the rollback.
"""

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

import sqlalchemy as sa
import tenacity
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import enginefacade
from oslo_log import log as logging
from sqlalchemy import orm

from tacker_ng.db import mysql, pool, postgresql, sqlite

LOG = logging.getLogger(__name__)

sqlite.install()
mysql.install()
postgresql.install()
pool.install()

#: Process-wide transaction factory, configured from ``[database]``.
context_manager = enginefacade.transaction_context()

#: Attempts of one transaction before the error reaches the caller.
MAX_ATTEMPTS = 10
#: Back-off between attempts: random in [0, 2**n * BASE], at most CAP.
RETRY_BASE_SECONDS = 0.02
RETRY_CAP_SECONDS = 1.0

#: Errors after which the database rolled back the whole transaction.
RETRIABLE = (db_exc.DBDeadlock, db_exc.DBConnectionError)

_local = threading.local()

P = ParamSpec("P")
R = TypeVar("R")


class _AnonymousContext:
    """Session holder for callers without a request context."""


def in_transaction() -> bool:
    """True while this thread is inside a reader or writer block."""
    return getattr(_local, "depth", 0) > 0


@contextlib.contextmanager
def _tracked() -> Iterator[None]:
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        yield
    finally:
        _local.depth -= 1


@contextlib.contextmanager
def reader(context: object | None = None) -> Iterator[orm.Session]:
    """A read-only transaction bound to ``context``."""
    with (
        _tracked(),
        context_manager.reader.using(context or _AnonymousContext()) as s,
    ):
        yield s


@contextlib.contextmanager
def read_connection(
    context: object | None = None,
) -> Iterator[sa.engine.Connection]:
    """A read-only transaction on a plain Core connection: for the hot
    read paths (list pages), which need no ORM session."""
    with (
        _tracked(),
        context_manager.reader.connection.using(
            context or _AnonymousContext()
        ) as conn,
    ):
        yield conn


@contextlib.contextmanager
def write_connection(
    context: object | None = None,
) -> Iterator[sa.engine.Connection]:
    """A read-write transaction on a plain Core connection, for hot write
    paths whose queries are all Core statements. Nested inside a
    :func:`writer`, it joins that transaction."""
    with (
        _tracked(),
        context_manager.writer.connection.using(
            context or _AnonymousContext()
        ) as conn,
    ):
        yield conn


@contextlib.contextmanager
def writer(context: object | None = None) -> Iterator[orm.Session]:
    """A read-write transaction bound to ``context``.

    An outermost writer must run under :func:`retrying` or
    :func:`retry_on_deadlock` (a unit test checks every call site).
    """
    with (
        _tracked(),
        context_manager.writer.using(context or _AnonymousContext()) as s,
    ):
        yield s


def _log_retry(state: tenacity.RetryCallState) -> None:
    """A deadlock retry is a WARNING. A lost connection is DEBUG: during
    an outage every transaction of every loop retries ten times, and the
    component whose work it stops says so once (tacker_ng.connectivity)."""
    exc = state.outcome.exception() if state.outcome else None
    lost = isinstance(exc, db_exc.DBConnectionError)
    log = LOG.debug if lost else LOG.warning
    log(
        "Database transaction rolled back (%s), attempt %d of %d; "
        "running it again",
        type(exc).__name__,
        state.attempt_number,
        MAX_ATTEMPTS,
    )


def retrying() -> tenacity.Retrying:
    """Attempts of one write transaction, for an inline ``with`` block::

        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                ...

    Inside an open transaction it makes a single attempt.
    """
    if in_transaction():
        return tenacity.Retrying(
            stop=tenacity.stop_after_attempt(1), reraise=True
        )
    return tenacity.Retrying(
        retry=tenacity.retry_if_exception_type(RETRIABLE),
        stop=tenacity.stop_after_attempt(MAX_ATTEMPTS),
        wait=tenacity.wait_random_exponential(
            multiplier=RETRY_BASE_SECONDS, max=RETRY_CAP_SECONDS
        ),
        before_sleep=_log_retry,
        reraise=True,
    )


def retry_on_deadlock(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` (one write transaction) again after a deadlock or a
    lost connection; see :func:`retrying`."""

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in retrying():
            with attempt:
                return fn(*args, **kwargs)
        raise AssertionError("unreachable: tenacity re-raises")

    return call


def get_engine():
    """The writer engine (for migrations and health checks)."""
    return context_manager.writer.get_engine()


def dispose() -> None:
    """Drop pooled connections, e.g. after fork() in API workers."""
    context_manager.dispose_pool()
