"""Run an LCM op occ: grant -> <op>_start -> infra driver -> <op>_end.

Each finished step is recorded in the op occ's ``progress`` so that a
retry skips what was done and a rollback knows what to undo. Failures
end in FAILED_TEMP with a ProblemDetails ``error``; cancellation is
checked between steps (and by drivers for FORCEFUL).
"""

from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.conductor.operations import granting
from tacker_ng.conductor.operations import task as task_mod
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.infra import base, registry
from tacker_ng.lcm import transitions as state
from tacker_ng.mgmt import base as mgmt
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


def _hook(task: base.LcmTask, suffix: str, progress) -> None:
    prefix = mgmt.HOOK_PREFIX.get(str(task.operation))
    if prefix is None:
        return
    name = f"{prefix}_{suffix}"
    step = f"hook:{name}"
    if progress.done(step):
        return
    hook = task.vnfd.flavour(task.flavour_id).lcm_operations.get(name)
    if hook is not None:
        driver = mgmt.get_driver(mgmt.driver_name(hook.artifact), name)
        LOG.info("Op occ %s: MgmtDriver hook %s", task.op_occ_id, name)
        driver.run_hook(name, task, hook.artifact)
    progress.mark(step)


def _check_cancel(context, op_occ_id: str) -> None:
    with db_api.reader(context) as session:
        occ = vnf_lcm.get_op_occ(session, op_occ_id)
    if occ["is_cancel_pending"]:
        raise base.Cancelled(mode=occ["cancel_mode"])


def _instance_changes(
    occ: Mapping[str, Any], result: dict[str, Any]
) -> dict[str, Any]:
    operation = lcm.Operation(occ["operation"])
    request = occ["operation_params"] or {}
    changes: dict[str, Any] = {}
    after = state_machine.state_after_success(operation)
    if after is not None:
        changes["instantiation_state"] = after
    if operation == lcm.Operation.TERMINATE:
        changes["instantiated_vnf_info"] = None
    elif result.get("instantiated_vnf_info") is not None:
        changes["instantiated_vnf_info"] = result["instantiated_vnf_info"]
    for key, column in (
        ("vnfConfigurableProperties", "vnf_configurable_properties"),
        ("extensions", "extensions"),
    ):
        if key in request:
            changes[column] = request[key]
    return changes


def _package_changes(context, occ) -> dict[str, Any]:
    if occ["operation"] != lcm.Operation.CHANGE_VNFPKG:
        return {}
    _, _, package, _ = task_mod.load(context, occ["id"])
    return {
        "vnfd_id": package["vnfd_id"],
        "vnf_provider": package["vnf_provider"],
        "vnf_product_name": package["vnf_product_name"],
        "vnf_software_version": package["vnf_software_version"],
        "vnfd_version": package["vnfd_version"],
    }


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


def run(context, op_occ_id: str, host: str) -> None:
    """Start (STARTING) or continue (PROCESSING, after retry) an op occ."""
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
    progress = task_mod.Progress(context, op_occ_id, occ["progress"])
    step = "preparation"
    try:
        vim_id, vim = task_mod.vim_of(instance)
        task = task_mod.build(context, occ, instance, package, progress, grant)
        if occ["operation_state"] == S.STARTING and occ["is_cancel_pending"]:
            state.finish(context, op_occ_id, S.ROLLED_BACK, {S.STARTING})
            return
        step = "grant"
        if not progress.done("grant"):
            got = granting.obtain(
                context, occ, task.instance, task.vnfd, vim_id, vim
            )
            task.grant_request = got["grant_request"]
            task.grant = got["grant"]
            progress.mark("grant")
        if occ["operation_state"] == S.STARTING and not state.move(
            context, op_occ_id, S.PROCESSING, {S.STARTING}
        ):
            LOG.info("Op occ %s left STARTING meanwhile", op_occ_id)
            return
        step = "start hook"
        _check_cancel(context, op_occ_id)
        _hook(task, "start", progress)
        _check_cancel(context, op_occ_id)
        step = "infra driver"
        if not progress.done("driver"):
            driver = registry.get_driver(vim["vimType"])
            method = getattr(driver, base.METHODS[task.operation])
            LOG.info(
                "Op occ %s: %s on %s",
                op_occ_id,
                task.operation,
                vim["vimType"],
            )
            result = method(task)
            progress.data["result"] = {
                "instantiated_vnf_info": result.instantiated_vnf_info,
                "resource_changes": result.resource_changes,
                "changed_info": result.changed_info,
                "changed_ext_connectivity": result.changed_ext_connectivity,
            }
            progress.mark("driver")
        step = "end hook"
        _check_cancel(context, op_occ_id)
        _hook(task, "end", progress)
    except Exception as exc:  # noqa: BLE001 - every failure is FAILED_TEMP
        _fail_temp(context, op_occ_id, exc, step)
        return
    result = progress.data.get("result") or {}
    changes = _instance_changes(occ, result)
    changes.update(_package_changes(context, occ))
    state.finish(
        context,
        op_occ_id,
        S.COMPLETED,
        {S.PROCESSING},
        instance_changes=changes,
        resource_changes=result.get("resource_changes") or None,
        changed_info=result.get("changed_info"),
        changed_ext_connectivity=result.get("changed_ext_connectivity"),
    )


def _fail_temp(context, op_occ_id: str, exc: BaseException, step: str) -> None:
    if isinstance(exc, exceptions.TackerNgError) and exc.status < 500:
        LOG.warning(
            "Op occ %s failed in the %s step: %s", op_occ_id, step, exc
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


def rollback(context, op_occ_id: str, host: str) -> None:
    """Undo a FAILED_TEMP op occ now in ROLLING_BACK."""
    occ, instance, package, grant = task_mod.load(context, op_occ_id)
    if occ["operation_state"] != S.ROLLING_BACK:
        return
    if not _claim(context, op_occ_id, host):
        return
    progress = task_mod.Progress(context, op_occ_id, occ["progress"])
    try:
        _, vim = task_mod.vim_of(instance)
        task = task_mod.build(context, occ, instance, package, progress, grant)
        driver = registry.get_driver(vim["vimType"])
        LOG.info("Op occ %s: rolling back %s", op_occ_id, task.operation)
        result = driver.rollback(task)
    except Exception as exc:  # noqa: BLE001 - every failure is FAILED_TEMP
        _fail_temp(context, op_occ_id, exc, "rollback")
        return
    changes: dict[str, Any] = {}
    back = state_machine.state_after_rollback(lcm.Operation(occ["operation"]))
    if back is not None:
        changes["instantiation_state"] = back
        if back == lcm.InstantiationState.NOT_INSTANTIATED:
            changes["instantiated_vnf_info"] = None
    elif result.instantiated_vnf_info is not None:
        changes["instantiated_vnf_info"] = result.instantiated_vnf_info
    state.finish(
        context,
        op_occ_id,
        S.ROLLED_BACK,
        {S.ROLLING_BACK},
        instance_changes=changes,
        resource_changes=result.resource_changes or None,
    )
