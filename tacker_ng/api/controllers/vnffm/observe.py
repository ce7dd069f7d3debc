"""``POST /v1/vnf_instances/{id}/observe`` (admin): observe now.

The API never talks to a VIM: it records the request and answers 202; a
conductor's observer claims it within seconds and observes the
instance's VIMs (drift then leads to a heal or an alarm as usual).
"""

import pecan

from tacker_ng import exceptions, policies
from tacker_ng.api import routing
from tacker_ng.api.controllers.vnffm import observed
from tacker_ng.api.controllers.vnflcm import common
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm

POLICY = "tacker_ng:convergence:observe"


class ObserveController:
    def __init__(self, instance_id: str) -> None:
        self.instance_id = instance_id

    @routing.resource(get=False)
    def index(self) -> None:
        """Only POST is served."""

    @index.when(method="POST", template="json")
    def post(self):
        ctx = pecan.request.context
        policies.authorize(ctx, POLICY)
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                row = vnf_lcm.get_instance(session, self.instance_id)
                if row["instantiation_state"] != "INSTANTIATED":
                    raise exceptions.Conflict(
                        f"VNF instance {self.instance_id} is "
                        f"{row['instantiation_state']}: nothing to observe."
                    )
                observed_db.request_observation(session, self.instance_id)
        return common.empty(202)


class InstanceRoot:
    """``/v1/vnf_instances/{id}``: its ``observe`` action and its
    ``observed`` state."""

    def __init__(self, instance_id: str) -> None:
        self.observe = ObserveController(instance_id)
        self.observed = observed.ObservedController(instance_id)


class VnfInstancesAdmin:
    """``/v1/vnf_instances``: a path to the per-instance admin actions."""

    @pecan.expose()
    def _lookup(self, instance_id, *remainder):
        return InstanceRoot(instance_id), remainder
