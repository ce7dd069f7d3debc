"""The simulated cloud's starting contents and what a caller is told.

Given host specs (``compute-1:zone-a`` or ``compute-1:zone-a:8,16384,160``
for vcpus, MB of RAM, GB of disk), projects and users, :func:`populate`
fills a fresh simulator: projects ``admin`` and ``service`` plus the
given ones, the ``admin`` user (admin everywhere), devstack's public
flavors ``m1.tiny`` to ``m1.large`` (ids 1 to 4), and one aggregate per
zone carrying ``availability_zone``. :func:`ready_info` is the one JSON
document a starter needs: where Keystone is, the admin credentials, the
service project and, ready to copy, the ``[reservation_nova]`` options
of tacker-ng.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tools.simcloud.nova_lite import model
from tools.simcloud.nova_lite.app import Simulator

#: devstack's default flavors: id -> (name, ram MB, disk GB, vcpus)
FLAVORS = {
    "1": ("m1.tiny", 512, 1, 1),
    "2": ("m1.small", 2048, 20, 1),
    "3": ("m1.medium", 4096, 40, 2),
    "4": ("m1.large", 8192, 80, 4),
}
SERVICE_PROJECT = "service"


@dataclasses.dataclass(frozen=True)
class HostSpec:
    name: str
    zone: str | None
    vcpus: int
    memory_mb: int
    local_gb: int


def parse_host(text: str, vcpus: int, memory_mb: int, local_gb: int):
    """``name[:zone[:vcpus,memory_mb,local_gb]]`` -> :class:`HostSpec`."""
    name, _, rest = text.partition(":")
    zone, _, size = rest.partition(":")
    if not name:
        raise ValueError(f"host spec {text!r} has no name")
    if size:
        try:
            vcpus, memory_mb, local_gb = (int(x) for x in size.split(","))
        except ValueError:
            raise ValueError(
                f"host spec {text!r}: size must be vcpus,memory_mb,local_gb"
            ) from None
    return HostSpec(name, zone or None, vcpus, memory_mb, local_gb)


def parse_user(text: str) -> tuple[str, str, str, str]:
    """``name:password:project[:role]`` (role ``member`` by default)."""
    parts = text.split(":")
    if len(parts) not in (3, 4) or not all(parts):
        raise ValueError(f"user spec {text!r} is not name:password:project")
    return (*parts[:3], parts[3] if len(parts) == 4 else "member")


def parse_project(text: str) -> tuple[str, str | None]:
    """``name[=id]``."""
    name, _, project_id = text.partition("=")
    return name, project_id or None


def populate(
    sim: Simulator,
    hosts: list[HostSpec],
    admin_password: str,
    projects: list[tuple[str, str | None]] = (),
    users: list[tuple[str, str, str, str]] = (),
    ratios: dict[str, float] | None = None,
    reserved_host_memory_mb: int = 0,
) -> None:
    ident = sim.identity
    ident.add_project("admin")
    ident.add_project(SERVICE_PROJECT)
    for name, project_id in projects:
        ident.add_project(name, project_id)
    ident.add_user("admin", admin_password, admin=True)
    for name, password, project, role in users:
        ident.add_user(name, password, project, role)
    for flavor_id, (name, ram, disk, vcpus) in FLAVORS.items():
        sim.cloud.flavors[flavor_id] = model.Flavor(
            flavor_id, name, ram, vcpus, disk
        )
    for spec in hosts:
        sim.cloud.add_host(
            spec.name,
            spec.zone,
            spec.vcpus,
            spec.memory_mb,
            spec.local_gb,
            reserved_host_memory_mb=reserved_host_memory_mb,
            **(ratios or {}),
        )


def ready_info(sim: Simulator, admin_password: str) -> dict[str, Any]:
    ident = sim.identity
    auth_url = f"{ident.url}/v3"
    service = ident.project_named(SERVICE_PROJECT)
    admin = ident.project_named("admin")
    credentials = {
        "username": "admin",
        "password": admin_password,
        "user_domain_name": "Default",
        "project_domain_name": "Default",
    }
    return {
        "auth_url": auth_url,
        "region_name": ident.region,
        "compute_url": f"{sim.base_url}/compute/v2.1",
        "placement_url": f"{sim.base_url}/placement",
        "admin": {
            **credentials,
            "project_name": admin.name,
            "project_id": admin.id,
        },
        "service_project": {"name": service.name, "id": service.id},
        "projects": {p.name: p.id for p in ident.projects.values()},
        "hosts": [
            {
                "name": h.name,
                "zone": sim.cloud.zone_of(h.name),
                "vcpus": h.vcpus,
                "memory_mb": h.memory_mb,
                "local_gb": h.local_gb,
            }
            for h in sim.cloud.hosts.values()
        ],
        # tacker-ng's [reservation_nova] section, option by option
        "reservation_nova": {
            "auth_type": "password",
            "auth_url": auth_url,
            **credentials,
            "project_name": service.name,
            "region_name": ident.region,
        },
    }
