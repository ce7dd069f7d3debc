"""``/reservation/v1/os-hosts``: the freepool, as Blazar's host API.

Registering and removing a host touch Nova, so they are RPC calls to a
conductor; listing, showing and extra capabilities are database work.
"""

import pecan

from tacker_ng import exceptions
from tacker_ng.api import routing
from tacker_ng.api.controllers.reservation import common
from tacker_ng.reservation import hosts, rpcapi, views

RULE = "tacker_ng:reservation:hosts:"


def _filters(query: dict) -> dict:
    """lease_id / reservation_id filters of the allocation views."""
    params = pecan.request.GET
    return {
        key: params.get(key) or query.get(key) or None
        for key in ("lease_id", "reservation_id")
    }


class HostAllocationController:
    """``/os-hosts/{host_id}/allocation``."""

    def __init__(self, host_id: str) -> None:
        self.host_id = host_id

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(RULE + "allocations")
        found = hosts.allocations(
            common.context(),
            host_id=self.host_id,
            **_filters(query),
        )
        host_id, items = next(iter(found.items()))
        return {"allocation": views.allocation(host_id, items)}


class HostAllocationsController:
    """``/os-hosts/allocations``."""

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(RULE + "allocations")
        found = hosts.allocations(
            common.context(),
            **_filters(query),
        )
        return {
            "allocations": [
                views.allocation(h, items) for h, items in found.items()
            ]
        }


class HostController:
    """``/os-hosts/{host_id}``: show, update, delete."""

    def __init__(self, host_id: str) -> None:
        self.host_id = host_id
        self.allocation = HostAllocationController(host_id)

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(RULE + "get")
        return {
            "host": views.host(hosts.get_host(common.context(), self.host_id))
        }

    @index.when(method="PUT", template="json")
    def index_put(self, **query) -> dict:
        common.authorize(RULE + "update")
        body = common.body()
        record = hosts.update_host(common.context(), self.host_id, body)
        return {"host": views.host(record)}

    @index.when(method="DELETE", template="json")
    def index_delete(self, **query):
        common.authorize(RULE + "delete")
        hosts.get_host(common.context(), self.host_id)
        rpcapi.get_api().delete_host(common.context(), self.host_id)
        return common.no_content()


class HostsController:
    """``/os-hosts``: list and register."""

    def __init__(self) -> None:
        self.allocations = HostAllocationsController()

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(RULE + "list")
        records = hosts.list_hosts(common.context())
        return {"hosts": [views.host(r) for r in records]}

    @index.when(method="POST", template="json")
    def index_post(self, **query) -> dict:
        common.authorize(RULE + "create")
        body = common.body()
        name = body.pop("name", None)
        if not isinstance(name, str) or not name:
            raise exceptions.BadRequest(
                "'name' (a Nova hypervisor) is required."
            )
        host = rpcapi.get_api().register_host(common.context(), name, body)
        common.status(201)
        return {"host": host}

    @pecan.expose()
    def _lookup(self, host_id: str, *remainder):
        return HostController(host_id), remainder
