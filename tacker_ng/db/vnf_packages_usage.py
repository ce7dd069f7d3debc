"""usageState of VNF packages: IN_USE while any VNF instance uses them."""

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models
from tacker_ng.db.types import utcnow

PACKAGES = models.VnfPackage.__table__
INSTANCES = models.VnfInstance.__table__


def mark_in_use(session: orm.Session, package_id: str) -> None:
    session.execute(
        sa.update(PACKAGES)
        .where(PACKAGES.c.id == package_id, PACKAGES.c.usage_state != "IN_USE")
        .values(usage_state="IN_USE", updated_at=utcnow())
    )


def refresh(session: orm.Session, vnfd_id: str) -> None:
    """NOT_IN_USE again once no instance refers to ``vnfd_id``."""
    still_used = sa.exists().where(INSTANCES.c.vnfd_id == vnfd_id)
    session.execute(
        sa.update(PACKAGES)
        .where(PACKAGES.c.vnfd_id == vnfd_id, ~still_used)
        .values(usage_state="NOT_IN_USE", updated_at=utcnow())
    )
