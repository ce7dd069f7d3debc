"""Grant requests and the grants the NFVO answered, kept for retry."""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db.types import utcnow

GRANTS = models.Grant.__table__


def save(
    session: orm.Session,
    op_occ_id: str,
    instance_id: str,
    grant_request: dict[str, Any],
    grant: dict[str, Any],
) -> str:
    grant_id = grant.get("id") or str(uuid.uuid4())
    session.execute(
        sa.insert(GRANTS).values(
            id=grant_id,
            vnf_instance_id=instance_id,
            vnf_lcm_op_occ_id=op_occ_id,
            grant_request=grant_request,
            grant=grant,
            created_at=utcnow(),
        )
    )
    return grant_id


def for_op_occ(
    session: orm.Session, op_occ_id: str
) -> Mapping[str, Any] | None:
    """The latest grant of an op occ (a retry reuses it)."""
    return (
        session.execute(
            sa.select(GRANTS)
            .where(GRANTS.c.vnf_lcm_op_occ_id == op_occ_id)
            .order_by(GRANTS.c.created_at.desc())
        )
        .mappings()
        .first()
    )


class GrantNotFound(exceptions.NotFound):
    message = "Grant {id} does not exist."


def get(
    session: orm.Session, grant_id: str, project_id: str | None = None
) -> Mapping[str, Any]:
    """A stored grant with its op occ's project (``project_id``: the
    caller's, None for every project); 404 when not visible."""
    occs = models.VnfLcmOpOcc.__table__
    stmt = (
        sa.select(GRANTS, occs.c.project_id)
        .join(occs, occs.c.id == GRANTS.c.vnf_lcm_op_occ_id)
        .where(GRANTS.c.id == grant_id)
    )
    if project_id is not None:
        stmt = stmt.where(occs.c.project_id == project_id)
    row = session.execute(stmt).mappings().first()
    if row is None:
        raise GrantNotFound(id=grant_id)
    return row
