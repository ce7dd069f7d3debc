"""``/reservation/v1/leases``: Blazar-compatible leases.

Admission runs here, in one database decision (201 or 409); lease start,
end and the Nova side of deletes are lease events run by a conductor.
"""

import datetime

import pecan
from oslo_config import cfg

from tacker_ng import exceptions
from tacker_ng.api import routing
from tacker_ng.api.controllers.reservation import common
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import exceptions as rsv_exceptions
from tacker_ng.reservation import views
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import updates

RULE = "tacker_ng:reservation:leases:"


def _soon(lease: dict) -> bool:
    """Whether the lease's next event is due before the next tick."""
    horizon = utcnow() + datetime.timedelta(
        seconds=cfg.CONF.reservation.event_interval
    )
    return lease["start_date"] <= horizon or lease["status"] != "PENDING"


def _owned(lease_id: str, action: str) -> dict:
    """The lease, if the caller may ``action`` it; 404 if it may not
    even know that it exists."""
    lease = manager.get_lease(common.context(), lease_id)
    try:
        common.authorize(RULE + action, lease["project_id"])
    except exceptions.Forbidden:
        if lease["project_id"] != common.context().project_id:
            raise rsv_exceptions.LeaseNotFound(lease_id=lease_id) from None
        raise
    return lease


class LeaseController:
    """``/leases/{lease_id}``: show, update, delete."""

    def __init__(self, lease_id: str) -> None:
        self.lease_id = lease_id

    @routing.resource()
    def index(self, **query) -> dict:
        return {"lease": views.lease(_owned(self.lease_id, "get"))}

    @index.when(method="PUT", template="json")
    def index_put(self, **query) -> dict:
        body = common.body()
        lease = _owned(self.lease_id, "update")
        lease = updates.update_lease(common.context(), lease, body)
        if set(body) - {"name"} and _soon(lease):
            common.wake_conductors()
        return {"lease": views.lease(lease)}

    @index.when(method="DELETE", template="json")
    def index_delete(self, **query):
        lease = _owned(self.lease_id, "delete")
        if manager.delete_lease(common.context(), lease):
            common.wake_conductors()
        return common.no_content()


class LeasesController:
    """``/leases``: list and create."""

    @routing.resource()
    def index(self, **query) -> dict:
        ctx = common.context()
        common.authorize(RULE + "list")
        everyone = common.allowed(RULE + "list_all_projects")
        leases = manager.list_leases(ctx, None if everyone else ctx.project_id)
        return {"leases": [views.lease(lease) for lease in leases]}

    @index.when(method="POST", template="json")
    def index_post(self, **query) -> dict:
        common.authorize(RULE + "create")
        lease = manager.create_lease(common.context(), common.body())
        if _soon(lease):
            common.wake_conductors()
        common.status(201)
        return {"lease": views.lease(lease)}

    @pecan.expose()
    def _lookup(self, lease_id: str, *remainder):
        return LeaseController(lease_id), remainder
