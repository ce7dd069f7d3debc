"""``servers``: boot, list (paged, filtered), show and delete.

Booting schedules at once (:mod:`scheduler`): the server is ACTIVE on
the chosen host, or ERROR with Nova's NoValidHost fault when no host
passes the filters, so a user sees in seconds whether a reserved
instance fits its reservation. There is no Glance or Neutron behind it:
``imageRef`` is kept as given and servers have no addresses.

Listings are Nova's: newest first, ``limit`` capped at ``max_limit``,
``marker`` paging with a ``servers_links`` next link when a page is
full, ``all_tenants`` for admins only (403 otherwise, which tacker-ng's
observer falls back on), filters by ``flavor``, ``host``, ``status``,
``name`` (a regular expression), ``image``, ``project_id`` and
``availability_zone``.
"""

from __future__ import annotations

import re
import secrets
import urllib.parse
import uuid
from typing import Any

from tools.simcloud.nova_lite import errors, model, scheduler, views
from tools.simcloud.nova_lite.flavors_api import get_flavor
from tools.simcloud.nova_lite.model import Server
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
_RULE = "os_compute_api:servers"
_STATUSES = {"ACTIVE", "BUILD", "ERROR", "DELETED", "SHUTOFF", "PAUSED"}
#: Filters a member may use; the others are dropped, as by Nova.
_MEMBER_FILTERS = {"name", "status", "image", "flavor", "reservation_id"}
_ADMIN_FILTERS = _MEMBER_FILTERS | {
    "host",
    "node",
    "project_id",
    "tenant_id",
    "availability_zone",
    "user_id",
    "uuid",
    "key_name",
    "deleted",
}
#: Every query parameter of Nova's server list schema (2.75 rejects any
#: other); those not in the filter sets above are accepted and ignored.
_KNOWN = {
    "access_ip_v4",
    "access_ip_v6",
    "all_tenants",
    "architecture",
    "auto_disk_config",
    "availability_zone",
    "changes-before",
    "changes-since",
    "config_drive",
    "created_at",
    "default_swap_device",
    "deleted",
    "description",
    "display_description",
    "display_name",
    "ephemeral_gb",
    "flavor",
    "host",
    "hostname",
    "image",
    "image_ref",
    "ip",
    "ip6",
    "kernel_id",
    "key_name",
    "launch_index",
    "launched_at",
    "limit",
    "locked",
    "locked_by",
    "marker",
    "name",
    "node",
    "not-tags",
    "not-tags-any",
    "power_state",
    "progress",
    "project_id",
    "ramdisk_id",
    "reservation_id",
    "root_device_name",
    "shutdown_terminate",
    "soft_deleted",
    "sort_dir",
    "sort_key",
    "status",
    "tags",
    "tags-any",
    "task_state",
    "tenant_id",
    "terminated_at",
    "user_id",
    "uuid",
    "vm_state",
}


def _visible(sim, req: Request, server_id: str) -> Server:
    server = sim.cloud.servers.get(server_id)
    caller = req.caller
    if server is None or (
        not caller.is_admin and server.project_id != caller.project_id
    ):
        raise errors.not_found(f"Instance {server_id} could not be found.")
    return server


def _filters(req: Request, detail: bool) -> dict[str, str]:
    caller = req.caller
    query = {k: v[-1] for k, v in req.query.items()}
    if req.at_least(2, 75):
        unknown = sorted(set(query) - _KNOWN)
        if unknown:
            raise errors.bad_request(
                f"Invalid input for query parameters {unknown[0]}. Value: "
                f"{query[unknown[0]]}. Additional properties are not "
                f"allowed ('{unknown[0]}' was unexpected)"
            )
    everyone = "all_tenants" in query and query["all_tenants"].lower() not in (
        "false",
        "0",
        "no",
        "off",
    )
    if everyone and not caller.is_admin:
        raise errors.policy(
            f"{_RULE}:{'detail' if detail else 'index'}:get_all_tenants"
        )
    allowed = _ADMIN_FILTERS if caller.is_admin else _MEMBER_FILTERS
    filters = {k: v for k, v in query.items() if k in allowed}
    if "tenant_id" in filters:
        filters["project_id"] = filters.pop("tenant_id")
    if not everyone:
        filters["project_id"] = caller.project_id
    status = filters.get("status", "ACTIVE").upper()
    if status not in _STATUSES and req.at_least(2, 38):
        raise errors.bad_request("Invalid status value")
    return filters


def _matches(server: Server, filters: dict[str, str]) -> bool:
    checks = {
        "project_id": server.project_id,
        "flavor": server.flavor.id,
        "host": server.host,
        "node": server.host,
        "image": server.image,
        "availability_zone": server.zone,
        "reservation_id": f"r-{server.id[:8]}",
        "user_id": server.user_id,
        "uuid": server.id,
        "key_name": server.key_name,
    }
    for key, wanted in filters.items():
        if key == "deleted":
            # deleted servers are gone at once: none to show
            if wanted.lower() in ("true", "1", "yes", "on"):
                return False
        elif key == "status":
            if server.status != wanted.upper():
                return False
        elif key == "name":
            try:
                if not re.search(wanted, server.name):
                    return False
            except re.error:
                return False
        elif checks.get(key) != wanted:
            return False
    return True


