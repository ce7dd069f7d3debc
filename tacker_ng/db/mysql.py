"""MariaDB/MySQL connections always speak utf8mb4.

oslo.db connects with ``charset=utf8`` unless the URL says otherwise,
which PyMySQL and mysqlclient take as utf8mb3: four-byte characters
(emoji, some CJK) in a VNF name then fail the INSERT as a 500, although
the tables are utf8mb4. Every new MySQL connection that would speak
utf8/utf8mb3 (or nothing) speaks utf8mb4, its superset, instead; another
charset named in the URL is left alone.
"""

import sqlalchemy as sa
from sqlalchemy import event

_INSTALLED = False
_THREE_BYTE = (None, "utf8", "utf8mb3")


def _on_do_connect(dialect, conn_rec, cargs, cparams) -> None:
    if dialect.name == "mysql" and cparams.get("charset") in _THREE_BYTE:
        cparams["charset"] = "utf8mb4"


def install() -> None:
    """Register the listener for every engine (idempotent)."""
    global _INSTALLED  # noqa: PLW0603
    if not _INSTALLED:
        event.listen(sa.engine.Engine, "do_connect", _on_do_connect)
        _INSTALLED = True
