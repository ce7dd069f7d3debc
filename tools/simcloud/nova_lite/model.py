"""The simulated cloud's state: compute hosts, aggregates, flavors, server
groups and servers, in memory behind one lock.

One re-entrant lock guards everything: each request runs its whole
check-and-change under it, so two callers racing (two conductors of
tacker-ng, say) see the serialised outcome a real database would give,
e.g. exactly one of two identical aggregate creations wins and the other
gets the 409. Requests are short, so one lock costs nothing measurable.

Availability zones are what Nova makes of them: a host is in the zone of
an aggregate holding it whose metadata sets ``availability_zone``, else
in the default zone ``nova``. Zones given at start are such aggregates.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import threading
import uuid
from typing import Any

#: Nova's ``[DEFAULT] default_availability_zone``.
DEFAULT_ZONE = "nova"
#: Zone of the services that are not compute services.
INTERNAL_ZONE = "internal"


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0)


def isotime(when: datetime.datetime | None) -> str | None:
    """Nova's ``2026-11-29T06:56:59Z`` (servers)."""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ") if when else None


def dbtime(when: datetime.datetime | None) -> str | None:
    """Nova's ``2026-11-29T06:56:59.000000`` (aggregates, services)."""
    return when.strftime("%Y-%m-%dT%H:%M:%S.000000") if when else None


@dataclasses.dataclass
class Host:
    """A nova-compute service with its one hypervisor (compute node)."""

    name: str
    vcpus: int
    memory_mb: int
    local_gb: int
    #: Integer id of the service and node (microversions < 2.53).
    number: int
    cpu_allocation_ratio: float = 1.0
    ram_allocation_ratio: float = 1.0
    disk_allocation_ratio: float = 1.0
    reserved_host_memory_mb: int = 0
    #: The compute node's uuid, also its resource provider's in Placement.
    node_uuid: str = dataclasses.field(
        default_factory=lambda: str(uuid.uuid4())
    )
    service_uuid: str = dataclasses.field(
        default_factory=lambda: str(uuid.uuid4())
    )
    status: str = "enabled"
    disabled_reason: str | None = None
    forced_down: bool = False
    #: Resource provider generation (bumped by allocation changes).
    generation: int = 1
    created_at: datetime.datetime = dataclasses.field(default_factory=now)

    @property
    def state(self) -> str:
        return "down" if self.forced_down else "up"

    def capacity(self) -> dict[str, int]:
        """Schedulable amounts, as Placement computes them."""
        return {
            "VCPU": int(self.vcpus * self.cpu_allocation_ratio),
            "MEMORY_MB": int(
                (self.memory_mb - self.reserved_host_memory_mb)
                * self.ram_allocation_ratio
            ),
            "DISK_GB": int(self.local_gb * self.disk_allocation_ratio),
        }


@dataclasses.dataclass
class Aggregate:
    id: int
    name: str
    uuid: str = dataclasses.field(default_factory=lambda: str(uuid.uuid4()))
    hosts: list[str] = dataclasses.field(default_factory=list)
    metadata: dict[str, str] = dataclasses.field(default_factory=dict)
    created_at: datetime.datetime = dataclasses.field(default_factory=now)
    updated_at: datetime.datetime | None = None

    @property
    def availability_zone(self) -> str | None:
        return self.metadata.get("availability_zone")


@dataclasses.dataclass
class Flavor:
    id: str
    name: str
    ram: int
    vcpus: int
    disk: int
    swap: int = 0
    ephemeral: int = 0
    rxtx_factor: float = 1.0
    is_public: bool = True
    description: str | None = None
    extra_specs: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Projects a private flavor is shared with.
    projects: list[str] = dataclasses.field(default_factory=list)

    def visible_to(self, project_id: str, admin: bool) -> bool:
        return admin or self.is_public or project_id in self.projects


@dataclasses.dataclass
class ServerGroup:
    id: str
    name: str
    policy: str
    project_id: str
    user_id: str
    rules: dict[str, Any] = dataclasses.field(default_factory=dict)
    members: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Server:
    id: str
    name: str
    project_id: str
    user_id: str
    #: The flavor as it was at boot (Nova keeps a copy on the instance).
    flavor: Flavor
    image: str
    host: str | None
    zone: str | None
    status: str = "ACTIVE"
    fault: dict[str, Any] | None = None
    metadata: dict[str, str] = dataclasses.field(default_factory=dict)
    key_name: str | None = None
    description: str | None = None
    group_id: str | None = None
    created: datetime.datetime = dataclasses.field(default_factory=now)
    updated: datetime.datetime = dataclasses.field(default_factory=now)

    @property
    def holds_resources(self) -> bool:
        """Whether it counts against its host (ERROR ones never landed)."""
        return self.host is not None and self.status != "ERROR"


