"""Connection pool settings oslo.db does not expose, for a lean checkout.

* No ping per checkout. oslo.db creates every engine with
  ``pool_pre_ping``: one more round trip to the database before each
  transaction, on the hot paths of the API too. A connection the server
  dropped (a restart, ``wait_timeout``) is found when it is used instead:
  oslo.db raises ``DBConnectionError`` and SQLAlchemy invalidates the
  whole pool, write transactions run again (:func:`tacker_ng.db.api.
  retrying`) and an API read answers 503 once. ``[database]
  connection_recycle_time`` keeps pooled connections younger than the
  server's ``wait_timeout``.
* One rollback at most per transaction. The enginefacade ends every
  transaction itself (a reader rolls back, a writer commits), then the
  pool rolled back again on return: one more round trip per request. A
  connection whose last act since checkout was a successful commit or
  rollback of SQLAlchemy's (nothing began since) holds no transaction, so
  the pool's rollback of it is skipped; any other return still rolls
  back.
* No ``time.sleep(0)`` per checkin: oslo.db's yield for eventlet
  greenthreads; the API and conductor run real threads.

Also: native JSON columns on PostgreSQL are serialized with
oslo.serialization's ``jsonutils.dumps``. taskflow's persistence hands
PostgreSQL its documents unserialized (on other databases it dumps them
with jsonutils itself), and a failed atom's document holds the exception's
arguments, e.g. a kubernetes ``ApiException``: plain ``json.dumps`` refused
it and the failure could not be recorded.
"""

from typing import Any

import sqlalchemy as sa
from oslo_db.sqlalchemy import engines
from oslo_serialization import jsonutils
from sqlalchemy import event

_INSTALLED = False

#: ``connection_record.info`` key: no transaction open on the connection.
CLEAN = "tacker_ng.no_transaction"


def _mark_clean(method):
    def ended(dbapi_connection: Any) -> None:
        method(dbapi_connection)
        dbapi_connection.info[CLEAN] = True

    return ended


def _rollback_unless_clean(method):
    def rollback(dbapi_connection: Any) -> None:
        info = dbapi_connection.info
        if info.get(CLEAN):
            return
        method(dbapi_connection)
        info[CLEAN] = True

    return rollback


def _began(method):
    def begin(dbapi_connection: Any) -> None:
        dbapi_connection.info.pop(CLEAN, None)
        method(dbapi_connection)

    return begin


def _checkout(dbapi_connection, connection_record, proxy) -> None:
    # Whatever happened before the pool had it, nothing is known now.
    connection_record.info.pop(CLEAN, None)


def _tune_dialect(dialect: sa.engine.Dialect) -> None:
    dialect.do_begin = _began(dialect.do_begin)  # type: ignore[method-assign]
    dialect.do_commit = _mark_clean(dialect.do_commit)  # type: ignore[method-assign]
    dialect.do_rollback = _rollback_unless_clean(dialect.do_rollback)  # type: ignore[method-assign]
    if dialect.name == "postgresql":
        dialect._json_serializer = jsonutils.dumps  # type: ignore[attr-defined]
    dialect._tacker_tuned = True  # type: ignore[attr-defined]


def _tune(conn: sa.engine.Connection) -> None:
    pool = conn.engine.pool
    if getattr(pool, "_tacker_tuned", False):
        return
    pool._pre_ping = False
    if event.contains(pool, "checkin", engines._thread_yield):
        event.remove(pool, "checkin", engines._thread_yield)
    event.listen(pool, "checkout", _checkout)
    dialect = conn.dialect
    if not getattr(dialect, "_tacker_tuned", False):
        _tune_dialect(dialect)
    pool._tacker_tuned = True  # type: ignore[attr-defined]


def install() -> None:
    """Register the listener for every engine (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if not _INSTALLED:
        event.listen(sa.engine.Engine, "engine_connect", _tune)
        _INSTALLED = True
