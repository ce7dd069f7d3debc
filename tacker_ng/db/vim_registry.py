"""The VIM registry as operators see it (``/v1.0/vims``): registered
VIMs with a name, an owner project, a default flag and a status.

Rows that a VNF provides (:mod:`tacker_ng.db.vims`) are listed too but
change only through that VNF's operations. One default VIM per project
is kept by the unique ``default_project`` column: setting a default
clears the project's previous one in the same transaction, and two
concurrent settings cannot both commit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from oslo_db import exception as db_exc
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models_vims
from tacker_ng.db.types import utcnow

VIMS = models_vims.RegisteredVim.__table__
STATUSES = ("PENDING", "REACHABLE", "UNREACHABLE")


class VimNotFound(exceptions.NotFound):
    message = "VIM {vim_id} could not be found."


class VimProvided(exceptions.Conflict):
    message = (
        "VIM {vim_id} is provided by VNF instance {provider}; it changes "
        "and goes away with that VNF's operations only."
    )


class VimNameTaken(exceptions.Conflict):
    message = "A VIM named {name} is already registered in this project."


class DefaultChanged(exceptions.Conflict):
    message = (
        "Another default VIM was set in this project at the same time; "
        "retry the request."
    )


def _visible(project_id: str | None):
    return sa.true() if project_id is None else VIMS.c.project_id == project_id


def _row(session: orm.Session, vim_id: str, project_id: str | None) -> Any:
    row = session.execute(
        sa.select(VIMS).where(VIMS.c.vim_id == vim_id, _visible(project_id))
    ).first()
    if row is None:
        raise VimNotFound(vim_id=vim_id)
    return row


def get(
    session: orm.Session, vim_id: str, project_id: str | None
) -> dict[str, Any]:
    """The row of ``vim_id`` seen from ``project_id`` (None: admin)."""
    return dict(_row(session, vim_id, project_id)._mapping)


def list_visible(
    session: orm.Session,
    project_id: str | None,
    name: str | None = None,
) -> list[dict[str, Any]]:
    """Rows visible to ``project_id`` (None: all), oldest first."""
    query = sa.select(VIMS).where(_visible(project_id))
    if name is not None:
        query = query.where(VIMS.c.name == name)
    query = query.order_by(VIMS.c.created_at, VIMS.c.vim_id)
    return [dict(r._mapping) for r in session.execute(query)]


def _write(session: orm.Session, name: str | None, statement) -> None:
    """Run an INSERT/UPDATE; the unique (project, name) decides clashes."""
    try:
        session.execute(statement)
    except db_exc.DBDuplicateEntry:
        raise VimNameTaken(name=name) from None


def _make_default(session, vim_id: str, project_id: str) -> None:
    session.execute(
        sa.update(VIMS)
        .where(VIMS.c.default_project == project_id, VIMS.c.vim_id != vim_id)
        .values(default_project=None, updated_at=utcnow())
    )
    try:
        session.execute(
            sa.update(VIMS)
            .where(VIMS.c.vim_id == vim_id)
            .values(default_project=project_id, updated_at=utcnow())
        )
    except db_exc.DBDuplicateEntry:
        raise DefaultChanged() from None


def create(
    session: orm.Session,
    vim_id: str,
    sealed_vim: Mapping[str, Any],
    project_id: str,
    name: str,
    description: str,
    is_default: bool,
) -> None:
    """Register a VIM (status PENDING until a conductor looks)."""
    _write(
        session,
        name,
        sa.insert(VIMS).values(
            vim_id=vim_id,
            vim_type=sealed_vim["vimType"],
            vim_connection_info=dict(sealed_vim),
            name=name,
            description=description,
            project_id=project_id,
            status="PENDING",
            created_at=utcnow(),
        ),
    )
    if is_default:
        _make_default(session, vim_id, project_id)


def update(
    session: orm.Session,
    vim_id: str,
    project_id: str | None,
    values: Mapping[str, Any],
    is_default: bool | None,
) -> None:
    """Change an operator-registered VIM (409 for a provided one)."""
    row = _row(session, vim_id, project_id)
    if row.provider_vnf_instance_id:
        raise VimProvided(vim_id=vim_id, provider=row.provider_vnf_instance_id)
    changes = dict(values)
    if "vim_connection_info" in changes:
        # New credentials are unproven until a conductor tries them.
        changes.update(status="PENDING", status_detail=None)
    if changes:
        _write(
            session,
            changes.get("name"),
            sa.update(VIMS)
            .where(VIMS.c.vim_id == vim_id)
            .values(**changes, updated_at=utcnow()),
        )
    if is_default is True:
        _make_default(session, vim_id, row.project_id)
    elif is_default is False:
        session.execute(
            sa.update(VIMS)
            .where(VIMS.c.vim_id == vim_id)
            .values(default_project=None, updated_at=utcnow())
        )


def delete(session: orm.Session, vim_id: str, project_id: str | None) -> None:
    """Remove an operator-registered VIM (409 for a provided one)."""
    row = _row(session, vim_id, project_id)
    if row.provider_vnf_instance_id:
        raise VimProvided(vim_id=vim_id, provider=row.provider_vnf_instance_id)
    session.execute(sa.delete(VIMS).where(VIMS.c.vim_id == vim_id))


def discard(session: orm.Session, vim_id: str) -> None:
    """Remove ``vim_id`` whoever registered it (the sandbox replaces its
    VIM at each start)."""
    session.execute(sa.delete(VIMS).where(VIMS.c.vim_id == vim_id))


def default_for(session: orm.Session, project_id: str) -> dict | None:
    """The project's default VIM row, or None."""
    row = session.execute(
        sa.select(VIMS).where(VIMS.c.default_project == project_id)
    ).first()
    return dict(row._mapping) if row else None


def for_status(session: orm.Session) -> list[dict[str, Any]]:
    """Every VIM a conductor should look at: (vim_id, sealed VCI)."""
    rows = session.execute(
        sa.select(VIMS.c.vim_id, VIMS.c.vim_connection_info).order_by(
            VIMS.c.vim_id
        )
    )
    return [dict(r._mapping) for r in rows]


def set_status(
    session: orm.Session, vim_id: str, status: str, detail: str | None
) -> bool:
    """Record what a conductor observed; True when the status or its
    reason changed (no-op if the VIM went away)."""
    changed = session.execute(
        sa.update(VIMS)
        .where(
            VIMS.c.vim_id == vim_id,
            sa.or_(
                VIMS.c.status != status,
                VIMS.c.status_detail.is_distinct_from(detail),
            ),
        )
        .values(status=status, status_detail=detail, status_at=utcnow())
    )
    if changed.rowcount:
        return True
    session.execute(
        sa.update(VIMS)
        .where(VIMS.c.vim_id == vim_id)
        .values(status_at=utcnow())
    )
    return False
