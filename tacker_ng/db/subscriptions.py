"""Notification subscriptions: LCM (LccnSubscription rows) and VNF package
management (PkgmSubscription rows).

Both kinds share one set of queries (:class:`SubscriptionTable`); the
module-level functions are the LCM ones, :data:`PKGM` the package ones.
Subscription ids are UUIDs, so :func:`find_any` can tell the notification
delivery loop where a subscription of either kind lives.
"""

import uuid
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models, models_convergence, pm_jobs, pm_thresholds
from tacker_ng.db.types import utcnow

SUBSCRIPTIONS = models.LccnSubscription.__table__
PKGM_SUBSCRIPTIONS = models.PkgmSubscription.__table__


class SubscriptionNotFound(exceptions.NotFound):
    message = "Subscription {id} does not exist."


class SubscriptionTable:
    """The queries of one subscriptions table."""

    def __init__(self, table: sa.Table) -> None:
        self.table = table
        t = table
        routing = [t.c.id, t.c.filter]
        if "verbosity" in t.c:
            routing.append(t.c.verbosity)
        # Subscriptions that hear about a project's resources (its own and
        # the admins' project-less ones); built once, project bound per call.
        self._of_project = sa.select(*routing).where(
            sa.or_(
                t.c.project_id == sa.bindparam("project_id"),
                t.c.project_id.is_(None),
            )
        )
        self._all = sa.select(*routing)

    def _visible(self, project_id: str | None):
        if project_id is None:
            return sa.true()
        return self.table.c.project_id == project_id

    def insert(self, session: orm.Session, values: dict[str, Any]) -> str:
        values = {"id": str(uuid.uuid4()), "created_at": utcnow(), **values}
        session.execute(sa.insert(self.table).values(**values))
        return values["id"]

    def find(
        self, session: orm.Session, subscription_id: str
    ) -> Mapping[str, Any] | None:
        return (
            session.execute(
                sa.select(self.table).where(self.table.c.id == subscription_id)
            )
            .mappings()
            .first()
        )

    def get(
        self,
        session: orm.Session | sa.Connection,
        subscription_id: str,
        project_id: str | None,
    ) -> Mapping[str, Any]:
        row = (
            session.execute(
                sa.select(self.table).where(
                    self.table.c.id == subscription_id,
                    self._visible(project_id),
                )
            )
            .mappings()
            .first()
        )
        if row is None:
            raise SubscriptionNotFound(id=subscription_id)
        return row

    def find_duplicate(
        self, session: orm.Session, fingerprint: str, project_id: str | None
    ) -> Mapping[str, Any] | None:
        return (
            session.execute(
                sa.select(self.table)
                .where(
                    self.table.c.fingerprint == fingerprint,
                    self._visible(project_id),
                )
                .order_by(self.table.c.created_at)
            )
            .mappings()
            .first()
        )

    def delete(
        self,
        session: orm.Session,
        subscription_id: str,
        project_id: str | None,
    ) -> None:
        done = session.execute(
            sa.delete(self.table).where(
                self.table.c.id == subscription_id,
                self._visible(project_id),
            )
        ).rowcount
        if not done:
            raise SubscriptionNotFound(id=subscription_id)

    def for_project(
        self,
        session: orm.Session | sa.engine.Connection,
        project_id: str | None,
    ) -> list[Mapping[str, Any]]:
        """Subscriptions that may hear about a resource of ``project_id``:
        their ``id``, ``filter`` (and LCM's ``verbosity``)."""
        if project_id is None:
            return list(session.execute(self._all).mappings())
        return list(
            session.execute(
                self._of_project, {"project_id": project_id}
            ).mappings()
        )


LCM = SubscriptionTable(SUBSCRIPTIONS)
PKGM = SubscriptionTable(PKGM_SUBSCRIPTIONS)
#: SOL003 VNF fault management (FmSubscription rows).
FM = SubscriptionTable(models_convergence.FmSubscription.__table__)

insert = LCM.insert
get = LCM.get
find_duplicate = LCM.find_duplicate
delete = LCM.delete
for_project = LCM.for_project


def find_any(
    session: orm.Session, subscription_id: str
) -> Mapping[str, Any] | None:
    """The subscription row of any kind (for notification delivery); a
    PM job or threshold is its own subscription (SOL003 v3.3.1 clause 6
    has no PM subscriptions: callbackUri and authentication are theirs)."""
    return (
        LCM.find(session, subscription_id)
        or PKGM.find(session, subscription_id)
        or FM.find(session, subscription_id)
        or pm_jobs.find(session, subscription_id)
        or pm_thresholds.find(session, subscription_id)
    )
