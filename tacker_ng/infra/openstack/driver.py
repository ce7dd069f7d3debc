"""The OpenStack infra driver (vimType ``ETSINFV.OPENSTACK_KEYSTONE.V_3``).

One Heat stack per VNF instance (``vnf-<instance id>``), built from the
flavour's BaseHOT (or one generated from the VNFD, :mod:`.hot_gen`) the
StandardUserData way: one resource per VNFC with its own flavour, image
and granted zone. Instantiate, scale, scale to
level, heal and change flavour are a stack create/update of the wanted
VNFC set, with AZ reselection when a zone lacks capacity; terminate
deletes the stack; rollback deletes it (instantiate) or restores the
VNFC set the instance had before.
"""

import dataclasses
import time
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import conf as _conf  # noqa: F401 - registers the options
from tacker_ng.infra import base
from tacker_ng.infra.openstack import (
    cinder,
    converge,
    glance,
    heat,
    host_keys,
    info,
    nova,
    power,
    restack,
    session,
    snapshot,
    vnfcs,
    volume_snapshots,
)
from tacker_ng.infra.openstack import errors as os_errors
from tacker_ng.objects import lcm
from tacker_ng.objects import vnf_snapshots as rules

LOG = logging.getLogger(__name__)
Op = lcm.Operation


@dataclasses.dataclass
class _Vim:
    """Clients and identity of the VIM one operation runs on."""

    vim_id: str
    session: session.TimedSession
    heat: heat.Heat
    nova: nova.Nova
    glance: glance.Glance
    cinder: cinder.Cinder


