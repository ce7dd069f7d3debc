"""Run an LCM op occ: claim it, then run or revert its taskflow flow.

The flow (grant -> <op>_start -> infra driver -> <op>_end -> finish, see
:mod:`tacker_ng.conductor.flows`) persists every atom's state, so a
retry continues after the last finished task and a rollback reverts
exactly what ran. Failures end in FAILED_TEMP with a ProblemDetails
``error`` that names the step in our words; cancellation is checked at
task boundaries (and by drivers for FORCEFUL).
"""

import copy
from typing import Any

from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.conductor.flows import engine as flow_engine
from tacker_ng.conductor.flows import steps
from tacker_ng.conductor.operations import placement_report
from tacker_ng.conductor.operations import task as task_mod
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.lcm import transitions as state
from tacker_ng.objects import lcm, merge_patch, state_machine

LOG = logging.getLogger(__name__)
S = lcm.OperationState


def problem_of(
    exc: BaseException, step: str, context: Any = None
) -> dict[str, Any]:
    """ProblemDetails for the op occ's ``error``.

    Our own errors say what went wrong in their words. Anything else is
    a fault of ours: the NFVO learns which step failed and where to look,
    never a foreign exception's text (that goes to the log).
    """
    if isinstance(exc, exceptions.TackerNgError):
        return exc.to_problem_details()
    request_id = getattr(context, "request_id", None)
    where = f" (request {request_id})" if request_id else ""
    return {
        "status": 500,
        "title": "Internal Server Error",
        "detail": f"The {step} step failed because of an internal error "
        f"of the VNF manager; the conductor log has the details{where}.",
    }


def _claim(context, op_occ_id: str, host: str) -> bool:
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            if vnf_lcm.claim(session, op_occ_id, host):
                return True
            owner = vnf_lcm.get_op_occ(session, op_occ_id)["conductor_host"]
    LOG.info("Op occ %s is run by %s; not running it here", op_occ_id, owner)
    return False


#: VnfInfoModificationRequest attribute -> (column, merged as a patch).
_MODIFIABLE = {
    "vnfInstanceName": ("vnf_instance_name", False),
    "vnfInstanceDescription": ("vnf_instance_description", False),
    "vnfConfigurableProperties": ("vnf_configurable_properties", True),
    "metadata": ("metadata", True),
    "extensions": ("extensions", True),
    "vimConnectionInfo": ("vim_connection_info", True),
}


def _modify_info(context, occ, instance) -> None:
    """MODIFY_INFO: apply the merge patch; no grant, hooks or driver."""
    patch = occ["operation_params"] or {}
    changes: dict[str, Any] = {}
    for key, (column, merged) in _MODIFIABLE.items():
        if key in patch:
            value = patch[key]
            if merged and value is not None:
                value = merge_patch.apply(instance[column], value) or None
            changes[column] = value
    if not state.move(context, occ["id"], S.PROCESSING, {S.STARTING}):
        return
    state.finish(
        context,
        occ["id"],
        S.COMPLETED,
        {S.PROCESSING},
        instance_changes=changes,
        changed_info=crypto.mask(patch),
    )


class Interrupted(Exception):
    """The run stopped because the database could not be reached; the
    op occ is left as it is, for the jobboard to run it again."""


def database_unreachable(exc: BaseException | None) -> bool:
    """True if ``exc`` (or what caused it) is a lost database connection
    that outlived the transaction retries."""
    for _ in range(10):
        if exc is None:
            return False
        if isinstance(exc, db_exc.DBConnectionError):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def run(
    context, op_occ_id: str, host: str, interruptible: bool = False
) -> None:
    """Start (STARTING) or continue (PROCESSING: a retry, or a run another
    conductor left) an op occ's flow.

    ``interruptible`` (jobboard runs): losing the database raises
    :class:`Interrupted` instead of failing the op occ, so the job is run
    again once the database is back and the op occ completes.
    """
    occ, instance, package, grant = task_mod.load(context, op_occ_id)
    if occ["operation_state"] not in (S.STARTING, S.PROCESSING):
        LOG.info(
            "Op occ %s is %s; nothing to run",
            op_occ_id,
            occ["operation_state"],
        )
        return
    if occ["operation"] == lcm.Operation.MODIFY_INFO:
        if _claim(context, op_occ_id, host):
            _modify_info(context, occ, instance)
        return
    if not _claim(context, op_occ_id, host):
        return
    step = "preparation"
    try:
        run_ = steps.Run.build(context, occ, instance, package, grant, host)
        if occ["operation_state"] == S.STARTING and occ["is_cancel_pending"]:
            state.finish(context, op_occ_id, S.ROLLED_BACK, {S.STARTING})
            return
        step = "grant"
        flow_engine.run_forward(run_)
    except steps.Abandoned as gone:
        LOG.warning("Op occ %s: stopped running it (%s)", op_occ_id, gone)
    except Exception as exc:  # noqa: BLE001 - every failure is FAILED_TEMP
        if interruptible and database_unreachable(exc):
            raise Interrupted(op_occ_id) from exc
        _fail_temp(context, op_occ_id, exc, _step_of(op_occ_id, step))


