"""``/v1``: tacker-ng's own (non-SOL) operator API."""

from tacker_ng.api.controllers.admin import conductors, ping
from tacker_ng.api.controllers.vnffm import observe


class V1Controller:
    conductors = conductors.ConductorsController()
    ping = ping.PingController()
    vnf_instances = observe.VnfInstancesAdmin()
