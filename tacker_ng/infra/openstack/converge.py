"""Bring a VNF's stack to a plan's VNFC set, reselecting zones on failure.

The one stack create/update path of instantiate, scale, heal, change of
flavour and the re-scale of a revert to snapshot: each attempt is kept
in the op occ's progress; when a zone lacks capacity ("No valid host"),
the VNFCs the operation places (``Plan.movable``) move to other zones
(:mod:`.az_reselect`), the others stay where they run.
"""

import dataclasses
import time
from typing import Protocol

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.openstack import (
    az_reselect,
    errors,
    heat,
    host_keys,
    hot,
    info,
    nova,
    restack,
    tacker_params,
    vnfcs,
)
from tacker_ng.objects.vnfd import DeploymentFlavour
from tacker_ng.placement import az_errors, az_select

LOG = logging.getLogger(__name__)
COMPLETE = ("CREATE_COMPLETE", "UPDATE_COMPLETE")


class Clients(Protocol):
    """The VIM clients the stack path uses (the driver's ``_Vim``)."""

    heat: heat.Heat
    nova: nova.Nova


@dataclasses.dataclass
class Stack:
    """The stack to change and the SSH host keys its servers get."""

    name: str
    #: None: the stack is created (instantiate).
    id: str | None
    managed: set[str]
    keys: dict[str, host_keys.HostKey]


def apply(
    vim: Clients,
    task: base.LcmTask,
    flavour: DeploymentFlavour,
    plan: vnfcs.Plan,
    stack: Stack,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> str:
    """Create or update the stack to ``plan.after``; those VNFCs get the
    zones and servers they ended on. Returns the stack id."""
    tacker_params.check_request_user_data(task)
    top, files = hot.load(task.package_root, flavour)
    top = tacker_params.order_subnets(
        tacker_params.apply_managed_vls(
            top, tacker_params.managed_networks(task)
        )
    )
    networks = info.cp_networks(task)
    progress = task.progress
    if stack.id:
        vim.heat.wait(stack.id)  # a retry after a timeout: let it end
    check_flavors(vim.nova, plan)
    assignment = {v.name: v.zone for v in plan.after}
    assignment.update(progress.get("assignment") or {})
    if plan.recreate and stack.id and not progress.get("marked"):
        mark_unhealthy(vim, task, stack.id, plan, conf)
    state = {"stack_id": stack.id}

    def attempt(zones: dict[str, str | None]) -> az_reselect.Outcome:
        vnfcs.apply_zones(plan.after, zones)
        template, stack_files = hot.join_server_groups(
            hot.expand(top, flavour, plan.after),
            files,
            plan.after,
            flavour,
            conf.placement.fallback_best_effort,
        )
        template, stack_files = host_keys.inject(
            template, stack_files, plan.after, stack.managed, stack.keys
        )
        nfv = hot.nfv_parameter(flavour, plan.after, networks, template)
        params = {
            "nfv": tacker_params.complete_nfv(nfv, task, flavour, template)
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
                stack.name, template, stack_files, params
            )
            progress["stack_id"] = state["stack_id"]
        else:
            marker = vim.heat.last_event_id(state["stack_id"])
            progress["stack_changed"] = True
            task.save_progress()
            vim.heat.update(state["stack_id"], template, stack_files, params)
        task.save_progress()
        seen = vim.heat.wait(state["stack_id"])
        record["status"] = seen["stack_status"]
        record["reason"] = (seen.get("stack_status_reason") or "")[:500]
        record["observed_at"] = round(vim.heat.last_seen_at, 3)
        task.save_progress()
        if seen["stack_status"] in COMPLETE:
            return az_reselect.Outcome(ok=True)
        return outcome(vim, state["stack_id"], marker, zones, seen, conf)

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
        list_zones=zone_lister(task, vim.nova),
        on_change=remember,
        stack=stack.name,
        action="UPDATE" if stack.id else "CREATE",
        conf=conf,
    )
    vnfcs.apply_zones(plan.after, final)
    stack_id = state["stack_id"]
    assert stack_id is not None  # noqa: S101 - set by the first attempt
    restack.read_servers(vim.heat, vim.nova, stack_id, plan.after)
    return stack_id


def zone_lister(task: base.LcmTask, client: nova.Nova):
    """Zones reselection may pick from: the reserved hosts' zones when
    the grant places new VNFCs in a reservation (its flavour boots
    nowhere else), else every zone of the VIM."""
    reserved = vnfcs.reserved_zones(task.grant)
    if reserved is None:
        return client.zones
    return lambda: list(reserved)


def check_flavors(client: nova.Nova, plan: vnfcs.Plan) -> None:
    """New VNFCs' flavours must exist: a clear 422 before any stack."""
    wanted = {v.flavor for v in plan.added}
    missing = sorted(f for f in wanted if not client.flavor_exists(f))
    if missing:
        raise errors.InvalidRequest(
            reason=f"flavour(s) {', '.join(missing)} not found on the VIM"
        )


def mark_unhealthy(
    vim: Clients,
    task: base.LcmTask,
    stack_id: str,
    plan: vnfcs.Plan,
    conf: cfg.ConfigOpts,
) -> None:
    """Heal (and change flavour): have Heat replace these servers."""
    servers = heat.servers_by_vnfc(vim.heat.resources(stack_id), plan.recreate)
    for name in sorted(plan.recreate):
        server = servers.get(name)
        if server is None:
            continue
        _free_errored(vim.nova, server.get("physical_resource_id"), conf)
        vim.heat.mark_unhealthy(
            heat.nested_stack_id(server) or stack_id,
            server["resource_name"],
            f"{task.operation} requested by op occ {task.op_occ_id}",
        )
    task.progress["marked"] = True
    task.progress["stack_changed"] = True
    task.save_progress()


def _free_errored(
    client: nova.Nova, server_id: str | None, conf: cfg.ConfigOpts
) -> None:
    """A server in ERROR keeps its ports, and Heat creates the
    replacement before it deletes the old server: the new one would
    fail with "Port ... is still in use". Delete it first."""
    if not server_id:
        return
    seen = client.server(server_id)
    if seen is None or seen["status"] != "ERROR":
        return
    LOG.info("Deleting ERROR server %s before Heat replaces it", server_id)
    client.delete_server(server_id, conf.openstack.stack_settle_timeout)


def outcome(
    vim: Clients,
    stack_id: str,
    marker: str | None,
    zones: dict[str, str | None],
    stack: dict,
    conf: cfg.ConfigOpts = cfg.CONF,
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
    pattern = conf.placement.az_resource_error_regex
    found = az_errors.failures(events, names, pattern)
    explained = {
        f.vnfc for f in found if f.vnfc and not f.cancelled and not f.unknown
    }
    servers = heat.servers_by_vnfc(resources, incomplete - explained)
    extra = []
    for name, server in sorted(servers.items()):
        fault = nova_fault(
            vim, server.get("physical_resource_id"), zones[name], conf
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


def nova_fault(
    vim: Clients,
    server_id: str | None,
    zone: str | None,
    conf: cfg.ConfigOpts = cfg.CONF,
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
    deadline = time.monotonic() + conf.openstack.stack_settle_timeout
    interval = conf.openstack.stack_poll_interval
    while (
        server and server["status"] == "BUILD" and time.monotonic() < deadline
    ):
        interval = vim.heat.pause(interval)
        server = vim.nova.server(server_id)
    if not server or server["status"] != "ERROR":
        return None
    if zone and server["zone"] and server["zone"] != zone:
        return None
    fault = server["fault"]
    return f"{fault.get('message', '')}, Code: {fault.get('code', '')}"