def _listing(sim, req: Request, detail: bool) -> dict[str, Any]:
    cloud = sim.cloud
    filters = _filters(req, detail)
    limit = cloud.max_limit
    raw = req.arg("limit")
    if raw is not None:
        if not raw.isdigit():
            raise errors.bad_request("limit param must be an integer")
        limit = min(int(raw), cloud.max_limit)
    position = len(cloud.order)
    marker = req.arg("marker")
    if marker is not None:
        if marker not in cloud.position:
            raise errors.bad_request(f"marker [{marker}] not found")
        position = cloud.position[marker]
    found: list[Server] = []
    while position > 0 and len(found) < limit:
        position -= 1
        server_id = cloud.order[position]
        server = cloud.servers.get(server_id) if server_id else None
        if server is not None and _matches(server, filters):
            found.append(server)
    render = views.server if detail else views.server_brief
    kind = "servers/detail" if detail else "servers"
    body: dict[str, Any] = {"servers": [render(req, s) for s in found]}
    if found and len(found) == limit:
        params = {k: v[-1] for k, v in req.query.items()}
        params.update(limit=str(limit), marker=found[-1].id)
        body["servers_links"] = [
            {
                "rel": "next",
                "href": f"{req.root}/{kind}?{urllib.parse.urlencode(params)}",
            }
        ]
    return body


@routes.add("GET", "/servers", "servers")
def list_servers(sim, req: Request):
    return 200, _listing(sim, req, detail=False)


@routes.add("GET", "/servers/detail", "servers/detail")
def list_servers_detail(sim, req: Request):
    return 200, _listing(sim, req, detail=True)


@routes.add("GET", "/servers/{server_id}", "servers/{id}")
def show_server(sim, req: Request, server_id: str):
    return 200, {"server": views.server(req, _visible(sim, req, server_id))}


@routes.add("DELETE", "/servers/{server_id}", "servers/{id}")
def delete_server(sim, req: Request, server_id: str):
    server = _visible(sim, req, server_id)
    sim.cloud.remove_server(server.id)
    return 204, None


@routes.add("POST", "/servers", "servers")
def create_server(sim, req: Request):
    body = req.json("server")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 255:
        raise errors.invalid_input("name", name, "is not a valid name")
    if "flavorRef" not in body:
        raise errors.bad_request(
            "Invalid input for field/attribute server. Value: "
            f"{body}. 'flavorRef' is a required property"
        )
    if req.at_least(2, 37) and "networks" not in body:
        raise errors.bad_request(
            "Invalid input for field/attribute server. Value: "
            f"{body}. 'networks' is a required property"
        )
    flavor_ref = str(body["flavorRef"]).rstrip("/").rsplit("/", 1)[-1]
    try:
        flavor = get_flavor(sim, req, flavor_ref)
    except errors.ApiError:
        raise errors.bad_request(
            f"Flavor {flavor_ref} could not be found."
        ) from None
    zone, forced = _zone(sim, req, body.get("availability_zone"))
    hints = (req.body or {}).get("os:scheduler_hints") or {}
    group = None
    if hints.get("group"):
        group = sim.cloud.server_groups.get(hints["group"])
        if group is None:
            raise errors.bad_request(
                f"Instance group {hints['group']} could not be found."
            )
    count = body.get("max_count", body.get("min_count", 1))
    if not isinstance(count, int) or count < 1:
        raise errors.invalid_input(
            "max_count", count, f"{count} is less than the minimum of 1"
        )
    made = [
        _boot(sim, req, body, flavor, zone, forced, group, index, count)
        for index in range(count)
    ]
    first = made[0]
    return 202, {
        "server": {
            "id": first.id,
            "links": views.server_brief(req, first)["links"],
            "OS-DCF:diskConfig": "MANUAL",
            "security_groups": [{"name": "default"}],
            "adminPass": secrets.token_urlsafe(9),
        }
    }


def _zone(sim, req: Request, value: Any) -> tuple[str | None, str | None]:
    """(zone, forced host) of ``availability_zone`` (``zone[:host]``)."""
    if not value:
        return None, None
    zone, _, host = str(value).partition(":")
    if host:
        req.admin_only(f"{_RULE}:create:forced_host")
        if host not in sim.cloud.hosts:
            raise errors.bad_request(
                f"Compute host {host} could not be found."
            )
        return zone or None, host
    zones = {sim.cloud.zone_of(h) for h in sim.cloud.hosts}
    if zone not in zones:
        raise errors.bad_request(
            "The requested availability zone is not available"
        )
    return zone, None


def _boot(sim, req, body, flavor, zone, forced, group, index, count):
    cloud = sim.cloud
    caller = req.caller
    if forced:
        host = cloud.hosts[forced]
    else:
        host = scheduler.select_host(
            cloud, flavor, caller.project_id, zone, group
        )
    name = body["name"] if count == 1 else f"{body['name']}-{index + 1}"
    server = Server(
        id=str(uuid.uuid4()),
        name=name,
        project_id=caller.project_id,
        user_id=caller.user_id,
        flavor=model.Flavor(
            **{
                **vars(flavor),
                "extra_specs": dict(flavor.extra_specs),
                "projects": [],
            }
        ),
        image=str(body.get("imageRef") or ""),
        host=host.name if host else None,
        zone=zone or (cloud.zone_of(host.name) if host else None),
        metadata=dict(body.get("metadata") or {}),
        key_name=body.get("key_name"),
        description=body.get("description"),
        group_id=group.id if group else None,
    )
    if host is None:
        server.status = "ERROR"
        server.fault = {
            "code": 500,
            "created": model.isotime(model.now()),
            "message": scheduler.NO_VALID_HOST,
        }
    elif group is not None:
        group.members.append(server.id)
    return cloud.add_server(server)