def _step_of(op_occ_id: str, default: str) -> str:
    """The failed atom's step; ``default`` if the flow never started."""
    try:
        return flow_engine.failed_step(op_occ_id) or default
    except Exception:  # noqa: BLE001 - only a label for the problem
        LOG.debug("Could not read the flow of %s", op_occ_id, exc_info=True)
        return default


def _fail_temp(context, op_occ_id: str, exc: BaseException, step: str) -> None:
    if isinstance(exc, exceptions.TackerNgError) and exc.status < 500:
        LOG.warning(
            "Op occ %s failed in the %s step: %s", op_occ_id, step, exc
        )
    elif isinstance(exc, exceptions.TackerNgError) and exc.status in (
        502,
        503,
        504,
    ):
        # The VIM's or a peer's fault, not ours: one line, with its cause
        # (a traceback would only show our own code that noticed it).
        LOG.warning(
            "Op occ %s failed in the %s step: %s%s",
            op_occ_id,
            step,
            exc,
            _cause_of(exc),
        )
    else:
        LOG.exception("Op occ %s failed in the %s step", op_occ_id, step)
    moved = state.move(
        context,
        op_occ_id,
        S.FAILED_TEMP,
        {S.STARTING, S.PROCESSING, S.ROLLING_BACK},
        error=problem_of(exc, step, context),
        is_cancel_pending=False,
    )
    if not moved:
        LOG.warning(
            "Op occ %s could not be set FAILED_TEMP (state moved)", op_occ_id
        )


def _cause_of(exc: BaseException) -> str:
    """`` (cause: <type>: <text>)`` of what led to ``exc``, if anything."""
    cause = exc.__cause__ or exc.__context__
    if cause is None:
        return ""
    return f" (cause: {type(cause).__name__}: {cause})"


def rollback(
    context, op_occ_id: str, host: str, interruptible: bool = False
) -> None:
    """Undo a FAILED_TEMP op occ now in ROLLING_BACK: taskflow reverts
    the atoms that ran, newest first (the driver's revert is its
    rollback), then the op occ is ROLLED_BACK."""
    occ, instance, package, grant = task_mod.load(context, op_occ_id)
    if occ["operation_state"] != S.ROLLING_BACK:
        return
    if not _claim(context, op_occ_id, host):
        return
    if not flow_engine.touched_vnf(op_occ_id):
        # Failed before any hook or the infra driver ran (no VIM, grant
        # refused, ...): nothing to undo, the rollback succeeds at once.
        LOG.info("Op occ %s: nothing ran on the VNF; rolled back", op_occ_id)
        _finish_rollback(context, occ, op_occ_id, {})
        return
    try:
        run_ = steps.Run.build(context, occ, instance, package, grant, host)
        flow_engine.run_revert(run_)
    except steps.Abandoned as gone:
        LOG.warning("Op occ %s: stopped its rollback (%s)", op_occ_id, gone)
        return
    except Exception as exc:  # noqa: BLE001 - every failure is FAILED_TEMP
        if interruptible and database_unreachable(exc):
            raise Interrupted(op_occ_id) from exc
        _fail_temp(context, op_occ_id, exc, "rollback")
        return
    _finish_rollback(
        context,
        occ,
        op_occ_id,
        run_.progress.data.get("rollback_result"),
        run_.task,
    )


def _finish_rollback(context, occ, op_occ_id: str, result, task=None) -> None:
    result = copy.deepcopy(result or {})
    changes: dict[str, Any] = {}
    record = None
    back = state_machine.state_after_rollback(lcm.Operation(occ["operation"]))
    if back is not None:
        changes["instantiation_state"] = back
        if back == lcm.InstantiationState.NOT_INSTANTIATED:
            changes["instantiated_vnf_info"] = None
    elif result.get("instantiated_vnf_info") is not None:
        changes["instantiated_vnf_info"] = result["instantiated_vnf_info"]
        if task is not None:
            # What the rollback left is checked like any operation's end.
            record = placement_report.review(
                task,
                changes["instantiated_vnf_info"],
                result.get("resource_changes"),
            )
    state.finish(
        context,
        op_occ_id,
        S.ROLLED_BACK,
        {S.ROLLING_BACK},
        instance_changes=changes,
        also=record,
        resource_changes=result.get("resource_changes") or None,
    )
