"""Where a new server lands: Nova's filter scheduler, reduced to the
filters a reservation depends on.

A reserved instance must land on its reservation's hosts and nowhere
else, and an ordinary one must stay off the freepool; that is the work
of three host-aggregate filters, so they are the ones modelled:

* ComputeFilter: the host's compute service is up and enabled;
* AvailabilityZoneFilter: the requested zone, if any;
* resources as Placement allocates them: free VCPU, MEMORY_MB, DISK_GB;
* AggregateInstanceExtraSpecsFilter: each unscoped or
  ``aggregate_instance_extra_specs:``-scoped extra spec of the flavor
  must be a metadata value of one of the host's aggregates;
* AggregateMultiTenancyIsolation: a host in aggregates with
  ``filter_tenant_id*`` metadata takes only the projects listed there;
* ServerGroup(Anti)AffinityFilter for hard policies; soft ones only
  order the candidates.

Among the hosts left, the one with the most free RAM wins (Nova's
default RAMWeigher spreads), ties broken by name so runs repeat.
"""

from __future__ import annotations

from tools.simcloud.nova_lite.model import Cloud, Flavor, Host, ServerGroup

SCOPE = "aggregate_instance_extra_specs"
#: NoValidHost as the conductor records it in the instance fault.
NO_VALID_HOST = (
    "No valid host was found. There are not enough hosts available."
)


def _metadata(cloud: Cloud, host: str, key: str) -> set[str]:
    values: set[str] = set()
    for agg in cloud.aggregates_of(host):
        if key in agg.metadata:
            values.update(v.strip() for v in agg.metadata[key].split(","))
    return values


def extra_specs_fit(cloud: Cloud, host: str, flavor: Flavor) -> bool:
    for spec, wanted in flavor.extra_specs.items():
        scope, _, rest = spec.partition(":")
        if rest and scope != SCOPE:
            continue
        if wanted.strip() not in _metadata(cloud, host, rest or spec):
            return False
    return True


def tenant_allowed(cloud: Cloud, host: str, project_id: str) -> bool:
    allowed: set[str] = set()
    for agg in cloud.aggregates_of(host):
        for key, value in agg.metadata.items():
            if key.startswith("filter_tenant_id"):
                allowed.update(v.strip() for v in value.split(","))
    return not allowed or project_id in allowed


def resources_fit(cloud: Cloud, host: Host, flavor: Flavor) -> bool:
    used = cloud.usage(host.name)
    need = {
        "VCPU": flavor.vcpus,
        "MEMORY_MB": flavor.ram,
        "DISK_GB": flavor.disk + flavor.ephemeral + flavor.swap // 1024,
    }
    capacity = host.capacity()
    return all(used[rc] + need[rc] <= capacity[rc] for rc in need)


def _group_hosts(cloud: Cloud, group: ServerGroup) -> set[str]:
    return {
        cloud.servers[m].host
        for m in group.members
        if m in cloud.servers and cloud.servers[m].host
    }


def select_host(
    cloud: Cloud,
    flavor: Flavor,
    project_id: str,
    zone: str | None = None,
    group: ServerGroup | None = None,
) -> Host | None:
    """The host a server of ``flavor`` goes to, or None (NoValidHost)."""
    with cloud.lock:
        used = _group_hosts(cloud, group) if group else set()
        candidates = []
        for host in cloud.hosts.values():
            if host.state != "up" or host.status != "enabled":
                continue
            if zone and cloud.zone_of(host.name) != zone:
                continue
            if not resources_fit(cloud, host, flavor):
                continue
            if not extra_specs_fit(cloud, host.name, flavor):
                continue
            if not tenant_allowed(cloud, host.name, project_id):
                continue
            if group and group.policy == "anti-affinity" and host.name in used:
                continue
            if (
                group
                and group.policy == "affinity"
                and used
                and (host.name not in used)
            ):
                continue
            candidates.append(host)

        def weight(host: Host) -> tuple:
            soft = 0
            if group and group.policy == "soft-affinity":
                soft = 0 if host.name in used else 1
            elif group and group.policy == "soft-anti-affinity":
                soft = 1 if host.name in used else 0
            free_ram = (
                host.capacity()["MEMORY_MB"]
                - cloud.usage(host.name)["MEMORY_MB"]
            )
            return (soft, -free_ram, host.name)

        return min(candidates, key=weight, default=None)
