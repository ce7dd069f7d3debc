"""Task resources of a VNF instance: instantiate, scale, heal, ...

Each is ``POST /vnf_instances/{id}/<task>``: validate the body, start the
op occ, answer 202 with its Location and an empty body.
"""

import pecan

from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import common, lcm_start
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.objects import lcm

P = "tacker_ng:vnflcm"


class _Task:
    """``POST`` only: one LCM operation on the parent instance."""

    def __init__(
        self,
        instance_id: str,
        operation: lcm.Operation,
        schema: dict,
        rule: str,
    ) -> None:
        self.instance_id = instance_id
        self.operation = operation
        self.schema = schema
        self.rule = rule

    @routing.resource(get=False)
    def index(self) -> None:
        """Only POST is served."""

    @index.when(method="POST", template="json")
    def post(self) -> str:
        common.authorized_instance(self.instance_id, f"{P}:{self.rule}")
        body = validation.parse_json(pecan.request, self.schema)
        if self.operation == lcm.Operation.SCALE:
            body.setdefault("numberOfSteps", 1)
        location = lcm_start.start(self.instance_id, self.operation, body)
        return common.accepted(location)


_TASKS = {
    "instantiate": (
        lcm.Operation.INSTANTIATE,
        schemas.INSTANTIATE_VNF_REQUEST,
    ),
    "scale": (lcm.Operation.SCALE, schemas.SCALE_VNF_REQUEST),
    "scale_to_level": (
        lcm.Operation.SCALE_TO_LEVEL,
        schemas.SCALE_VNF_TO_LEVEL_REQUEST,
    ),
    "change_flavour": (
        lcm.Operation.CHANGE_FLAVOUR,
        schemas.CHANGE_VNF_FLAVOUR_REQUEST,
    ),
    "terminate": (lcm.Operation.TERMINATE, schemas.TERMINATE_VNF_REQUEST),
    "heal": (lcm.Operation.HEAL, schemas.HEAL_VNF_REQUEST),
    "change_ext_conn": (
        lcm.Operation.CHANGE_EXT_CONN,
        schemas.CHANGE_EXT_VNF_CONNECTIVITY_REQUEST,
    ),
    "change_vnfpkg": (
        lcm.Operation.CHANGE_VNFPKG,
        schemas.CHANGE_CURRENT_VNF_PKG_REQUEST,
    ),
    "operate": (lcm.Operation.OPERATE, schemas.OPERATE_VNF_REQUEST),
    "create_snapshot": (
        lcm.Operation.CREATE_SNAPSHOT,
        schemas.CREATE_VNF_SNAPSHOT_REQUEST,
    ),
    "revert_to_snapshot": (
        lcm.Operation.REVERT_TO_SNAPSHOT,
        schemas.REVERT_TO_VNF_SNAPSHOT_REQUEST,
    ),
}


class TaskResources:
    """Mixin giving an instance controller its task sub-resources."""

    def __init__(self, instance_id: str) -> None:
        self.instance_id = instance_id
        for name, (operation, schema) in _TASKS.items():
            setattr(self, name, _Task(instance_id, operation, schema, name))
