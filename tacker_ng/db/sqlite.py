"""SQLite (the embedded default) under concurrent threads.

pysqlite's deferred transactions let two transactions that both read and
then write deadlock, which SQLite reports at once as "database is
locked". Every transaction here starts with ``BEGIN IMMEDIATE`` (taking
the write lock up front, waiting up to ``BUSY_TIMEOUT_MS`` for it), so
concurrent API and conductor threads queue instead of failing. SQLite
allows one writer anyway; MariaDB and PostgreSQL are not affected.
"""

import sqlite3

import sqlalchemy as sa
from sqlalchemy import event

BUSY_TIMEOUT_MS = 30000
_INSTALLED = False


def _on_connect(dbapi_connection, connection_record) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        # Let SQLAlchemy's "begin" event below emit BEGIN itself.
        dbapi_connection.isolation_level = None
        dbapi_connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _on_begin(connection) -> None:
    # oslo.db emits a plain BEGIN unless "in_transaction" is set; this
    # listener runs first (insert=True) and takes the write lock instead.
    if (
        connection.dialect.name == "sqlite"
        and "in_transaction" not in connection.info
    ):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
        connection.info["in_transaction"] = True


def install() -> None:
    """Register the listeners for every engine (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if not _INSTALLED:
        event.listen(sa.engine.Engine, "connect", _on_connect)
        event.listen(sa.engine.Engine, "begin", _on_begin, insert=True)
        _INSTALLED = True
