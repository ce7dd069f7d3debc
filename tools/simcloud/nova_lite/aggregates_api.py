"""``os-aggregates``: the host aggregates the reservation service builds
(the freepool, one per reservation) and the zones made of them.

Nova's rules that a caller can trip over are kept: names are unique
(409), a host is in at most one availability zone (adding it to an
aggregate of another zone, or giving an aggregate a zone some of its
hosts are already in elsewhere, fails in Nova's words), only an empty
aggregate can be deleted, and ``set_metadata`` with a null value removes
the key. Creation answers 200 without hosts and metadata, as Nova does.
"""

from __future__ import annotations

from typing import Any

from tools.simcloud.nova_lite import errors, model, views
from tools.simcloud.nova_lite.model import Aggregate
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
_RULE = "os_compute_api:os-aggregates"


def _get(sim, agg_id: str) -> Aggregate:
    if not agg_id.lstrip("-").isdigit():
        raise errors.bad_request(
            "Invalid input received: id must be an integer"
        )
    agg = sim.cloud.aggregates.get(int(agg_id))
    if agg is None:
        raise errors.not_found(f"Aggregate {agg_id} could not be found.")
    return agg


def _name(value: Any, field: str = "name") -> str:
    if not isinstance(value, str):
        raise errors.invalid_input(
            field, value, f"{value!r} is not of type 'string'"
        )
    if not value.strip() or len(value) > 255 or value != value.strip():
        raise errors.invalid_input(
            field, value, f"{value!r} is not a valid {field}"
        )
    return value


def _zone_conflicts(sim, agg: Aggregate, zone: str, hosts: list[str]):
    """Zones other aggregates put ``hosts`` in, other than ``zone``."""
    return [
        other.availability_zone
        for other in sim.cloud.aggregates.values()
        if other.id != agg.id
        and other.availability_zone
        and other.availability_zone != zone
        and set(other.hosts) & set(hosts)
    ]


@routes.add("GET", "/os-aggregates", "os-aggregates")
def list_aggregates(sim, req: Request):
    req.admin_only(f"{_RULE}:index")
    return 200, {
        "aggregates": [
            views.aggregate(req, a) for a in sim.cloud.aggregates.values()
        ]
    }


@routes.add("POST", "/os-aggregates", "os-aggregates")
def create_aggregate(sim, req: Request):
    req.admin_only(f"{_RULE}:create")
    body = req.json("aggregate")
    name = _name(body.get("name"))
    zone = body.get("availability_zone")
    if zone is not None:
        zone = _name(zone, "availability_zone")
    if sim.cloud.find_aggregate(name):
        raise errors.conflict(f"Aggregate {name} already exists.")
    agg = sim.cloud.new_aggregate(
        name, {"availability_zone": zone} if zone else None
    )
    shown = views.aggregate(req, agg)
    del shown["hosts"], shown["metadata"]
    return 200, {"aggregate": shown}


@routes.add("GET", "/os-aggregates/{agg_id}", "os-aggregates/{id}")
def show_aggregate(sim, req: Request, agg_id: str):
    req.admin_only(f"{_RULE}:show")
    return 200, {"aggregate": views.aggregate(req, _get(sim, agg_id))}


@routes.add("PUT", "/os-aggregates/{agg_id}", "os-aggregates/{id}")
def update_aggregate(sim, req: Request, agg_id: str):
    req.admin_only(f"{_RULE}:update")
    body = req.json("aggregate")
    agg = _get(sim, agg_id)
    if "name" in body:
        name = _name(body["name"])
        other = sim.cloud.find_aggregate(name)
        if other is not None and other.id != agg.id:
            raise errors.conflict(f"Aggregate {name} already exists.")
        agg.name = name
    if body.get("availability_zone"):
        _set_zone(sim, agg, body["availability_zone"], "Cannot update")
    agg.updated_at = model.now()
    return 200, {"aggregate": views.aggregate(req, agg)}


