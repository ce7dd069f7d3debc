"""VNF package rows: reads and conditional state changes.

Every onboarding transition is an UPDATE conditioned on the states it may
come from, so concurrent uploads, a lapsed lease and a late conductor can
never both win: the database decides, the loser sees ``False``.
``updated_at`` is set on every change and doubles as the lease of the
process that owns an UPLOADING/PROCESSING package.
"""

import datetime
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.objects.package_states import (
    DELETABLE,
    IN_PROGRESS,
    OnboardingState,
    OperationalState,
    UsageState,
)

PACKAGES = models.VnfPackage.__table__


class VnfPackageNotFound(exceptions.NotFound):
    message = "VNF package {id} does not exist."


class OnboardedVnfPackageNotFound(exceptions.NotFound):
    message = "No onboarded VNF package has vnfdId {vnfd_id}."


class VnfPackageConflict(exceptions.Conflict):
    """The package is not in a state that allows the request."""


def _visible(project_id: str | None):
    if project_id is None:
        return sa.true()
    return PACKAGES.c.project_id == project_id


def insert(session: orm.Session, values: Mapping[str, Any]) -> str:
    """Insert a package row (CREATED unless ``values`` say otherwise)."""
    row = {
        "id": str(uuid.uuid4()),
        "onboarding_state": OnboardingState.CREATED,
        "operational_state": OperationalState.DISABLED,
        "usage_state": UsageState.NOT_IN_USE,
        "created_at": utcnow(),
        "updated_at": utcnow(),
        **values,
    }
    session.execute(sa.insert(PACKAGES).values(**row))
    return row["id"]


def get(
    session: orm.Session,
    package_id: str,
    project_id: str | None = None,
    for_update: bool = False,
) -> Mapping[str, Any]:
    """The row of ``package_id`` visible to ``project_id`` (404 if none)."""
    stmt = sa.select(PACKAGES).where(
        PACKAGES.c.id == package_id, _visible(project_id)
    )
    if for_update:
        stmt = stmt.with_for_update()
    row = session.execute(stmt).mappings().first()
    if row is None:
        raise VnfPackageNotFound(id=package_id)
    return row


def get_onboarded(
    session: orm.Session, vnfd_id: str, project_id: str | None = None
) -> Mapping[str, Any]:
    """The ONBOARDED package with ``vnfd_id`` (404 if none is visible)."""
    row = (
        session.execute(
            sa.select(PACKAGES).where(
                PACKAGES.c.vnfd_id == vnfd_id,
                PACKAGES.c.onboarding_state == OnboardingState.ONBOARDED,
                _visible(project_id),
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise OnboardedVnfPackageNotFound(vnfd_id=vnfd_id)
    return row


def holder_of(session: orm.Session, vnfd_id: str) -> str | None:
    """Id of the package that carries ``vnfd_id``, whatever its state."""
    return session.execute(
        sa.select(PACKAGES.c.id).where(PACKAGES.c.vnfd_id == vnfd_id)
    ).scalar()


def move(
    session: orm.Session,
    package_id: str,
    to: OnboardingState,
    from_states: Iterable[OnboardingState],
    **values: Any,
) -> bool:
    """``onboarding_state`` -> ``to`` if it is one of ``from_states``."""
    result = session.execute(
        sa.update(PACKAGES)
        .where(
            PACKAGES.c.id == package_id,
            PACKAGES.c.onboarding_state.in_([str(s) for s in from_states]),
        )
        .values(onboarding_state=to, updated_at=utcnow(), **values)
    )
    return result.rowcount == 1


def update(
    session: orm.Session,
    package_id: str,
    states: Iterable[OnboardingState],
    **values: Any,
) -> bool:
    """Set ``values`` while the package is in one of ``states``.

    With no values this renews the lease of an in-progress package.
    """
    result = session.execute(
        sa.update(PACKAGES)
        .where(
            PACKAGES.c.id == package_id,
            PACKAGES.c.onboarding_state.in_([str(s) for s in states]),
        )
        .values(updated_at=utcnow(), **values)
    )
    return result.rowcount == 1


def delete(
    session: orm.Session, package_id: str, project_id: str | None = None
) -> bool:
    """Delete the package if it is DISABLED, NOT_IN_USE and not busy."""
    result = session.execute(
        sa.delete(PACKAGES).where(
            PACKAGES.c.id == package_id,
            _visible(project_id),
            PACKAGES.c.operational_state == OperationalState.DISABLED,
            PACKAGES.c.usage_state == UsageState.NOT_IN_USE,
            PACKAGES.c.onboarding_state.in_([str(s) for s in DELETABLE]),
        )
    )
    return result.rowcount == 1


def _stale(cutoff: datetime.datetime):
    return sa.and_(
        PACKAGES.c.onboarding_state.in_([str(s) for s in IN_PROGRESS]),
        sa.or_(
            PACKAGES.c.updated_at.is_(None), PACKAGES.c.updated_at < cutoff
        ),
    )


def any_stale(session: orm.Session, cutoff: datetime.datetime) -> bool:
    """Whether some in-progress package's lease ended before ``cutoff``."""
    return (
        session.execute(
            sa.select(PACKAGES.c.id).where(_stale(cutoff)).limit(1)
        ).first()
        is not None
    )


def stale_ids(
    session: orm.Session,
    cutoff: datetime.datetime,
    package_id: str | None = None,
) -> list[str]:
    """Ids of in-progress packages whose lease ended before ``cutoff``."""
    stmt = sa.select(PACKAGES.c.id).where(_stale(cutoff))
    if package_id is not None:
        stmt = stmt.where(PACKAGES.c.id == package_id)
    return list(session.execute(stmt).scalars())


def fail_stale(
    session: orm.Session,
    package_id: str,
    cutoff: datetime.datetime,
    problem: dict[str, Any],
) -> bool:
    """ERROR with ``problem`` if the package's lease ended before cutoff."""
    result = session.execute(
        sa.update(PACKAGES)
        .where(PACKAGES.c.id == package_id, _stale(cutoff))
        .values(
            onboarding_state=OnboardingState.ERROR,
            operational_state=OperationalState.DISABLED,
            onboarding_failure_details=problem,
            updated_at=utcnow(),
        )
    )
    return result.rowcount == 1
