"""Nova's response bodies, field by field, as each microversion shows them.

Kept apart from the handlers because the shapes are what clients parse:
python-novaclient turns every key into an attribute, tacker-ng reads
``hypervisor_hostname``, ``service.host``, ``vcpus`` and friends, and the
microversion decides the field set (integer ids before 2.53, ``policy``
instead of ``policies`` from 2.64, embedded flavors from 2.47 ...). The
fields follow nova/api/openstack/compute/views and the api-ref.
"""

from __future__ import annotations

import hashlib
from typing import Any

from tools.simcloud.nova_lite import model
from tools.simcloud.nova_lite.model import (
    Aggregate,
    Cloud,
    Flavor,
    Host,
    Server,
    ServerGroup,
)
from tools.simcloud.nova_lite.router import Request

#: The CPU a simulated hypervisor reports (the shape of libvirt's).
CPU_INFO = {
    "arch": "x86_64",
    "model": "Nehalem",
    "vendor": "Intel",
    "features": ["pge", "clflush"],
    "topology": {"cores": 1, "threads": 1, "sockets": 4},
}


def _links(req: Request, collection: str, item_id: Any) -> list[dict]:
    bookmark = req.root.rsplit("/v2.1", 1)[0]
    return [
        {"rel": "self", "href": f"{req.root}/{collection}/{item_id}"},
        {"rel": "bookmark", "href": f"{bookmark}/{collection}/{item_id}"},
    ]


# -- hypervisors and services ------------------------------------------------
def hypervisor_id(req: Request, host: Host) -> Any:
    return host.node_uuid if req.at_least(2, 53) else host.number


def service_id(req: Request, host: Host) -> Any:
    return host.service_uuid if req.at_least(2, 53) else host.number


def hypervisor(req: Request, host: Host) -> dict[str, Any]:
    return {
        "id": hypervisor_id(req, host),
        "hypervisor_hostname": host.name,
        "state": host.state,
        "status": host.status,
    }


def hypervisor_detail(
    req: Request, cloud: Cloud, host: Host
) -> dict[str, Any]:
    used = cloud.usage(host.name)
    memory_used = used["MEMORY_MB"] + host.reserved_host_memory_mb
    return {
        **hypervisor(req, host),
        "hypervisor_type": "fake",
        "hypervisor_version": 1000,
        "host_ip": "127.0.0.1",
        "service": {
            "id": service_id(req, host),
            "host": host.name,
            "disabled_reason": host.disabled_reason,
        },
        "vcpus": host.vcpus,
        "memory_mb": host.memory_mb,
        "local_gb": host.local_gb,
        "vcpus_used": used["VCPU"],
        "memory_mb_used": memory_used,
        "local_gb_used": used["DISK_GB"],
        "free_ram_mb": host.memory_mb - memory_used,
        "free_disk_gb": host.local_gb - used["DISK_GB"],
        "current_workload": 0,
        "running_vms": len(
            [s for s in cloud.servers_on(host.name) if s.holds_resources]
        ),
        "disk_available_least": host.local_gb - used["DISK_GB"],
        "cpu_info": CPU_INFO if req.at_least(2, 28) else str(CPU_INFO),
    }


def service(req: Request, cloud: Cloud, host: Host) -> dict[str, Any]:
    body = {
        "id": service_id(req, host),
        "binary": "nova-compute",
        "host": host.name,
        "zone": cloud.zone_of(host.name),
        "status": host.status,
        "state": host.state,
        "updated_at": model.dbtime(model.now()),
        "disabled_reason": host.disabled_reason,
    }
    if req.at_least(2, 11):
        body["forced_down"] = host.forced_down
    return body


def control_service(req: Request, binary: str, number: int) -> dict[str, Any]:
    """nova-conductor / nova-scheduler on the controller."""
    body = {
        "id": f"00000000-0000-0000-0000-00000000000{number}"
        if req.at_least(2, 53)
        else 100000 + number,
        "binary": binary,
        "host": "controller",
        "zone": model.INTERNAL_ZONE,
        "status": "enabled",
        "state": "up",
        "updated_at": model.dbtime(model.now()),
        "disabled_reason": None,
    }
    if req.at_least(2, 11):
        body["forced_down"] = False
    return body


# -- aggregates --------------------------------------------------------------
def aggregate(req: Request, agg: Aggregate) -> dict[str, Any]:
    body = {
        "id": agg.id,
        "name": agg.name,
        "hosts": list(agg.hosts),
        "metadata": dict(agg.metadata),
        "created_at": model.dbtime(agg.created_at),
        "updated_at": model.dbtime(agg.updated_at),
        "deleted_at": None,
        "deleted": False,
        "availability_zone": agg.availability_zone,
    }
    if req.at_least(2, 41):
        body["uuid"] = agg.uuid
    return body


# -- flavors -----------------------------------------------------------------
def flavor_brief(req: Request, flavor: Flavor) -> dict[str, Any]:
    body = {
        "id": flavor.id,
        "name": flavor.name,
        "links": _links(req, "flavors", flavor.id),
    }
    if req.at_least(2, 55):
        body["description"] = flavor.description
    return body


