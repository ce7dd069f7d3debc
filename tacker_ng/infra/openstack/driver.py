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
    az_reselect,
    cinder,
    glance,
    heat,
    host_keys,
    hot,
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
from tacker_ng.placement import az_errors, az_select

LOG = logging.getLogger(__name__)
Op = lcm.Operation
COMPLETE = ("CREATE_COMPLETE", "UPDATE_COMPLETE")


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
        stack_id = task.progress.get("stack_id")
        if stack_id and vim.heat.find(stack_id):
            return stack_id
        found = vim.heat.find(self.stack_name(task))
        return found["id"] if found else None

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
        (a stack update, like a scale's), then rebuild every VNFC."""
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
            then = vnfcs.existing(wanted["vnfInstance"])
            progress["stack_changed"] = True
            task.save_progress()
            restack.restack(
                vim.heat,
                vim.nova,
                task,
                stack_id,
                task.vnfd.flavour(info_now["flavourId"]),
                then,
                "revert to snapshot",
                self.conf,
            )
            progress["restacked"] = [
                info.vnfc_resource_info(v, vim.vim_id) for v in then
            ]
            task.save_progress()
        return snapshot.revert(
            vim.nova, task, self.conf, progress.get("restacked"), vim.cinder
        )

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
        if task.operation not in (
            Op.SCALE,
            Op.SCALE_TO_LEVEL,
            Op.HEAL,
            Op.CHANGE_FLAVOUR,
            # Rebuilt disks cannot be put back, but a re-scale is undone.
            Op.REVERT_TO_SNAPSHOT,
        ):
            return self._unsupported(task)
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
        top, files = hot.load(task.package_root, flavour)
        plan = vnfcs.plan(task, flavour)
        managed = host_keys.managed_for(
            task.request,
            flavour.additional_parameters,
            flavour.vdus,
            plan.before,
        )
        keys = host_keys.assign(plan.after, managed, plan.movable)
        networks = info.cp_networks(task)
        vim = self._vim(task)
        progress = task.progress
        stack_id = self._stack_id(task, vim)
        if task.operation != Op.INSTANTIATE and stack_id is None:
            raise os_errors.VimError(
                reason=f"stack {self.stack_name(task)} not found"
            )
        if stack_id:
            vim.heat.wait(stack_id)  # a retry after a timeout: let it end
        if plan.removed and task.operation != Op.INSTANTIATE:
            volume_snapshots.refuse_deleting_held(
                vim.cinder, task.instance, {v.id for v in plan.removed}
            )
        self._check_flavors(vim, plan)
        assignment = {v.name: v.zone for v in plan.after}
        assignment.update(progress.get("assignment") or {})
        if plan.recreate and stack_id and not progress.get("marked"):
            self._mark_unhealthy(task, vim, stack_id, plan)
        state = {"stack_id": stack_id}

        def attempt(zones: dict[str, str | None]) -> az_reselect.Outcome:
            vnfcs.apply_zones(plan.after, zones)
            template, stack_files = hot.join_server_groups(
                hot.expand(top, flavour, plan.after),
                files,
                plan.after,
                flavour,
                self.conf.placement.fallback_best_effort,
            )
            template, stack_files = host_keys.inject(
                template, stack_files, plan.after, managed, keys
            )
            params = {
                "nfv": hot.nfv_parameter(
                    flavour, plan.after, networks, template
                )
            }
            record = {
                "action": "UPDATE" if state["stack_id"] else "CREATE",
                "zones": dict(zones),
            }
            progress.setdefault("attempts", []).append(record)
            task.save_progress()
            marker = None
            if state["stack_id"] is None:
                state["stack_id"] = vim.heat.create(
                    self.stack_name(task), template, stack_files, params
                )
                progress["stack_id"] = state["stack_id"]
            else:
                marker = vim.heat.last_event_id(state["stack_id"])
                progress["stack_changed"] = True
                task.save_progress()
                vim.heat.update(
                    state["stack_id"], template, stack_files, params
                )
            task.save_progress()
            stack = vim.heat.wait(state["stack_id"])
            record["status"] = stack["stack_status"]
            record["reason"] = (stack.get("stack_status_reason") or "")[:500]
            record["observed_at"] = round(vim.heat.last_seen_at, 3)
            task.save_progress()
            if stack["stack_status"] in COMPLETE:
                return az_reselect.Outcome(ok=True)
            return self._outcome(vim, state["stack_id"], marker, zones, stack)

        def remember(zones: dict[str, str | None]) -> None:
            progress["assignment"] = dict(zones)
            task.save_progress()

        final = az_reselect.run(
            attempt=attempt,
            assignment=assignment,
            members=[
                az_select.Member(v.name, v.vdu_id, v.name in plan.movable)
                for v in plan.after
            ],
            rules=az_select.ZoneRules.of_flavour(flavour),
            list_zones=self._zone_lister(task, vim),
            on_change=remember,
            stack=self.stack_name(task),
            action="CREATE" if task.operation == Op.INSTANTIATE else "UPDATE",
            conf=self.conf,
        )
        vnfcs.apply_zones(plan.after, final)
        restack.read_servers(vim.heat, vim.nova, state["stack_id"], plan.after)
        result = base.LcmResult(
            instantiated_vnf_info=info.instantiated_vnf_info(
                task, flavour, plan.after, vim.vim_id
            ),
            resource_changes=info.resource_changes(plan, vim.vim_id),
        )
        self._timed(task, vim, started, cpu)
        return result

    @staticmethod
    def _zone_lister(task: base.LcmTask, vim: _Vim):
        """Zones reselection may pick from: the reserved hosts' zones when
        the grant places new VNFCs in a reservation (its flavour boots
        nowhere else), else every zone of the VIM."""
        reserved = vnfcs.reserved_zones(task.grant)
        if reserved is None:
            return vim.nova.zones
        return lambda: list(reserved)

    @staticmethod
    def _check_flavors(vim: _Vim, plan: vnfcs.Plan) -> None:
        """New VNFCs' flavours must exist: a clear 422 before any stack."""
        wanted = {v.flavor for v in plan.added}
        missing = sorted(f for f in wanted if not vim.nova.flavor_exists(f))
        if missing:
            raise os_errors.InvalidRequest(
                reason=f"flavour(s) {', '.join(missing)} not found on the VIM"
            )

    def _mark_unhealthy(self, task, vim: _Vim, stack_id: str, plan) -> None:
        """Heal (and change flavour): have Heat replace these servers."""
        servers = heat.servers_by_vnfc(
            vim.heat.resources(stack_id), plan.recreate
        )
        for name in sorted(plan.recreate):
            server = servers.get(name)
            if server is None:
                continue
            self._free_errored(vim, server.get("physical_resource_id"))
            vim.heat.mark_unhealthy(
                heat.nested_stack_id(server) or stack_id,
                server["resource_name"],
                f"{task.operation} requested by op occ {task.op_occ_id}",
            )
        task.progress["marked"] = True
        task.progress["stack_changed"] = True
        task.save_progress()

    def _free_errored(self, vim: _Vim, server_id: str | None) -> None:
        """A server in ERROR keeps its ports, and Heat creates the
        replacement before it deletes the old server: the new one would
        fail with "Port ... is still in use". Delete it first."""
        if not server_id:
            return
        seen = vim.nova.server(server_id)
        if seen is None or seen["status"] != "ERROR":
            return
        LOG.info("Deleting ERROR server %s before Heat replaces it", server_id)
        vim.nova.delete_server(
            server_id, self.conf.openstack.stack_settle_timeout
        )

    def _outcome(
        self,
        vim: _Vim,
        stack_id: str,
        marker: str | None,
        zones: dict[str, str | None],
        stack: dict,
    ) -> az_reselect.Outcome:
        """Why an attempt failed: Heat's events, plus Nova's fault of
        servers Heat stopped watching (cancelled once another failed) or
        saw in ERROR before Nova recorded the fault ("Message: Unknown")."""
        names = set(zones)
        resources = vim.heat.settle(stack_id)
        events = vim.heat.events_since(stack_id, marker)
        status = {
            r["resource_name"]: r["resource_status"]
            for r in resources
            if not r.get("parent_resource")
        }
        incomplete = {n for n in names if status.get(n) not in COMPLETE}
        pattern = self.conf.placement.az_resource_error_regex
        found = az_errors.failures(events, names, pattern)
        explained = {
            f.vnfc
            for f in found
            if f.vnfc and not f.cancelled and not f.unknown
        }
        servers = heat.servers_by_vnfc(resources, incomplete - explained)
        extra = []
        for name, server in sorted(servers.items()):
            fault = self._nova_fault(
                vim, server.get("physical_resource_id"), zones[name]
            )
            if fault:
                extra.append(
                    {
                        "resource_name": name,
                        "resource_status": "CREATE_FAILED",
                        "resource_status_reason": (
                            f"ResourceInError: resources.{name}.resources."
                            f"{server['resource_name']}: Went to status "
                            f'ERROR due to "Message: {fault}" (from Nova)'
                        ),
                    }
                )
        if extra:
            found = az_errors.failures(events + extra, names, pattern)
        return az_reselect.Outcome(
            ok=False,
            failures=found,
            incomplete=incomplete,
            reason=stack.get("stack_status_reason") or "",
        )

    def _nova_fault(
        self, vim: _Vim, server_id: str | None, zone: str | None
    ) -> str | None:
        """The fault of an ERROR server asked for ``zone``: an older
        server of a VNFC since moved elsewhere says nothing about it.

        A server still in BUILD (Heat stopped watching it when another
        resource failed, Nova is still scheduling it) is waited for,
        bounded by ``[openstack] stack_settle_timeout``: its verdict
        belongs to this attempt, and knowing it now saves an attempt.
        """
        if not server_id:
            return None
        server = vim.nova.server(server_id)
        deadline = time.monotonic() + self.conf.openstack.stack_settle_timeout
        interval = self.conf.openstack.stack_poll_interval
        while (
            server
            and server["status"] == "BUILD"
            and time.monotonic() < deadline
        ):
            interval = vim.heat.pause(interval)
            server = vim.nova.server(server_id)
        if not server or server["status"] != "ERROR":
            return None
        if zone and server["zone"] and server["zone"] != zone:
            return None
        fault = server["fault"]
        return f"{fault.get('message', '')}, Code: {fault.get('code', '')}"
