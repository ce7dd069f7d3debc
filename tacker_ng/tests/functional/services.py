"""Real services for functional tests: reachability and throw-away DBs.

A functional test that needs a service it cannot reach fails with a
message naming the service; it never skips. Start the services with
``tools/test-setup.sh``.
"""

import contextlib
import os
import socket
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

MYSQL_ADMIN_URL = os.environ.get(
    "TACKER_NG_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/"
)
PG_ADMIN_URL = os.environ.get(
    "TACKER_NG_TEST_PG_URL", "postgresql+psycopg2://postgres@127.0.0.1:5432/"
)
RABBIT_URL = os.environ.get(
    "TACKER_NG_TEST_RABBIT_URL", "rabbit://guest:guest@127.0.0.1:5672/"
)

SERVICES = {
    "mariadb": ("127.0.0.1", 3306),
    "postgresql": ("127.0.0.1", 5432),
    "rabbitmq": ("127.0.0.1", 5672),
    "redis": ("127.0.0.1", 6379),
}


def require(name: str) -> None:
    """Fail (not skip) the test when ``name`` does not answer."""
    host, port = SERVICES[name]
    try:
        socket.create_connection((host, port), timeout=3).close()
    except OSError as exc:
        pytest.fail(
            f"{name} is required at {host}:{port} but is not reachable "
            f"({exc}); start it with tools/test-setup.sh",
            pytrace=False,
        )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def scratch_database(backend: str) -> Iterator[str]:
    """Create ``tacker_ng_test_<random>`` on a backend, drop it after."""
    require(backend)
    name = f"tacker_ng_test_{uuid.uuid4().hex[:12]}"
    admin_url = MYSQL_ADMIN_URL if backend == "mariadb" else PG_ADMIN_URL
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if backend == "mariadb":
                conn.exec_driver_sql(
                    f"CREATE DATABASE {name} CHARACTER SET utf8mb4"
                )
            else:
                conn.exec_driver_sql(f"CREATE DATABASE {name}")
        url = sa.make_url(admin_url).set(database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            if backend == "postgresql":
                conn.exec_driver_sql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                )
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        engine.dispose()