def flavor(req: Request, flavor: Flavor) -> dict[str, Any]:
    body = {
        **flavor_brief(req, flavor),
        "ram": flavor.ram,
        "disk": flavor.disk,
        "swap": flavor.swap if (flavor.swap or req.at_least(2, 75)) else "",
        "OS-FLV-EXT-DATA:ephemeral": flavor.ephemeral,
        "OS-FLV-DISABLED:disabled": False,
        "vcpus": flavor.vcpus,
        "os-flavor-access:is_public": flavor.is_public,
        "rxtx_factor": flavor.rxtx_factor,
    }
    if req.at_least(2, 61):
        body["extra_specs"] = dict(flavor.extra_specs)
    return body


def flavor_access(flavor: Flavor) -> dict[str, Any]:
    return {
        "flavor_access": [
            {"flavor_id": flavor.id, "tenant_id": project}
            for project in flavor.projects
        ]
    }


# -- server groups -----------------------------------------------------------
def server_group(req: Request, group: ServerGroup) -> dict[str, Any]:
    body: dict[str, Any] = {"id": group.id, "name": group.name}
    if req.at_least(2, 64):
        body["policy"] = group.policy
        body["rules"] = dict(group.rules)
    else:
        body["policies"] = [group.policy]
        body["metadata"] = {}
    body["members"] = list(group.members)
    if req.at_least(2, 13):
        body["project_id"] = group.project_id
        body["user_id"] = group.user_id
    return body


# -- servers -----------------------------------------------------------------
def server_brief(req: Request, server: Server) -> dict[str, Any]:
    return {
        "id": server.id,
        "name": server.name,
        "links": _links(req, "servers", server.id),
    }


def _server_flavor(req: Request, flavor: Flavor) -> dict[str, Any]:
    if not req.at_least(2, 47):
        return {
            "id": flavor.id,
            "links": _links(req, "flavors", flavor.id)[1:],
        }
    body = {
        "vcpus": flavor.vcpus,
        "ram": flavor.ram,
        "disk": flavor.disk,
        "ephemeral": flavor.ephemeral,
        "swap": flavor.swap,
        "original_name": flavor.name,
    }
    if req.caller.is_admin:
        body["extra_specs"] = dict(flavor.extra_specs)
    return body


def server(req: Request, server: Server) -> dict[str, Any]:
    """A server as ``GET /servers/{id}`` (and ``/servers/detail``)."""
    admin = req.caller.is_admin
    vm_state = {"ACTIVE": "active", "ERROR": "error"}.get(
        server.status, "building"
    )
    body: dict[str, Any] = {
        **server_brief(req, server),
        "accessIPv4": "",
        "accessIPv6": "",
        "addresses": {},
        "created": model.isotime(server.created),
        "flavor": _server_flavor(req, server.flavor),
        "hostId": _host_id(server),
        "image": {"id": server.image, "links": []} if server.image else "",
        "metadata": dict(server.metadata),
        "status": server.status,
        "tenant_id": server.project_id,
        "user_id": server.user_id,
        "updated": model.isotime(server.updated),
        "OS-DCF:diskConfig": "MANUAL",
        "OS-EXT-AZ:availability_zone": server.zone or "",
        "config_drive": "",
        "key_name": server.key_name,
        "OS-SRV-USG:launched_at": model.dbtime(server.created)
        if server.status == "ACTIVE"
        else None,
        "OS-SRV-USG:terminated_at": None,
        "OS-EXT-STS:task_state": None,
        "OS-EXT-STS:vm_state": vm_state,
        "OS-EXT-STS:power_state": 1 if server.status == "ACTIVE" else 0,
        "os-extended-volumes:volumes_attached": [],
        "security_groups": [{"name": "default"}],
    }
    if server.status == "ERROR" and server.fault:
        body["fault"] = dict(server.fault)
    if server.status == "BUILD":
        body["progress"] = 0
    if admin:
        body["OS-EXT-SRV-ATTR:host"] = server.host
        body["OS-EXT-SRV-ATTR:hypervisor_hostname"] = server.host
        body["OS-EXT-SRV-ATTR:instance_name"] = _instance_name(server)
        if req.at_least(2, 3):
            body.update(_extended_attributes(server))
    if req.at_least(2, 9):
        body["locked"] = False
    if req.at_least(2, 16) and server.host:
        body["host_status"] = "UP"
    if req.at_least(2, 19):
        body["description"] = server.description
    if req.at_least(2, 26):
        body["tags"] = []
    if req.at_least(2, 63):
        body["trusted_image_certificates"] = None
    return body


def _extended_attributes(server: Server) -> dict[str, Any]:
    return {
        "OS-EXT-SRV-ATTR:hostname": server.name.lower().replace(" ", "-"),
        "OS-EXT-SRV-ATTR:reservation_id": f"r-{server.id[:8]}",
        "OS-EXT-SRV-ATTR:launch_index": 0,
        "OS-EXT-SRV-ATTR:kernel_id": "",
        "OS-EXT-SRV-ATTR:ramdisk_id": "",
        "OS-EXT-SRV-ATTR:root_device_name": "/dev/vda",
        "OS-EXT-SRV-ATTR:user_data": None,
    }


def _instance_name(server: Server) -> str:
    return f"instance-{server.id[:8]}"


def _host_id(server: Server) -> str:
    """Nova's per-project host hash: equal for servers of one project
    on one host, so a caller can check (anti-)affinity."""
    if not server.host:
        return ""
    text = f"{server.project_id}{server.host}".encode()
    return hashlib.sha224(text).hexdigest()
