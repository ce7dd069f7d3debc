"""``GET /v1/conductors``: the conductor fleet and who is alive."""

import datetime

import pecan
from oslo_config import cfg

from tacker_ng import policies
from tacker_ng.api import routing
from tacker_ng.db import conductors as conductors_db
from tacker_ng.db.types import utcnow

POLICY = "tacker_ng:conductors:list"


class ConductorsController:
    """List conductors with their heartbeat and liveness."""

    @routing.resource()
    def index(self) -> dict:
        context = pecan.request.context
        policies.authorize(context, POLICY)
        timeout = cfg.CONF.conductor.heartbeat_timeout
        alive_after = utcnow() - datetime.timedelta(seconds=timeout)
        fleet = conductors_db.list_all(context, alive_after)
        if cfg.CONF.sandbox.enabled:
            # tacker-ng-all: this process's conductor runs on the sandbox.
            fleet = [{**c, "sandbox": True} for c in fleet]
        return {"conductors": fleet}