class OpenStackDriver(base.InfraDriver):
    """Heat + Nova driver with fallbackBestEffort zone reselection."""

    name = "openstack"
    rollback_operations = frozenset(
        {
            Op.INSTANTIATE,
            Op.OPERATE,
            Op.CREATE_SNAPSHOT,
            Op.SCALE,
            Op.SCALE_TO_LEVEL,
            Op.HEAL,
            Op.CHANGE_FLAVOUR,
            # Rebuilt disks cannot be put back, but a re-scale is undone.
            Op.REVERT_TO_SNAPSHOT,
        }
    )

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.conf = conf
        #: Timing of the last operation (tools/bench reads it).
        self.last_timing: dict[str, Any] = {}

    # -- plumbing --------------------------------------------------------
    def _vim(self, task: base.LcmTask) -> _Vim:
        vim_id, vim = session.vim_of(task, self.conf)
        sess, region = session.make_session(vim)
        return _Vim(
            vim_id,
            sess,
            heat.Heat(sess, region, self.conf, task.check_cancel),
            nova.Nova(sess, region, self.conf),
            *snapshot.stores(sess, region, self.conf),
        )

    @staticmethod
    def stack_name(task: base.LcmTask) -> str:
        return f"vnf-{task.instance['id']}"

    def _stack_id(self, task: base.LcmTask, vim: _Vim) -> str | None:
        """The VNF's live stack (this op occ's, else by name); None when
        Heat has none: never made, or deleted (a stack being deleted is
        waited for - Heat shows a deleted stack by id as DELETE_COMPLETE)."""
        stack_id = task.progress.get("stack_id")
        found = vim.heat.find(stack_id) if stack_id else None
        if found is None or found["stack_status"] == "DELETE_COMPLETE":
            found = vim.heat.find(self.stack_name(task))
        if found is not None and found["stack_status"] == "DELETE_IN_PROGRESS":
            found = vim.heat.wait(found["id"], allow_missing=True)
        if found is None or found["stack_status"] == "DELETE_COMPLETE":
            return None
        return found["id"]

    def list_zones(self, vim: dict[str, Any]) -> list[str]:
        """Usable compute zones of the VIM (for the local NFVO)."""
        sess, region = session.make_session(vim)
        return nova.Nova(sess, region, self.conf).zones()

    def _timed(
        self, task: base.LcmTask, vim: _Vim, started: float, cpu: float
    ) -> None:
        total = time.perf_counter() - started
        client = vim.session.timer.seconds
        waited = vim.heat.waited
        self.last_timing = {
            "total_s": round(total, 3),
            "client_calls": vim.session.timer.calls,
            "client_s": round(client, 3),
            "poll_wait_s": round(waited, 3),
            "vnfm_s": round(max(total - client - waited, 0.0), 3),
            # CPU of this thread, client libraries (JSON, HTTP) included.
            "thread_cpu_s": round(time.thread_time() - cpu, 3),
        }
        task.progress["timing"] = self.last_timing
        task.save_progress()

    # -- operations ------------------------------------------------------
    def instantiate(self, task: base.LcmTask) -> base.LcmResult:
        return self._apply(task)

    def scale(self, task: base.LcmTask) -> base.LcmResult:
        return self._apply(task)

    def scale_to_level(self, task: base.LcmTask) -> base.LcmResult:
        return self._apply(task)

    def heal(self, task: base.LcmTask) -> base.LcmResult:
        return self._apply(task)

    def change_flavour(self, task: base.LcmTask) -> base.LcmResult:
        return self._apply(task)

    def operate(self, task: base.LcmTask) -> base.LcmResult:
        return power.operate(self._vim(task).nova, task, self.conf)

    def create_snapshot(self, task: base.LcmTask) -> base.LcmResult:
        vim = self._vim(task)
        return snapshot.create(
            vim.nova, vim.glance, task, vim.vim_id, self.conf, vim.cinder
        )

    def revert_to_snapshot(self, task: base.LcmTask) -> base.LcmResult:
        """Bring the snapshot's VNFC set back if the VNF was scaled since
        (a stack update, like a scale's: the VNFCs brought back go where
        the grant places them), then rebuild every VNFC."""
        vim = self._vim(task)
        wanted = task.vnf_snapshot or {}
        snapshot.check_images(wanted, vim.cinder)
        info_now = task.instance.get("instantiatedVnfInfo") or {}
        progress = task.progress
        if "restacked" not in progress and rules.needs_rescale(
            wanted, info_now
        ):
            stack_id = self._stack_id(task, vim)
            if stack_id is None:
                raise os_errors.VimError(
                    reason=f"stack {self.stack_name(task)} not found"
                )
            flavour = task.vnfd.flavour(info_now["flavourId"])
            plan = vnfcs.plan(task, flavour)
            # No new host keys: the snapshot's images hold the recorded ones.
            managed = {v.vdu_id for v in plan.after if v.host_key}
            stack = converge.Stack(
                self.stack_name(task), stack_id, managed, {}
            )
            self._refuse_deleting_held(task, vim, plan)
            converge.apply(vim, task, flavour, plan, stack, self.conf)
            progress["restacked"] = [
                info.vnfc_resource_info(v, vim.vim_id) for v in plan.after
            ]
            task.save_progress()
        restacked = progress.get("restacked")
        result = snapshot.revert(
            vim.nova, task, self.conf, restacked, vim.cinder
        )
        if restacked and result.instantiated_vnf_info:
            vnfcs.keep_stack_metadata(result.instantiated_vnf_info, restacked)
        return result

    def delete_snapshot(
        self, vim: dict[str, Any], vnf_snapshot: dict[str, Any]
    ) -> None:
        sess, region = session.make_session(vim)
        stores = snapshot.stores(sess, region, self.conf)
        snapshot.delete(*stores, vnf_snapshot)

    def terminate(self, task: base.LcmTask) -> base.LcmResult:
        started, cpu = time.perf_counter(), time.thread_time()
        vim = self._vim(task)
        stack_id = self._stack_id(task, vim)
        if stack_id:
            volume_snapshots.refuse_deleting_held(vim.cinder, task.instance)
            vim.heat.delete(stack_id)
        plan = vnfcs.Plan(
            "", vnfcs.existing(task.instance), [], set(), set(), []
        )
        plan.removed = plan.before
        self._timed(task, vim, started, cpu)
        return base.LcmResult(
            resource_changes=info.resource_changes(plan, vim.vim_id)
        )

    def rollback(self, task: base.LcmTask) -> base.LcmResult:
        """Instantiate: delete the stack. Others: restore the VNFC set
        (and flavour) the instance had before the failed operation."""
        vim = self._vim(task)
        stack_id = self._stack_id(task, vim)
        if task.operation == Op.INSTANTIATE:
            if stack_id:
                vim.heat.delete(stack_id)
            return base.LcmResult()
        if task.operation == Op.OPERATE:
            return power.undo(vim.nova, task, self.conf)
        if task.operation == Op.CREATE_SNAPSHOT:
            return snapshot.undo_create(
                vim.glance, task, vim.cinder, self.conf
            )
        if not self.supports_rollback(task.operation):
            raise base.RollbackNotSupported(
                driver=self.name, operation=task.operation
            )
        if not stack_id or not task.progress.get("stack_changed"):
            return base.LcmResult()
        old = task.instance["instantiatedVnfInfo"]["flavourId"]
        flavour = task.vnfd.flavour(old)
        before = vnfcs.existing(task.instance)
        restack.restack(
            vim.heat,
            vim.nova,
            task,
            stack_id,
            flavour,
            before,
            "rollback",
            self.conf,
        )
        rollback_task = dataclasses.replace(task, request={})
        return base.LcmResult(
            instantiated_vnf_info=info.instantiated_vnf_info(
                rollback_task, flavour, before, vim.vim_id
            )
        )

    # -- the common path -------------------------------------------------
    def _apply(self, task: base.LcmTask) -> base.LcmResult:
        started, cpu = time.perf_counter(), time.thread_time()
        flavour = task.vnfd.flavour(task.flavour_id)
        plan = vnfcs.plan(task, flavour)
        vim = self._vim(task)
        stack_id = self._stack_id(task, vim)
        if self._stack_lost(task, stack_id):
            # Desired state is the package: the stored VNFCs in a new
            # stack from the package's template (what instantiate made).
            plan = vnfcs.anew(plan)
            task.progress.update(stack_recreated=True, marked=True)
            task.save_progress()
        managed = host_keys.managed_for(
            task.request,
            flavour.additional_parameters,
            flavour.vdus,
            plan.before,
        )
        keys = host_keys.assign(plan.after, managed, plan.movable)
        self._refuse_deleting_held(task, vim, plan)
        stack = converge.Stack(self.stack_name(task), stack_id, managed, keys)
        converge.apply(vim, task, flavour, plan, stack, self.conf)
        result = base.LcmResult(
            instantiated_vnf_info=info.instantiated_vnf_info(
                task, flavour, plan.after, vim.vim_id
            ),
            resource_changes=info.resource_changes(plan, vim.vim_id),
        )
        self._timed(task, vim, started, cpu)
        return result

    def _stack_lost(self, task: base.LcmTask, stack_id: str | None) -> bool:
        """Whether this operation re-creates the VNF's stack: a heal finding
        it gone (or the retry of one that did); any other operation on a
        VNF without its stack fails, saying a heal brings it back."""
        if task.operation == Op.INSTANTIATE:
            return False
        if stack_id is None and task.operation != Op.HEAL:
            raise os_errors.StackGone(stack=self.stack_name(task))
        if stack_id is None:
            LOG.warning(
                "Op occ %s: stack %s is gone; creating it again",
                task.op_occ_id,
                self.stack_name(task),
            )
            return True
        return bool(task.progress.get("stack_recreated"))

    @staticmethod
    def _refuse_deleting_held(task: base.LcmTask, vim: _Vim, plan) -> None:
        """Before the stack changes: Cinder deletes no volume with
        snapshots, so a plan removing one would fail half-way."""
        if plan.removed and task.operation != Op.INSTANTIATE:
            volume_snapshots.refuse_deleting_held(
                vim.cinder, task.instance, {v.id for v in plan.removed}
            )
