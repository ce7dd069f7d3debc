"""Reservation plugins, one per Blazar ``resource_type``."""

from tacker_ng.reservation import exceptions
from tacker_ng.reservation.plugins import base, hosts, instances

#: resource_type -> plugin
PLUGINS: dict[str, base.ResourcePlugin] = {
    p.resource_type: p
    for p in (instances.InstancePlugin(), hosts.HostPlugin())
}


def get(resource_type: object) -> base.ResourcePlugin:
    """The plugin of a resource type, or 400 naming the known ones."""
    plugin = PLUGINS.get(resource_type)  # type: ignore[arg-type]
    if plugin is None:
        raise exceptions.InvalidLease(
            reason=f"unsupported resource_type {resource_type!r}; "
            f"supported: {', '.join(sorted(PLUGINS))}"
        )
    return plugin
