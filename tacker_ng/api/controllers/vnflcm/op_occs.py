"""``/vnflcm/v2/vnf_lcm_op_occs`` and their tasks (SOL003 5.4.12-17)."""

import pecan
import webob

from tacker_ng import exceptions
from tacker_ng.api import etags, routing, validation
from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers.vnflcm import common, lcm_start, listing
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import reads, vnf_lcm
from tacker_ng.lcm import transitions as state
from tacker_ng.objects import lcm, state_machine, views

P = "tacker_ng:vnflcm"
S = lcm.OperationState


def _not_in(task: str, occ) -> exceptions.Conflict:
    allowed = ", ".join(sorted(state_machine.TASK_FROM[task]))
    return vnf_lcm.OperationConflict(
        f"Cannot {task} operation occurrence {occ['id']}: it is "
        f"{occ['operation_state']}, {task} needs {allowed}."
    )


def _load(op_occ_id: str, rule: str):
    ctx = common.context()
    occ = reads.run(
        lambda conn: vnf_lcm.get_op_occ(conn, op_occ_id, common.scope(ctx)),
        ctx,
    )
    common.authorize(f"{P}:{rule}", occ["project_id"])
    return ctx, occ


class _OpOccTask:
    def __init__(self, op_occ_id: str, task: str) -> None:
        self.op_occ_id = op_occ_id
        self.task = task

    @routing.resource(get=False)
    def index(self) -> None:
        """Only POST is served."""

    @index.when(method="POST", template="json")
    def post(self):
        ctx, occ = _load(self.op_occ_id, f"op_occ_{self.task}")
        if occ["operation_state"] not in state_machine.TASK_FROM[self.task]:
            raise _not_in(self.task, occ)
        return getattr(self, f"_{self.task}")(ctx, occ)

    def _location(self) -> str:
        return (
            f"{common.base_url()}{views.LCM_PREFIX}/vnf_lcm_op_occs/"
            f"{self.op_occ_id}"
        )

    def _retry(self, ctx, occ) -> str:
        if not state.move(
            ctx,
            occ["id"],
            S.PROCESSING,
            {S.FAILED_TEMP},
            error=None,
            conductor_host=None,
        ):
            raise _not_in("retry", occ)
        lcm_start.cast_or_fail(
            ctx, occ["id"], rpcapi.get_api().run_lcm_op, S.PROCESSING
        )
        return common.accepted(self._location())

    def _rollback(self, ctx, occ) -> str:
        with db_api.reader(ctx) as session:
            instance = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
        lcm_start.check_rollback_supported(
            instance, lcm.Operation(occ["operation"])
        )
        if not state.move(
            ctx,
            occ["id"],
            S.ROLLING_BACK,
            {S.FAILED_TEMP},
            conductor_host=None,
        ):
            raise _not_in("rollback", occ)
        lcm_start.cast_or_fail(
            ctx, occ["id"], rpcapi.get_api().rollback_lcm_op, S.ROLLING_BACK
        )
        return common.accepted(self._location())

    def _fail(self, ctx, occ) -> dict:
        if not state.finish(ctx, occ["id"], S.FAILED, {S.FAILED_TEMP}):
            raise _not_in("fail", occ)
        with db_api.reader(ctx) as session:
            row = vnf_lcm.get_op_occ(session, occ["id"])
        return views.op_occ(common.base_url(), row)

    def _cancel(self, ctx, occ) -> str:
        body = validation.parse_json(pecan.request, schemas.CANCEL_MODE)
        mode = lcm.CancelMode(body["cancelMode"])
        if occ["operation_state"] == S.STARTING and state.finish(
            ctx, occ["id"], S.ROLLED_BACK, {S.STARTING}, cancel_mode=mode
        ):
            return common.accepted(self._location())
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                if not vnf_lcm.request_cancel(session, occ["id"], mode):
                    current = vnf_lcm.get_op_occ(session, occ["id"])
                    if current["is_cancel_pending"]:
                        raise vnf_lcm.OperationConflict(
                            f"Cancel of {occ['id']} is already pending."
                        )
                    raise _not_in("cancel", current)
        return common.accepted(self._location())


class OpOccController:
    def __init__(self, op_occ_id: str) -> None:
        self.op_occ_id = op_occ_id
        for task in (
            state_machine.RETRY,
            state_machine.ROLLBACK,
            state_machine.FAIL,
            state_machine.CANCEL,
        ):
            setattr(self, task, _OpOccTask(op_occ_id, task))

    @routing.resource()
    def index(self) -> webob.Response:
        _, occ = _load(self.op_occ_id, "op_occ_show")
        return etags.json_response(
            pecan.request, pecan.response, views.op_occ(common.base_url(), occ)
        )


class OpOccsController:
    @routing.resource()
    def index(self) -> webob.Response:
        ctx = common.context()
        common.authorize(f"{P}:op_occ_index")
        base = common.base_url()
        return listing.respond(
            api_listing.VNF_LCM_OP_OCCS,
            common.scope(ctx),
            lambda row: views.op_occ(base, row),
        )

    @pecan.expose()
    def _lookup(self, op_occ_id, *remainder):
        return OpOccController(op_occ_id), remainder
