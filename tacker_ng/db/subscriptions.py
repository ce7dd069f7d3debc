"""LCM notification subscriptions (LccnSubscription rows)."""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.db.types import utcnow

SUBSCRIPTIONS = models.LccnSubscription.__table__


class SubscriptionNotFound(exceptions.NotFound):
    message = "Subscription {id} does not exist."


def _visible(project_id: str | None):
    if project_id is None:
        return sa.true()
    return SUBSCRIPTIONS.c.project_id == project_id


def insert(session: orm.Session, values: dict[str, Any]) -> str:
    values = {"id": str(uuid.uuid4()), "created_at": utcnow(), **values}
    session.execute(sa.insert(SUBSCRIPTIONS).values(**values))
    return values["id"]


def get(
    session: orm.Session, subscription_id: str, project_id: str | None
) -> Mapping[str, Any]:
    row = (
        session.execute(
            sa.select(SUBSCRIPTIONS).where(
                SUBSCRIPTIONS.c.id == subscription_id, _visible(project_id)
            )
        )
        .mappings()
        .first()
    )
    if row is None:
        raise SubscriptionNotFound(id=subscription_id)
    return row


def find_duplicate(
    session: orm.Session, fingerprint: str, project_id: str | None
) -> Mapping[str, Any] | None:
    return (
        session.execute(
            sa.select(SUBSCRIPTIONS)
            .where(
                SUBSCRIPTIONS.c.fingerprint == fingerprint,
                _visible(project_id),
            )
            .order_by(SUBSCRIPTIONS.c.created_at)
        )
        .mappings()
        .first()
    )


def delete(
    session: orm.Session, subscription_id: str, project_id: str | None
) -> None:
    done = session.execute(
        sa.delete(SUBSCRIPTIONS).where(
            SUBSCRIPTIONS.c.id == subscription_id, _visible(project_id)
        )
    ).rowcount
    if not done:
        raise SubscriptionNotFound(id=subscription_id)


#: Subscriptions that hear about a project's resources (its own and the
#: admins' project-less ones); built once, the project bound per call.
_OF_PROJECT = sa.select(
    SUBSCRIPTIONS.c.id, SUBSCRIPTIONS.c.filter, SUBSCRIPTIONS.c.verbosity
).where(
    sa.or_(
        SUBSCRIPTIONS.c.project_id == sa.bindparam("project_id"),
        SUBSCRIPTIONS.c.project_id.is_(None),
    )
)
_ALL = sa.select(
    SUBSCRIPTIONS.c.id, SUBSCRIPTIONS.c.filter, SUBSCRIPTIONS.c.verbosity
)


def for_project(
    session: orm.Session | sa.engine.Connection, project_id: str | None
) -> list[Mapping[str, Any]]:
    """Subscriptions that may hear about a resource of ``project_id``:
    their ``id``, ``filter`` and ``verbosity``."""
    if project_id is None:
        return list(session.execute(_ALL).mappings())
    return list(
        session.execute(_OF_PROJECT, {"project_id": project_id}).mappings()
    )
