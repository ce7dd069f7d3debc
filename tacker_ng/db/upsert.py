"""One-statement INSERT-or-UPDATE on MariaDB/MySQL, PostgreSQL and SQLite.

An UPDATE followed by an INSERT when nothing matched takes gap locks on
InnoDB that deadlock two concurrent callers; one native upsert does not
race (and a rare deadlock left is retried by the caller's transaction).
"""

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm
from sqlalchemy.dialects import mysql, postgresql, sqlite


def upsert(
    session: orm.Session,
    table: sa.Table,
    values: Mapping[str, Any],
    keys: Sequence[str],
    update: Mapping[str, Any],
) -> None:
    """Insert ``values``; when a row with the same ``keys`` exists,
    apply ``update`` to it instead."""
    dialect = session.get_bind().dialect.name
    if dialect == "mysql":
        stmt = mysql.insert(table).values(**values)
        stmt = stmt.on_duplicate_key_update(**update)
    elif dialect in ("postgresql", "sqlite"):
        module = postgresql if dialect == "postgresql" else sqlite
        stmt = module.insert(table).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=list(keys), set_=dict(update)
        )
    else:  # pragma: no cover - only the three engines are supported
        raise NotImplementedError(f"upsert on {dialect}")
    session.execute(stmt)
