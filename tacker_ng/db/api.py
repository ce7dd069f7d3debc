"""Database access: the enginefacade shared by every query module.

Query modules (``tacker_ng.db.<resource>``) open transactions with
``reader(context)``/``writer(context)``; the caller's context object
carries the session so nested calls join one transaction.
"""

import contextlib
from collections.abc import Iterator

from oslo_db.sqlalchemy import enginefacade
from sqlalchemy import orm

from tacker_ng.db import sqlite

sqlite.install()

#: Process-wide transaction factory, configured from ``[database]``.
context_manager = enginefacade.transaction_context()


class _AnonymousContext:
    """Session holder for callers without a request context."""


@contextlib.contextmanager
def reader(context: object | None = None) -> Iterator[orm.Session]:
    """A read-only transaction bound to ``context``."""
    with context_manager.reader.using(context or _AnonymousContext()) as s:
        yield s


@contextlib.contextmanager
def writer(context: object | None = None) -> Iterator[orm.Session]:
    """A read-write transaction bound to ``context``."""
    with context_manager.writer.using(context or _AnonymousContext()) as s:
        yield s


def get_engine():
    """The writer engine (for migrations and health checks)."""
    return context_manager.writer.get_engine()


def dispose() -> None:
    """Drop pooled connections, e.g. after fork() in API workers."""
    context_manager.dispose_pool()
