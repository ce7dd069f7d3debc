"""The atoms of an LCM flow: one taskflow task per SOL003 step.

A task's ``execute`` does its step; the driver task's ``revert`` carries
the rollback (the infra driver undoes what its progress says it did).
Tasks also mirror their completion into the op occ's ``progress.steps``
(what operators read, and the guard that keeps an op started before the
flow engine from redoing a step). What runs next is decided by taskflow's
persisted atom states, never by the mirror alone.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging
from taskflow import task as tf_task
from taskflow.patterns import linear_flow

from tacker_ng.conductor.operations import (
    granting,
    placement_report,
    snapshots,
    vim_registry,
)
from tacker_ng.conductor.operations import task as task_mod
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.infra import base, registry
from tacker_ng.lcm import transitions as state
from tacker_ng.mgmt import base as mgmt
from tacker_ng.objects import lcm, state_machine

LOG = logging.getLogger(__name__)
S = lcm.OperationState

#: Atom name -> the step the NFVO reads in a ProblemDetails.
STEP_LABELS = {
    "grant": "grant",
    "processing": "grant",
    "start_hook": "start hook",
    "driver": "infra driver",
    "end_hook": "end hook",
    "finish": "finish",
}


class Abandoned(Exception):
    """The op occ left the state this run expects (someone else moved
    it); the run stops without touching it."""


@dataclasses.dataclass
class Run:
    """What every task of one run needs (rebuilt by each conductor)."""

    context: Any
    occ: Mapping[str, Any]
    instance: Mapping[str, Any]
    package: Mapping[str, Any]
    progress: task_mod.Progress
    task: base.LcmTask
    vim_id: str
    vim: dict[str, Any]
    #: The conductor running it (holder of the op occ's SQL claim).
    host: str = ""

    @classmethod
    def build(cls, context, occ, instance, package, grant, host: str) -> Run:
        """Load the VIM, VNFD and persisted progress of ``occ`` (VIMs
        named by vimId only resolved from the VIM registry, or 422)."""
        progress = task_mod.Progress(context, occ["id"], occ["progress"])
        instance = vim_registry.resolve_instance(context, instance)
        vim_id, vim = task_mod.vim_of(instance)
        lcm_task = task_mod.build(
            context, occ, instance, package, progress, grant
        )
        return cls(
            context,
            occ,
            instance,
            package,
            progress,
            lcm_task,
            vim_id,
            vim,
            host,
        )

    @property
    def op_occ_id(self) -> str:
        return self.occ["id"]

    def driver(self) -> base.InfraDriver:
        return registry.get_driver(self.vim["vimType"])

    def check_cancel(self) -> None:
        """At a task boundary: stop if another conductor took the op occ
        over (this one lost its job claim), or if cancel was requested."""
        with db_api.reader(self.context) as session:
            occ = vnf_lcm.get_op_occ(session, self.op_occ_id)
        if occ["conductor_host"] != self.host:
            raise Abandoned(f"taken over by {occ['conductor_host']}")
        if occ["is_cancel_pending"]:
            raise base.Cancelled(mode=occ["cancel_mode"])


class _Step(tf_task.Task):
    """A task bound to the run (not persisted: rebuilt on resume)."""

    def __init__(self, run: Run, name: str, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.run = run


class Grant(_Step):
    """Ask the NFVO (or the local one) for the Grant; keep both bodies."""

    def execute(self) -> None:
        run = self.run
        if run.progress.done("grant"):
            return
        got = granting.obtain(
            run.context,
            run.occ,
            run.task.instance,
            run.task.vnfd,
            run.vim_id,
            run.vim,
            snapshot=run.task.vnf_snapshot,
        )
        run.task.grant_request = got["grant_request"]
        run.task.grant = got["grant"]
        run.progress.mark("grant")


class Processing(_Step):
    """STARTING -> PROCESSING (with its notification), once."""

    def execute(self) -> None:
        run = self.run
        with db_api.reader(run.context) as session:
            current = vnf_lcm.get_op_occ(session, run.op_occ_id)
        if current["operation_state"] == S.PROCESSING:
            return
        if current["operation_state"] != S.STARTING or not state.move(
            run.context, run.op_occ_id, S.PROCESSING, {S.STARTING}
        ):
            raise Abandoned(current["operation_state"])


class Hook(_Step):
    """The MgmtDriver's ``<op>_start`` or ``<op>_end`` hook, if any."""

    def __init__(self, run: Run, suffix: str) -> None:
        super().__init__(run, f"{suffix}_hook")
        self.suffix = suffix

    def execute(self) -> None:
        self._hook(self.run.task)

    def _hook(self, task: base.LcmTask) -> None:
        run = self.run
        run.check_cancel()
        prefix = mgmt.HOOK_PREFIX.get(str(task.operation))
        if prefix is None:
            return
        name = f"{prefix}_{self.suffix}"
        step = f"hook:{name}"
        if run.progress.done(step):
            return
        hook = task.vnfd.flavour(task.flavour_id).lcm_operations.get(name)
        if hook is not None:
            driver = mgmt.get_driver(mgmt.driver_name(hook.artifact), name)
            LOG.info("Op occ %s: MgmtDriver hook %s", task.op_occ_id, name)
            result = driver.run_hook(name, task, hook.artifact)
            vim_registry.record(run.context, task.instance["id"], result)
            if result is not None and result.vnfc_metadata:
                # Kept with the progress (saved by mark) for Finish.
                notes = run.progress.data.setdefault("vnfc_metadata", {})
                for vnfc_id, note in result.vnfc_metadata.items():
                    notes.setdefault(vnfc_id, {}).update(note)
        run.progress.mark(step)
        if self.suffix == "start":
            # The boundary before the driver: checked as soon as the
            # hook is done, so a cancel never waits for a whole step.
            run.check_cancel()


