"""Connection pool settings oslo.db does not expose: no ping per checkout.

oslo.db creates every engine with ``pool_pre_ping``: one more round trip
to the database before each transaction, on the hot paths of the API too.
A connection the server dropped (a restart, ``wait_timeout``) is found
when it is used instead: oslo.db raises ``DBConnectionError`` and
SQLAlchemy invalidates the whole pool, write transactions run again
(:func:`tacker_ng.db.api.retrying`) and an API read answers 503 once.
``[database] connection_recycle_time`` keeps pooled connections younger
than the server's ``wait_timeout``.
"""

import sqlalchemy as sa
from sqlalchemy import event

_INSTALLED = False


def _no_pre_ping(conn: sa.engine.Connection) -> None:
    pool = conn.engine.pool
    if getattr(pool, "_pre_ping", False):
        pool._pre_ping = False


def install() -> None:
    """Register the listener for every engine (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if not _INSTALLED:
        event.listen(sa.engine.Engine, "engine_connect", _no_pre_ping)
        _INSTALLED = True
