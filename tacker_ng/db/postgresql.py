"""PostgreSQL connect failures count as a lost connection, like MySQL's.

oslo.db recognises a PostgreSQL server it cannot connect to only by
libpq's old wording ("could not connect to server"); libpq 12 and later
say "connection to server at ... failed: ...", which oslo.db passes on as
a plain OperationalError. A database restart then failed the operation
(FAILED_TEMP) on PostgreSQL where the same restart on MariaDB is retried
and, past the retries, interrupts the job until the database is back.
This listener, run before oslo.db's translation, marks those failures as
disconnects so that oslo.db raises ``DBConnectionError`` for them too.
"""

import re

import sqlalchemy as sa
from sqlalchemy import event

_INSTALLED = False

#: libpq messages of a server that is down, restarting or unreachable
#: (not of a refused login: a wrong password is no outage).
_UNREACHABLE = re.compile(
    r"connection to server .* failed: (?!FATAL:\s+(?:password|no pg_hba|"
    r"role|database \S+ does not exist))"
    r"|could not connect to server"
    r"|server closed the connection unexpectedly"
    r"|the database system is (?:starting up|shutting down|in recovery)"
)


def _on_handle_error(ctx) -> None:
    if (
        ctx.dialect.name == "postgresql"
        and isinstance(ctx.sqlalchemy_exception, sa.exc.OperationalError)
        and _UNREACHABLE.search(str(ctx.original_exception))
    ):
        ctx.is_disconnect = True


def install() -> None:
    """Register the listener for every engine (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if not _INSTALLED:
        event.listen(
            sa.engine.Engine, "handle_error", _on_handle_error, insert=True
        )
        _INSTALLED = True
