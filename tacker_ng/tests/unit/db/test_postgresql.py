"""PostgreSQL connect failures are DBConnectionError (retried, then an
interrupted job), a refused login is not."""

import socket
import threading

import pytest
from oslo_db import exception as db_exc
from oslo_db.sqlalchemy import engines

from tacker_ng.db import api as db_api  # noqa: F401 - installs listeners
from tacker_ng.db import postgresql

DOWN = [
    'connection to server at "10.0.0.5", port 5432 failed: Connection '
    "refused\n\tIs the server running on that host and accepting TCP/IP "
    "connections?",
    'connection to server at "127.0.0.1", port 5432 failed: server closed '
    "the connection unexpectedly",
    'connection to server at "db", port 5432 failed: FATAL:  the database '
    "system is starting up",
    'connection to server at "db", port 5432 failed: FATAL:  the database '
    "system is shutting down",
    "could not connect to server: Connection refused",
]
REFUSED_LOGIN = [
    'connection to server at "db", port 5432 failed: FATAL:  password '
    'authentication failed for user "tacker"',
    'connection to server at "db", port 5432 failed: FATAL:  role "x" does '
    "not exist",
    'connection to server at "db", port 5432 failed: FATAL:  database '
    '"tacker" does not exist',
]


@pytest.mark.parametrize("message", DOWN)
def test_unreachable_server_messages(message):
    assert postgresql._UNREACHABLE.search(message)


@pytest.mark.parametrize("message", REFUSED_LOGIN)
def test_refused_logins_are_not_outages(message):
    assert not postgresql._UNREACHABLE.search(message)


def test_a_server_that_hangs_up_is_a_db_connection_error():
    """Through oslo.db's own engine and translation: a listener that
    accepts and closes at once plays the database being restarted."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def hang_up() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=hang_up, daemon=True).start()
    engine = engines.create_engine(
        f"postgresql+psycopg2://tacker@127.0.0.1:{port}/tacker",
        max_retries=0,
    )
    try:
        with pytest.raises(db_exc.DBConnectionError), engine.connect():
            pass
    finally:
        engine.dispose()
        server.close()
