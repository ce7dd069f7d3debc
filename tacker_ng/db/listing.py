"""One page of a SOL list resource, filtered and paged in one SQL query."""

import datetime
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import field_maps, filters, paging


def _columns(
    fields: field_maps.FieldMap,
    skipped: frozenset[str],
    created_as_text: bool = False,
) -> list[Any]:
    columns: list[Any] = []
    for column in fields.table.c:
        if column.name in skipped or column.name in fields.unrendered:
            continue
        if column.name == "created_at":
            key = (
                sa.cast(column, sa.String())
                if created_as_text
                else sa.type_coerce(column, sa.DateTime())
            )
            columns.append(key.label("created_at"))
        else:
            columns.append(column)
    return columns


def _skipped(
    fields: field_maps.FieldMap, includes: Callable[[str], bool]
) -> frozenset[str]:
    return frozenset(
        column.name
        for attr, column in fields.documents.items()
        if not includes(attr)
    )


def select_for(
    fields: field_maps.FieldMap, includes: Callable[[str], bool]
) -> sa.Select:
    """A select of the resource's table without what the response leaves
    out: the JSON documents not asked for (``includes`` is
    :meth:`ListQuery.includes`) and the columns no representation shows.
    Reading and decoding rows is most of a page's cost.

    ``created_at`` only makes the next page's marker: it is read as the
    database's plain DATETIME (the marker treats it as UTC), without the
    per-row conversion of every other timestamp.
    """
    return sa.select(*_columns(fields, _skipped(fields, includes)))


def _created_as_text(conn: sa.engine.Connection) -> bool:
    """Whether a page reads ``created_at`` as text: on MariaDB/MySQL,
    whose drivers turn every DATETIME into a ``datetime`` in Python (a
    tenth of a list page's CPU), while only the last row's is needed.
    ``CAST(... AS CHAR)`` is ISO 8601 there whatever the session settings
    (unlike PostgreSQL's DateStyle-dependent text)."""
    return conn.dialect.name == "mysql"


@functools.lru_cache(maxsize=512)
def _page_statement(
    fields: field_maps.FieldMap,
    skipped: frozenset[str],
    scoped: bool,
    paged: bool,
    created_as_text: bool,
) -> sa.Select:
    """The statement of a page, built once per shape: the values (project,
    marker, limit) are bound parameters, so a request neither builds the
    statement nor computes its compiled-cache key again."""
    table = fields.table
    stmt = sa.select(*_columns(fields, skipped, created_as_text))
    if fields.hidden is not None:
        stmt = stmt.where(~fields.hidden)
    if scoped:
        stmt = stmt.where(table.c.project_id == sa.bindparam("page_project"))
    if paged:
        stmt = stmt.where(
            paging.after(
                table,
                (
                    sa.bindparam("page_created_at", type_=sa.DateTime()),
                    sa.bindparam("page_id"),
                ),
            )
        )
    return stmt.order_by(*paging.order_by(table)).limit(
        sa.bindparam("page_limit")
    )


def page(
    conn: sa.engine.Connection,
    fields: field_maps.FieldMap,
    includes: Callable[[str], bool],
    project_id: str | None,
    flt: filters.Filter | None,
    marker: str | None,
    limit: int,
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of a list resource as dicts (see :func:`select_for` for
    which columns), and the marker of the next page (None on the last).
    Only ``project_id``'s rows unless None. One statement is executed."""
    if limit < 1:
        raise ValueError("limit must be positive")
    table = fields.table
    params: dict[str, Any] = {"page_limit": limit + 1}
    if project_id is not None:
        params["page_project"] = project_id
    if marker is not None:
        key = paging.signing_key(conn)
        created_at, row_id = paging.decode_marker(marker, table.name, key)
        params["page_created_at"] = created_at.replace(tzinfo=None)
        params["page_id"] = row_id
    stmt = _page_statement(
        fields,
        _skipped(fields, includes),
        project_id is not None,
        marker is not None,
        _created_as_text(conn),
    )
    if flt is not None:
        stmt = stmt.where(
            filters.compile_filter(flt, fields, conn.dialect.name)
        )
    result = conn.execute(stmt, params)
    keys = tuple(result.keys())
    rows = [dict(zip(keys, row, strict=True)) for row in result.all()]
    return _cut(rows, limit, table.name, conn)


def _cut(
    rows: Sequence[Any], limit: int, resource: str, bind: Any
) -> tuple[Any, str | None]:
    """``rows`` (one more than ``limit`` when a next page exists) cut to
    the page, with the next page's marker."""
    if len(rows) <= limit:
        return rows, None
    created_at, row_id = _key_of(rows[limit - 1])
    return rows[:limit], paging.encode_marker(
        resource, created_at, row_id, paging.signing_key(bind)
    )


def _is_entity_select(stmt: sa.Select) -> bool:
    descriptions = stmt.column_descriptions
    return (
        len(descriptions) == 1
        and descriptions[0].get("entity") is not None
        and descriptions[0].get("expr") is descriptions[0].get("entity")
    )


def _key_of(row: Any) -> tuple[datetime.datetime, str]:
    if isinstance(row, Mapping):
        created_at, row_id = row["created_at"], row["id"]
    else:
        created_at, row_id = row.created_at, row.id
    if isinstance(created_at, str):  # see _created_as_text
        created_at = datetime.datetime.fromisoformat(created_at)
    return created_at, row_id


def list_page(
    session: orm.Session | sa.engine.Connection,
    query: type | sa.Select,
    fields: field_maps.FieldMap,
    flt: filters.Filter | None,
    marker: str | None,
    limit: int,
) -> tuple[Sequence[Any], str | None]:
    """Rows of one page and the marker of the next (None on the last).

    ``flt`` is a filter parsed by :func:`tacker_ng.api.filtering.parse`.
    ``query`` is a model class or a ``select()`` of the field map's table
    (e.g. already scoped to a project); ORM entities come back for model
    selects, dicts (keyed by column name, which must include
    ``created_at`` and ``id``) otherwise. One statement is executed.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    table = fields.table
    stmt = query if isinstance(query, sa.Select) else sa.select(query)
    bind = session.get_bind() if isinstance(session, orm.Session) else session
    if flt is not None:
        stmt = stmt.where(
            filters.compile_filter(flt, fields, bind.dialect.name)
        )
    if marker is not None:
        key = paging.signing_key(bind)
        stmt = stmt.where(
            paging.after(table, paging.decode_marker(marker, table.name, key))
        )
    stmt = stmt.order_by(*paging.order_by(table)).limit(limit + 1)
    result = session.execute(stmt)
    if _is_entity_select(stmt):
        rows: Sequence[Any] = result.scalars().all()
    else:
        # Plain dicts, built once per row: cheaper than RowMapping, and a
        # missing key (a document left out) is a plain dict miss.
        keys = tuple(result.keys())
        rows = [dict(zip(keys, row, strict=True)) for row in result.all()]
    return _cut(rows, limit, table.name, bind)
