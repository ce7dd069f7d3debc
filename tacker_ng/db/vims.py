"""Registered VIMs: write, read and withdraw rows of the VIM registry.

A row belongs to the VNF instance that provides the VIM: only that
instance's operations may update or remove it, which a conditional
UPDATE/DELETE decides in SQL (never a read-then-write check).
"""

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from oslo_db import exception as db_exc
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models_vims
from tacker_ng.db.types import utcnow

VIMS = models_vims.RegisteredVim.__table__


class VimIdTaken(exceptions.Conflict):
    message = (
        "vimId {vim_id} is already registered by another VNF instance; "
        "a VNF can only register or update the VIMs it provides."
    )


def register(
    session: orm.Session,
    vim_id: str,
    sealed_vim: Mapping[str, Any],
    provider_id: str,
    project_id: str | None = None,
) -> None:
    """Insert or update ``vim_id`` (``sealed_vim`` has its secrets sealed)
    as provided by VNF instance ``provider_id`` of ``project_id``; 409 if
    another owns it."""
    values = {
        "vim_type": sealed_vim["vimType"],
        "vim_connection_info": dict(sealed_vim),
        "project_id": project_id,
    }
    updated = session.execute(
        sa.update(VIMS)
        .where(
            VIMS.c.vim_id == vim_id,
            VIMS.c.provider_vnf_instance_id == provider_id,
        )
        .values(**values, updated_at=utcnow())
    )
    if updated.rowcount:
        return
    try:
        session.execute(
            sa.insert(VIMS).values(
                vim_id=vim_id,
                provider_vnf_instance_id=provider_id,
                created_at=utcnow(),
                **values,
            )
        )
    except db_exc.DBDuplicateEntry:
        raise VimIdTaken(vim_id=vim_id) from None


def get(
    session: orm.Session, vim_id: str, project_id: str | None = None
) -> dict[str, Any] | None:
    """The registered VimConnectionInfo (secrets sealed), or None; with
    ``project_id`` only a VIM of that project (or of none: VIMs provided
    before VIMs had owners)."""
    query = sa.select(VIMS.c.vim_connection_info).where(
        VIMS.c.vim_id == vim_id
    )
    if project_id is not None:
        query = query.where(
            sa.or_(
                VIMS.c.project_id == project_id, VIMS.c.project_id.is_(None)
            )
        )
    row = session.execute(query).first()
    return dict(row.vim_connection_info) if row else None


def provided_by(session: orm.Session, provider_id: str) -> list[str]:
    """vimIds the VNF instance ``provider_id`` provides."""
    return list(
        session.execute(
            sa.select(VIMS.c.vim_id)
            .where(VIMS.c.provider_vnf_instance_id == provider_id)
            .order_by(VIMS.c.vim_id)
        ).scalars()
    )


def withdraw(
    session: orm.Session, provider_id: str, vim_ids: list[str] | None = None
) -> None:
    """Remove the VIMs ``provider_id`` provides (all, or ``vim_ids``)."""
    where = [VIMS.c.provider_vnf_instance_id == provider_id]
    if vim_ids is not None:
        where.append(VIMS.c.vim_id.in_(vim_ids))
    session.execute(sa.delete(VIMS).where(*where))
