"""Grant requests and the grants the NFVO answered, kept for retry."""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

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
