"""The read path (tacker_ng.db.reads) on the real servers.

A read sends its statement and nothing else: no BEGIN, COMMIT or
ROLLBACK (counted by MariaDB on the session itself, by PostgreSQL per
database); a connection the server killed is replaced and the read runs
again; a write sent down the read path fails (the session is read-only).
"""

import contextlib
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import enginefacade

from tacker_ng.db import api as db_api
from tacker_ng.db import reads
from tacker_ng.tests.functional import services

READS = 20


@contextlib.contextmanager
def _facade(backend: str) -> Iterator[str]:
    """The process-wide enginefacade on a scratch database with a pool of
    one connection (its read engine inherits the size)."""
    with services.scratch_database(backend) as url:
        factory = enginefacade._TransactionFactory()
        factory.configure(connection=url, max_pool_size=1, max_overflow=0)
        restore = db_api.context_manager.patch_factory(factory)
        try:
            with db_api.get_engine().begin() as conn:
                conn.exec_driver_sql("CREATE TABLE probe (n INTEGER)")
            yield url
        finally:
            reads.dispose()
            restore()
            factory.dispose_pool()


def _backend_id(conn: sa.Connection) -> int:
    if conn.dialect.name == "mysql":
        return conn.exec_driver_sql("SELECT CONNECTION_ID()").scalar_one()
    return conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()


def _kill(backend: str, ident: int) -> None:
    admin_url = (
        services.MYSQL_ADMIN_URL
        if backend == "mariadb"
        else services.PG_ADMIN_URL
    )
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if backend == "mariadb":
                conn.exec_driver_sql(f"KILL {int(ident)}")
            else:
                conn.exec_driver_sql(
                    f"SELECT pg_terminate_backend({int(ident)})"
                )
    finally:
        admin.dispose()


def test_mariadb_read_sends_no_transaction_control():
    with _facade("mariadb"):
        before = reads.run(
            lambda c: dict(
                c.exec_driver_sql("SHOW SESSION STATUS LIKE 'Com\\_%%'").all()
            )
        )
        ident = reads.run(_backend_id)
        for _ in range(READS):
            reads.run(lambda c: c.exec_driver_sql("SELECT 1").scalar_one())
        after = reads.run(
            lambda c: dict(
                c.exec_driver_sql("SHOW SESSION STATUS LIKE 'Com\\_%%'").all()
            )
        )
        assert reads.run(_backend_id) == ident  # one pooled session
    for name in ("Com_begin", "Com_commit", "Com_rollback"):
        assert int(after[name]) - int(before[name]) == 0, name
    # The SELECTs, the CONNECTION_ID() and the status query are SELECTs
    # or SHOWs; nothing else was sent.
    assert int(after["Com_select"]) - int(before["Com_select"]) == READS + 1


def _pg_transactions(url: str) -> tuple[int, int]:
    """(commits, rollbacks) PostgreSQL counted for the database of
    ``url``; flushed by the server within about a second."""
    name = sa.make_url(url).database
    admin = sa.create_engine(
        services.PG_ADMIN_URL, isolation_level="AUTOCOMMIT"
    )
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql("SELECT pg_stat_clear_snapshot()")
            row = conn.execute(
                sa.text(
                    "SELECT xact_commit, xact_rollback FROM pg_stat_database"
                    " WHERE datname = :name"
                ),
                {"name": name},
            ).one()
    finally:
        admin.dispose()
    return int(row[0]), int(row[1])


def _settled(url: str) -> tuple[int, int]:
    """The counts once the ended sessions' have all arrived (unchanged
    for a second; at most 15 s)."""
    deadline = time.monotonic() + 15
    last = _pg_transactions(url)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = _pg_transactions(url)
        if now == last:
            return now
        last = now
    return last


def test_postgresql_read_sends_no_begin_or_rollback():
    with _facade("postgresql") as url:
        # The engine's first connection runs SQLAlchemy's dialect set-up
        # in a transaction (once per process). A session's counts reach
        # pg_stat_database at the latest when it ends: end every session
        # before each count.
        reads.run(lambda c: c.exec_driver_sql("SELECT 1").scalar_one())
        reads.dispose()
        db_api.dispose()
        commits, rollbacks = _settled(url)
        for _ in range(READS):
            reads.run(lambda c: c.exec_driver_sql("SELECT 1").scalar_one())
            status = reads.run(
                lambda c: c.connection.dbapi_connection.info.transaction_status
            )
            assert status == 0  # TRANSACTION_STATUS_IDLE: nothing open
        reads.dispose()
        deadline = time.monotonic() + 15
        while True:  # the ended session's counts arrive shortly after
            commits_after, rollbacks_after = _pg_transactions(url)
            if commits_after - commits >= READS or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    # Every autocommit statement is its own (committed) transaction; a
    # BEGIN ... ROLLBACK read would count as a rollback.
    assert commits_after - commits >= READS
    assert rollbacks_after - rollbacks == 0


@pytest.mark.parametrize("backend", ["mariadb", "postgresql"])
def test_killed_connection_is_replaced_on_the_read_path(backend):
    with _facade(backend):
        first = reads.run(_backend_id)
        _kill(backend, first)
        time.sleep(0.2)
        # The pooled connection is dead; the read finds out, and runs
        # again on a new one instead of failing.
        second = reads.run(_backend_id)
        assert second != first
        assert reads.run(_backend_id) == second


@pytest.mark.parametrize("backend", ["mariadb", "postgresql"])
def test_the_read_path_refuses_writes(backend):
    with _facade(backend):
        with pytest.raises((db_exc.DBError, sa.exc.OperationalError)):
            reads.run(
                lambda c: c.exec_driver_sql("INSERT INTO probe VALUES (1)")
            )
        with db_api.read_connection() as conn:
            assert (
                conn.exec_driver_sql("SELECT COUNT(*) FROM probe").scalar()
                == 0
            )