class EndHook(Hook):
    """``<op>_end``: the hook sees the instance as the driver left it (the
    VMs it just created are found from the new vnfcResourceInfo)."""

    def __init__(self, run: Run) -> None:
        super().__init__(run, "end")

    def execute(self, driver_result: dict[str, Any]) -> None:  # type: ignore[override]
        task = self.run.task
        info = (driver_result or {}).get("instantiated_vnf_info")
        if info is not None:
            instance = dict(task.instance)
            instance["instantiatedVnfInfo"] = info
            task = dataclasses.replace(task, instance=instance)
        self._hook(task)


class Driver(_Step):
    """The infra driver's step; its revert is the driver's rollback."""

    def __init__(self, run: Run) -> None:
        super().__init__(run, "driver", provides="driver_result")

    def execute(self) -> dict[str, Any]:
        run = self.run
        if run.progress.done("driver"):
            return run.progress.data.get("result") or {}
        task = run.task
        method = getattr(run.driver(), base.METHODS[task.operation])
        LOG.info(
            "Op occ %s: %s on %s",
            run.op_occ_id,
            task.operation,
            run.vim["vimType"],
        )
        result = method(task)
        run.progress.data["result"] = {
            "instantiated_vnf_info": result.instantiated_vnf_info,
            "resource_changes": result.resource_changes,
            "changed_info": result.changed_info,
            "changed_ext_connectivity": result.changed_ext_connectivity,
            "vnf_snapshot": result.vnf_snapshot,
        }
        run.progress.mark("driver")
        return run.progress.data["result"]

    def revert(self, *args: Any, **kwargs: Any) -> None:
        """Undo what the driver did (its progress says what, also after
        a failure half-way); the result is kept for ROLLED_BACK."""
        run = self.run
        LOG.info(
            "Op occ %s: rolling back %s", run.op_occ_id, run.task.operation
        )
        result = run.driver().rollback(run.task)
        run.progress.data["rollback_result"] = {
            "instantiated_vnf_info": result.instantiated_vnf_info,
            "resource_changes": result.resource_changes,
        }
        run.progress.save()


class Finish(_Step):
    """PROCESSING -> COMPLETED with the instance's changes, once."""

    def execute(self, driver_result: dict[str, Any]) -> None:
        run = self.run
        result = copy.deepcopy(driver_result or {})
        # Zone anti-affinity re-evaluated over where the VNFCs ended:
        # VNFC / affected VNFC metadata now, the FM alarm with the end.
        record = placement_report.review_result(run.task, result)
        changes = instance_changes(run.occ, result)
        changes.update(package_changes(run.occ, run.package))
        snapshots.record(run.context, run.occ, result.get("vnf_snapshot"))
        if run.occ["operation"] == lcm.Operation.TERMINATE:
            vim_registry.withdraw_all(run.context, run.occ["vnf_instance_id"])
        state.finish(
            run.context,
            run.op_occ_id,
            S.COMPLETED,
            {S.PROCESSING},
            instance_changes=changes,
            also=record,
            resource_changes=mgmt.merge_vnfc_metadata(
                result.get("resource_changes") or None,
                run.progress.data.get("vnfc_metadata") or {},
            ),
            changed_info=result.get("changed_info"),
            changed_ext_connectivity=result.get("changed_ext_connectivity"),
        )


def build(run: Run) -> linear_flow.Flow:
    """The flow of one LCM op occ (the same atoms for every operation:
    hooks a VNFD does not declare finish at once)."""
    return linear_flow.Flow(f"lcm-{run.occ['operation']}").add(
        Grant(run, "grant"),
        Processing(run, "processing"),
        Hook(run, "start"),
        Driver(run),
        EndHook(run),
        Finish(run, "finish"),
    )


def instance_changes(
    occ: Mapping[str, Any], result: Mapping[str, Any]
) -> dict[str, Any]:
    """Instance columns a COMPLETED op occ changes."""
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


def package_changes(
    occ: Mapping[str, Any], package: Mapping[str, Any]
) -> dict[str, Any]:
    """CHANGE_VNFPKG: the instance now refers to the new package."""
    if occ["operation"] != lcm.Operation.CHANGE_VNFPKG:
        return {}
    return {
        key: package[key]
        for key in (
            "vnfd_id",
            "vnf_provider",
            "vnf_product_name",
            "vnf_software_version",
            "vnfd_version",
        )
    }
