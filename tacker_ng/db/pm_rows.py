"""What PM jobs and thresholds do alike with their own table: insert,
find, get and modify a row within the caller's project (None: an admin,
every project), with the resource's own 404."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.types import utcnow

NotFound = Callable[..., Exception]


def visible(table: sa.Table, project_id: str | None):
    """The rows ``project_id`` may see."""
    if project_id is None:
        return sa.true()
    return table.c.project_id == project_id


def insert(
    session: orm.Session, table: sa.Table, values: Mapping[str, Any]
) -> str:
    """Insert a row (``values`` are its columns, ``id`` included)."""
    session.execute(
        sa.insert(table).values(**{"created_at": utcnow(), **values})
    )
    return values["id"]


def find(
    session: orm.Session, table: sa.Table, row_id: str
) -> Mapping[str, Any] | None:
    """The row whoever owns it, or None."""
    query = sa.select(table).where(table.c.id == row_id)
    return session.execute(query).mappings().first()


def get(
    session: orm.Session,
    table: sa.Table,
    row_id: str,
    project_id: str | None,
    not_found: NotFound,
) -> Mapping[str, Any]:
    """The row (``not_found(id=...)`` when absent or another project's)."""
    query = sa.select(table).where(
        table.c.id == row_id, visible(table, project_id)
    )
    row = session.execute(query).mappings().first()
    if row is None:
        raise not_found(id=row_id)
    return row


def modify(
    session: orm.Session,
    table: sa.Table,
    row_id: str,
    project_id: str | None,
    changes: Mapping[str, Any],
    not_found: NotFound,
) -> None:
    """Apply a merge-patch's column changes to a visible row."""
    done = session.execute(
        sa.update(table)
        .where(table.c.id == row_id, visible(table, project_id))
        .values(**changes, updated_at=utcnow())
    ).rowcount
    if not done:
        raise not_found(id=row_id)
