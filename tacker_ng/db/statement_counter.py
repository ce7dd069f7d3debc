"""Count what this thread sends to the database, for tests and benchmarks.

Tests must see that a GET sends one SELECT and no BEGIN or ROLLBACK, and
the scale benchmark reports statements per request. With the environment
variable ``TACKER_NG_COUNT_SQL=1`` set, tacker-ng-api counts per request
(in the request's thread) and answers the counts in an
``X-Tacker-Ng-Sql`` header (see :mod:`tacker_ng.api.sql_counter`). Off by
default: no listener is registered then, and nothing is exposed.

What is counted is what reaches the driver: every cursor execution, by
its first keyword (``select``, ``insert``, ``begin``...), and the
transaction control drivers send for us (``begin`` when a transaction
opens on a connection that is not in autocommit: psycopg2 sends BEGIN,
MySQL begins implicitly; ``commit``/``rollback`` calls on a connection
that has a transaction to end).
"""

import collections
import os
import threading
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

ENV = "TACKER_NG_COUNT_SQL"
HEADER = "X-Tacker-Ng-Sql"

_local = threading.local()
_INSTALLED = False


def enabled() -> bool:
    """Whether this process counts (the environment asks for it)."""
    return os.environ.get(ENV) == "1"


def _counts() -> collections.Counter:
    counts = getattr(_local, "counts", None)
    if counts is None:
        counts = _local.counts = collections.Counter()
    return counts


def _autocommit(conn: sa.Connection) -> bool:
    """Whether nothing is sent to end a transaction on ``conn`` (an
    invalidated connection sends nothing either; asking it for its DBAPI
    connection would raise)."""
    if conn.invalidated or conn.closed:
        return True
    dbapi = conn.connection.dbapi_connection
    if dbapi is None:
        return False
    if conn.dialect.name == "sqlite":
        # pysqlite runs in its autocommit mode here; sqlite.py sends BEGIN
        # IMMEDIATE itself (counted as a statement).
        return not dbapi.in_transaction
    return bool(conn.dialect.detect_autocommit_setting(dbapi))


def _on_execute(
    conn: Any,
    cursor: Any,
    statement: str,
    parameters: Any,
    context: Any,
    many: bool,
) -> None:
    word = statement.lstrip().split(None, 1)[0].lower() if statement else ""
    _counts()[word or "other"] += 1


def _on_begin(conn: sa.Connection) -> None:
    if conn.dialect.name != "sqlite" and not _autocommit(conn):
        _counts()["begin"] += 1


def _ending(kind: str) -> Callable[[sa.Connection], None]:
    def count(conn: sa.Connection) -> None:
        if not _autocommit(conn):
            _counts()[kind] += 1

    return count


def install() -> None:
    """Register the counting listeners (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if _INSTALLED:
        return
    event.listen(sa.engine.Engine, "before_cursor_execute", _on_execute)
    event.listen(sa.engine.Engine, "begin", _on_begin)
    event.listen(sa.engine.Engine, "commit", _ending("commit"))
    event.listen(sa.engine.Engine, "rollback", _ending("rollback"))
    _INSTALLED = True


def reset() -> None:
    """Start counting this thread's statements from zero."""
    _counts().clear()


def snapshot() -> dict[str, Any]:
    """This thread's counts since :func:`reset`; ``statements`` is the
    total of statements and transaction control sent."""
    counts = dict(_counts())
    counts["statements"] = sum(counts.values())
    return counts


def header_value(counts: dict[str, Any]) -> str:
    """``statements=2,begin=1,select=1,...`` (sorted, stable)."""
    return ",".join(f"{k}={v}" for k, v in sorted(counts.items()))


def parse_header(value: str) -> dict[str, int]:
    """The counts of an ``X-Tacker-Ng-Sql`` header value."""
    out = {}
    for item in value.split(","):
        name, _, number = item.partition("=")
        if name:
            out[name] = int(number)
    return out