class Cloud:
    """Everything Nova and Placement know, and the lock around it."""

    def __init__(self, max_limit: int = 1000) -> None:
        #: Nova's ``[api] max_limit``: the largest page of a listing.
        self.max_limit = max_limit
        self.lock = threading.RLock()
        self.hosts: dict[str, Host] = {}
        self.aggregates: dict[int, Aggregate] = {}
        self.flavors: dict[str, Flavor] = {}
        self.server_groups: dict[str, ServerGroup] = {}
        self.servers: dict[str, Server] = {}
        #: Boot order of every server ever made (None once deleted): the
        #: position of a paging marker survives the marker's deletion.
        self.order: list[str | None] = []
        self.position: dict[str, int] = {}
        self._numbers = itertools.count(1)
        self._aggregate_ids = itertools.count(1)

    # -- hosts and zones ---------------------------------------------------
    def add_host(
        self,
        name: str,
        zone: str | None = None,
        vcpus: int = 8,
        memory_mb: int = 16384,
        local_gb: int = 160,
        **ratios: Any,
    ) -> Host:
        """A compute host, put in its zone's aggregate (made if new)."""
        with self.lock:
            host = self.hosts.get(name)
            if host is None:
                host = Host(
                    name,
                    vcpus,
                    memory_mb,
                    local_gb,
                    next(self._numbers),
                    **ratios,
                )
                self.hosts[name] = host
            if zone and zone != self.zone_of(name):
                agg = self.find_aggregate(zone) or self.new_aggregate(
                    zone, {"availability_zone": zone}
                )
                agg.hosts.append(name)
            return host

    def zone_of(self, host: str) -> str:
        with self.lock:
            for agg in self.aggregates.values():
                if host in agg.hosts and agg.availability_zone:
                    return agg.availability_zone
            return DEFAULT_ZONE

    def aggregates_of(self, host: str) -> list[Aggregate]:
        with self.lock:
            return [a for a in self.aggregates.values() if host in a.hosts]

    def usage(self, host: str) -> dict[str, int]:
        """What the servers on a host use (Placement's usages)."""
        used = {"VCPU": 0, "MEMORY_MB": 0, "DISK_GB": 0}
        with self.lock:
            for server in self.servers.values():
                if server.host == host and server.holds_resources:
                    flavor = server.flavor
                    used["VCPU"] += flavor.vcpus
                    used["MEMORY_MB"] += flavor.ram
                    used["DISK_GB"] += (
                        flavor.disk + flavor.ephemeral + flavor.swap // 1024
                    )
        return used

    def servers_on(self, host: str) -> list[Server]:
        with self.lock:
            return [s for s in self.servers.values() if s.host == host]

    # -- aggregates ----------------------------------------------------------
    def find_aggregate(self, name: str) -> Aggregate | None:
        with self.lock:
            for agg in self.aggregates.values():
                if agg.name == name:
                    return agg
            return None

    def new_aggregate(
        self, name: str, metadata: dict[str, str] | None = None
    ) -> Aggregate:
        with self.lock:
            agg = Aggregate(next(self._aggregate_ids), name)
            agg.metadata.update(metadata or {})
            self.aggregates[agg.id] = agg
            return agg

    # -- servers -------------------------------------------------------------
    def add_server(self, server: Server) -> Server:
        with self.lock:
            self.position[server.id] = len(self.order)
            self.order.append(server.id)
            self.servers[server.id] = server
            if server.host in self.hosts:
                self.hosts[server.host].generation += 1
            return server

    def remove_server(self, server_id: str) -> Server | None:
        with self.lock:
            server = self.servers.pop(server_id, None)
            if server is None:
                return None
            self.order[self.position[server_id]] = None
            for group in self.server_groups.values():
                if server_id in group.members:
                    group.members.remove(server_id)
            if server.host in self.hosts:
                self.hosts[server.host].generation += 1
            return server
