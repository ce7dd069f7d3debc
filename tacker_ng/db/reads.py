"""Reads without a transaction: the path of the API's GETs.

Through the enginefacade a GET is a transaction: the driver opens one
with the first SELECT (psycopg2 sends ``BEGIN``, MySQL begins
implicitly), the reader ends it with ``ROLLBACK``: two or three round
trips for one query, the rollback alone about a sixth of a list request.
A GET reads committed rows with one statement and needs no transaction,
so it runs on a second engine per database whose connections are

* in autocommit (``isolation_level="AUTOCOMMIT"``, set once per new
  connection): no BEGIN, and ``skip_autocommit_rollback`` plus
  ``pool_reset_on_return=None`` mean no ROLLBACK when the block ends or
  the connection goes back to the pool;
* read-only for the session (``SET SESSION ... READ ONLY`` once per new
  connection): a write sent here by mistake fails instead of committing
  outside any transaction, and InnoDB skips its read-write bookkeeping;
* not pinged at checkout (as every engine here, see
  :mod:`tacker_ng.db.pool`). A pooled connection the server dropped is
  found by the statement that uses it: oslo.db raises
  ``DBConnectionError``, SQLAlchemy invalidates the pool, and
  :func:`run` runs the read once more on a new connection, which a
  read without side effects allows.

Everything else (errors translated by oslo.db, the fork guard, pool sizes,
recycle time, SQL mode) is the writer engine's. Writes are untouched.

SQLite (the embedded default) keeps the enginefacade's reader: an
in-memory database is private to its engine, and pysqlite's transactions
are local calls, not round trips. Inside an open reader or writer block a
read joins that transaction instead (it must see its uncommitted rows).
"""

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import engines
from sqlalchemy import event

from tacker_ng.db import api as db_api

R = TypeVar("R")

#: Attribute of a writer engine holding its read engine.
_ATTR = "_tacker_ng_read_engine"
_lock = threading.Lock()

_READ_ONLY = {
    "mysql": "SET SESSION TRANSACTION READ ONLY",
    "postgresql": "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
}


def _target(url: sa.URL, **engine_args: Any) -> tuple[sa.Engine, sa.Engine]:
    """oslo.db's engine arguments, less the ping, in autocommit."""
    engine_args["pool_pre_ping"] = False
    engine = sa.create_engine(
        url,
        isolation_level="AUTOCOMMIT",
        skip_autocommit_rollback=True,
        pool_reset_on_return=None,
        **engine_args,
    )
    statement = _READ_ONLY.get(engine.dialect.name)
    if statement:

        @event.listens_for(engine, "connect")
        def _read_only(dbapi_connection: Any, record: Any) -> None:
            cursor = dbapi_connection.cursor()
            try:
                cursor.execute(statement)
            finally:
                cursor.close()

    # tacker_ng.db.pool tunes engines on their first use; this one needs
    # none of it (its rollbacks are skipped, it has no checkin yield).
    engine.pool._tacker_tuned = True  # type: ignore[attr-defined]
    return engine, engine


def _build(writer: sa.Engine) -> sa.Engine:
    """The read engine of ``writer``'s database.

    Its pool keeps every connection it opened, up to the writer's limit
    (``max_pool_size + max_overflow``) instead of closing those beyond
    ``max_pool_size`` when they come back: an API worker's 8 threads
    reading at once would otherwise connect (TLS context, session set-up)
    and disconnect three connections over and over. It holds no more
    connections than reads ever ran at once.
    """
    pool = writer.pool
    sizes: dict[str, Any] = {}
    if isinstance(pool, sa.pool.QueuePool):
        overflow = pool._max_overflow
        sizes = {
            "max_pool_size": pool.size() + max(overflow, 0),
            "max_overflow": 0 if overflow >= 0 else overflow,
            "pool_timeout": pool._timeout,
        }
    return engines.create_engine(
        writer.url.render_as_string(hide_password=False),
        mysql_sql_mode=_sql_mode(),
        connection_recycle_time=pool._recycle,
        thread_checkin=False,
        max_retries=0,
        logging_name="tacker_ng.reads",
        _engine_target=_target,
        **sizes,
    )


def _sql_mode() -> str | None:
    from oslo_config import cfg

    try:
        return cfg.CONF.database.mysql_sql_mode
    except cfg.NoSuchOptError:  # pragma: no cover - oslo.db registers it
        return "TRADITIONAL"


def engine_for(writer: sa.Engine) -> sa.Engine | None:
    """The read engine beside ``writer``; None on SQLite."""
    if writer.dialect.name == "sqlite":
        return None
    engine = getattr(writer, _ATTR, None)
    if engine is None:
        with _lock:
            engine = getattr(writer, _ATTR, None)
            if engine is None:
                engine = _build(writer)
                setattr(writer, _ATTR, engine)
    return engine


@contextlib.contextmanager
def connection(context: object | None = None) -> Iterator[sa.Connection]:
    """A connection for one or more reads, outside any transaction.

    Prefer :func:`run`, which also recovers from a dropped connection.
    """
    engine = None
    if not db_api.in_transaction():
        engine = engine_for(db_api.get_engine())
    if engine is None:
        with db_api.read_connection(context) as conn:
            yield conn
        return
    with engine.connect() as conn:
        yield conn


def run(fn: Callable[[sa.Connection], R], context: object | None = None) -> R:
    """``fn(connection)`` on the read path; once more on a new connection
    when the first one turns out to be lost (a server restart, a killed
    session, ``wait_timeout``)."""
    try:
        with connection(context) as conn:
            return fn(conn)
    except db_exc.DBConnectionError:
        if db_api.in_transaction():
            raise
        with connection(context) as conn:
            return fn(conn)


def dispose() -> None:
    """Drop the read engine's pooled connections (after fork, in tests)."""
    writer = db_api.get_engine()
    engine = getattr(writer, _ATTR, None)
    if engine is not None:
        engine.dispose()
