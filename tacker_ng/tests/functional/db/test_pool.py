"""Round trips per transaction on the real servers (tacker_ng.db.pool).

A reader transaction costs one ROLLBACK and a writer one COMMIT: the
pool no longer rolls back again a connection whose transaction the
enginefacade already ended. A connection handed back in any other state
is still rolled back by the pool.
"""

import contextlib
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from oslo_db.sqlalchemy import enginefacade

from tacker_ng.db import api as db_api
from tacker_ng.tests.functional import services

TRANSACTIONS = 5


@contextlib.contextmanager
def _one_connection_pool(backend: str) -> Iterator[sa.Engine]:
    """The process-wide enginefacade on a scratch database, with a pool
    of exactly one connection (so every transaction reuses it)."""
    with services.scratch_database(backend) as url:
        factory = enginefacade._TransactionFactory()
        factory.configure(connection=url, max_pool_size=1, max_overflow=0)
        restore = db_api.context_manager.patch_factory(factory)
        try:
            engine = db_api.get_engine()
            with engine.begin() as conn:
                conn.exec_driver_sql("CREATE TABLE probe (n INTEGER)")
            yield engine
        finally:
            restore()
            factory.dispose_pool()


def _session_status(name: str) -> tuple[int, int]:
    """(connection id, counter) read in a reader transaction."""
    with db_api.reader() as session:
        conn = session.connection()
        ident = conn.exec_driver_sql("SELECT CONNECTION_ID()").scalar_one()
        row = conn.exec_driver_sql(f"SHOW SESSION STATUS LIKE '{name}'").one()
    return ident, int(row[1])


def test_a_reader_transaction_rolls_back_once():
    with _one_connection_pool("mariadb"):
        ident, before = _session_status("Com_rollback")
        for _ in range(TRANSACTIONS):
            with db_api.read_connection() as conn:
                conn.exec_driver_sql("SELECT 1").scalar_one()
        same, after = _session_status("Com_rollback")
    assert same == ident
    # The first status read's own rollback, then one per transaction.
    assert after - before == TRANSACTIONS + 1


def test_a_writer_transaction_commits_and_never_rolls_back():
    with _one_connection_pool("mariadb"):
        ident, rollbacks = _session_status("Com_rollback")
        _, commits = _session_status("Com_commit")
        _, rollbacks_after_read = _session_status("Com_rollback")
        for i in range(TRANSACTIONS):
            for attempt in db_api.retrying():
                with attempt, db_api.write_connection() as conn:
                    conn.exec_driver_sql(f"INSERT INTO probe VALUES ({i})")
        same, commits_after = _session_status("Com_commit")
        _, rollbacks_after = _session_status("Com_rollback")
    assert same == ident
    assert rollbacks_after_read - rollbacks == 2
    assert commits_after - commits == TRANSACTIONS
    # Only the two status reads in between rolled back.
    assert rollbacks_after - rollbacks_after_read == 2


@pytest.mark.parametrize("backend", ["mariadb", "postgresql"])
def test_a_connection_returned_in_a_transaction_is_rolled_back(backend):
    with _one_connection_pool(backend) as engine:
        # The pooled connection's last act is a commit...
        for attempt in db_api.retrying():
            with attempt, db_api.write_connection() as conn:
                conn.exec_driver_sql("INSERT INTO probe VALUES (1)")
        # ...then a plain DBAPI user leaves a transaction open.
        raw = engine.raw_connection()
        try:
            raw.cursor().execute("INSERT INTO probe VALUES (2)")
        finally:
            raw.close()
        with db_api.read_connection() as conn:
            values = conn.exec_driver_sql("SELECT n FROM probe").scalars()
            assert sorted(values) == [1]
