"""Placement: the resource providers of the compute hosts.

tacker-ng reads a host's schedulable capacity from here, not from the
hypervisor, as ``(total - reserved) x allocation_ratio`` of VCPU,
MEMORY_MB and DISK_GB; the inventories are the hosts' given sizes and
ratios, and usages are the sums of the flavors of the servers on them,
so what Nova reports and what Placement reports agree.
"""

from __future__ import annotations

from typing import Any

from tools.simcloud.nova_lite import errors
from tools.simcloud.nova_lite.model import Host
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
PREFIX = "/placement"


def _provider(sim, rp_uuid: str) -> Host:
    for host in sim.cloud.hosts.values():
        if host.node_uuid == rp_uuid:
            return host
    text = f"No resource provider with uuid {rp_uuid} found"
    raise errors.placement(404, f"{text} : {text}")


def _allowed(req: Request, rule: str) -> None:
    if not req.caller.is_admin:
        raise errors.placement(
            403, f"Policy does not allow placement:{rule} to be performed."
        )


def _links(req: Request, host: Host) -> list[dict[str, str]]:
    base = f"{PREFIX}/resource_providers/{host.node_uuid}"
    rels = ["inventories", "usages"]
    if req.at_least(1, 1):
        rels.append("aggregates")
    if req.at_least(1, 6):
        rels.append("traits")
    if req.at_least(1, 11):
        rels.append("allocations")
    return [{"rel": "self", "href": base}] + [
        {"rel": rel, "href": f"{base}/{rel}"} for rel in rels
    ]


def provider(req: Request, host: Host) -> dict[str, Any]:
    body: dict[str, Any] = {
        "uuid": host.node_uuid,
        "name": host.name,
        "generation": host.generation,
        "links": _links(req, host),
    }
    if req.at_least(1, 14):
        body["parent_provider_uuid"] = None
        body["root_provider_uuid"] = host.node_uuid
    return body


def inventories(host: Host) -> dict[str, dict[str, Any]]:
    amounts = {
        "VCPU": (host.vcpus, 0, host.cpu_allocation_ratio),
        "MEMORY_MB": (
            host.memory_mb,
            host.reserved_host_memory_mb,
            host.ram_allocation_ratio,
        ),
        "DISK_GB": (host.local_gb, 0, host.disk_allocation_ratio),
    }
    return {
        rc: {
            "total": total,
            "reserved": reserved,
            "min_unit": 1,
            "max_unit": total,
            "step_size": 1,
            "allocation_ratio": ratio,
        }
        for rc, (total, reserved, ratio) in amounts.items()
    }


@routes.add("GET", "/resource_providers", "resource_providers")
def list_providers(sim, req: Request):
    _allowed(req, "resource_providers:list")
    name, rp_uuid = req.arg("name"), req.arg("uuid")
    hosts = [
        h
        for h in sim.cloud.hosts.values()
        if (name is None or h.name == name)
        and (rp_uuid is None or h.node_uuid == rp_uuid)
    ]
    return 200, {"resource_providers": [provider(req, h) for h in hosts]}


@routes.add(
    "GET", "/resource_providers/{rp_uuid}", "resource_providers/{uuid}"
)
def show_provider(sim, req: Request, rp_uuid: str):
    _allowed(req, "resource_providers:show")
    return 200, provider(req, _provider(sim, rp_uuid))


@routes.add("GET", "/resource_providers/{rp_uuid}/inventories", "inventories")
def list_inventories(sim, req: Request, rp_uuid: str):
    _allowed(req, "resource_providers:inventories:list")
    host = _provider(sim, rp_uuid)
    return 200, {
        "resource_provider_generation": host.generation,
        "inventories": inventories(host),
    }


@routes.add(
    "GET", "/resource_providers/{rp_uuid}/inventories/{rc}", "inventories"
)
def show_inventory(sim, req: Request, rp_uuid: str, rc: str):
    _allowed(req, "resource_providers:inventories:show")
    host = _provider(sim, rp_uuid)
    found = inventories(host).get(rc)
    if found is None:
        raise errors.placement(
            404,
            f"No inventory of class {rc} for {rp_uuid}",
        )
    return 200, {**found, "resource_provider_generation": host.generation}


@routes.add("GET", "/resource_providers/{rp_uuid}/usages", "usages")
def list_usages(sim, req: Request, rp_uuid: str):
    _allowed(req, "resource_providers:usages")
    host = _provider(sim, rp_uuid)
    return 200, {
        "resource_provider_generation": host.generation,
        "usages": sim.cloud.usage(host.name),
    }


@routes.add("GET", "/resource_providers/{rp_uuid}/aggregates", "aggregates")
def list_aggregates(sim, req: Request, rp_uuid: str):
    _allowed(req, "resource_providers:aggregates:list")
    host = _provider(sim, rp_uuid)
    if not req.at_least(1, 1):
        raise errors.placement(404, "The resource could not be found.")
    body: dict[str, Any] = {
        "aggregates": [a.uuid for a in sim.cloud.aggregates_of(host.name)]
    }
    if req.at_least(1, 19):
        body["resource_provider_generation"] = host.generation
    return 200, body