def _set_zone(sim, agg: Aggregate, zone: str, action: str) -> None:
    conflicts = _zone_conflicts(sim, agg, zone, agg.hosts)
    if conflicts:
        raise errors.bad_request(
            f"{action} aggregate {agg.id}. Reason: One or more hosts "
            f"already in availability zone(s) {conflicts}."
        )
    if agg.availability_zone != zone and any(
        sim.cloud.servers_on(h) for h in agg.hosts
    ):
        raise errors.bad_request(
            f"{action} aggregate {agg.id}. Reason: One or more hosts "
            "contain instances in this zone."
        )
    agg.metadata["availability_zone"] = zone


@routes.add("DELETE", "/os-aggregates/{agg_id}", "os-aggregates/{id}")
def delete_aggregate(sim, req: Request, agg_id: str):
    req.admin_only(f"{_RULE}:delete")
    agg = _get(sim, agg_id)
    if agg.hosts:
        raise errors.bad_request(
            f"Cannot remove host from aggregate {agg.id}. Reason: Host "
            "aggregate is not empty."
        )
    del sim.cloud.aggregates[agg.id]
    return 200, None


@routes.add("POST", "/os-aggregates/{agg_id}/action", "os-aggregates/action")
def aggregate_action(sim, req: Request, agg_id: str):
    body = req.body if isinstance(req.body, dict) else {}
    actions = {
        "add_host": _add_host,
        "remove_host": _remove_host,
        "set_metadata": _set_metadata,
    }
    known = [name for name in body if name in actions]
    if len(known) != 1 or len(body) != 1:
        raise errors.bad_request(
            "There is no such action: " + ", ".join(sorted(body))
        )
    req.admin_only(f"{_RULE}:{known[0]}")
    agg = _get(sim, agg_id)
    actions[known[0]](sim, agg, req.json(known[0]))
    return 200, {"aggregate": views.aggregate(req, agg)}


def _add_host(sim, agg: Aggregate, body: dict) -> None:
    host = _name(body.get("host"), "host")
    if host not in sim.cloud.hosts:
        raise errors.not_found(f"Compute host {host} could not be found.")
    zone = agg.availability_zone
    if zone:
        conflicts = _zone_conflicts(sim, agg, zone, [host])
        if conflicts:
            raise errors.conflict(
                f"Cannot add host to aggregate {agg.id}. Reason: One or "
                f"more hosts already in availability zone(s) {conflicts}."
            )
        old = sim.cloud.zone_of(host)
        old = None if old == model.DEFAULT_ZONE else old
        servers = sim.cloud.servers_on(host)
        if servers and old != zone:
            raise errors.conflict(
                f"Cannot add host to aggregate {agg.id}. Reason: The host "
                "cannot be added to the aggregate as the availability zone "
                f"of the host would change from '{old}' to '{zone}' but the "
                f"host already has {len(servers)} instance(s). Changing the "
                "AZ of an existing instance is not supported by this action. "
                "Move the instances away from this host then try again. If "
                "you need to move the instances between AZs then you can "
                "use shelve_offload and unshelve to achieve this."
            )
    if host in agg.hosts:
        raise errors.conflict(f"Aggregate {agg.id} already has host {host}.")
    agg.hosts.append(host)


def _remove_host(sim, agg: Aggregate, body: dict) -> None:
    host = _name(body.get("host"), "host")
    if host not in agg.hosts:
        raise errors.not_found(
            f"Cannot remove host {host} in aggregate {agg.id}"
        )
    agg.hosts.remove(host)


def _set_metadata(sim, agg: Aggregate, body: dict) -> None:
    metadata = body.get("metadata")
    if not isinstance(metadata, dict):
        raise errors.invalid_input(
            "metadata", metadata, f"{metadata!r} is not of type 'object'"
        )
    for key, value in metadata.items():
        if value is not None and not isinstance(value, str):
            raise errors.invalid_input(
                key, value, f"{value!r} is not of type 'string', 'null'"
            )
    if "availability_zone" in metadata:
        zone = metadata["availability_zone"]
        if not zone:
            raise errors.bad_request(
                f"Cannot update metadata of aggregate {agg.id}. Reason: "
                f"Aggregate {agg.name} does not support empty named "
                "availability zone."
            )
        _set_zone(sim, agg, zone, "Cannot update metadata of")
    for key, value in metadata.items():
        if value is None:
            agg.metadata.pop(key, None)
        else:
            agg.metadata[key] = value
    agg.updated_at = model.now()
