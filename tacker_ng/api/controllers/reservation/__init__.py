"""``/reservation``: the Blazar-compatible reservation API.

Discoverable like Blazar: ``GET /reservation`` lists the versions (300
Multiple Choices) and ``GET /reservation/v1`` describes v1; the Keystone
catalog entry of service type ``reservation`` points at
``<endpoint>/reservation/v1``, which python-blazarclient uses as is.
"""

import pecan
from oslo_config import cfg

from tacker_ng.api import routing
from tacker_ng.api.controllers.reservation import common, errors, hosts, leases

VERSIONS_RULE = "tacker_ng:reservation:versions:show"

errors.register()


def _version(base: str) -> dict:
    return {
        "id": "v1.0",
        "status": "CURRENT",
        "links": [{"href": f"{base}/reservation/v1", "rel": "self"}],
    }


def _base() -> str:
    return (cfg.CONF.api.public_endpoint or pecan.request.host_url).rstrip("/")


class V1Controller:
    """``/reservation/v1``."""

    def __init__(self) -> None:
        self.leases = leases.LeasesController()
        setattr(self, "os-hosts", hosts.HostsController())

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(VERSIONS_RULE)
        return {"version": _version(_base())}


class ReservationController:
    """``/reservation``: the version list."""

    def __init__(self) -> None:
        self.v1 = V1Controller()

    @routing.resource()
    def index(self, **query) -> dict:
        common.authorize(VERSIONS_RULE)
        common.status(300)
        return {"versions": [_version(_base())]}
