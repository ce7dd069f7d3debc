"""``flavors``, their extra specs and their access lists.

A reservation becomes a private flavor shared with the lease's project
and carrying extra specs that pin it to the reservation's aggregate, so
flavor visibility is modelled as in Nova: a private flavor is seen (and
booted) only by admins and the projects on its access list, and adding
a project to a public flavor is a 409.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from tools.simcloud.nova_lite import errors, views
from tools.simcloud.nova_lite.model import Flavor
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
_MANAGE = "os_compute_api:os-flavor-manage"
_SPECS = "os_compute_api:os-flavor-extra-specs"
_ACCESS = "os_compute_api:os-flavor-access"
_ID = re.compile(r"^(?! )[a-zA-Z0-9. _-]+(?<! )$")
_SPEC_KEY = re.compile(r"^[a-zA-Z0-9-_:. ]{1,255}$")


def get_flavor(sim, req: Request, flavor_id: str) -> Flavor:
    """A flavor the caller may see, or Nova's 404."""
    flavor = sim.cloud.flavors.get(flavor_id)
    if flavor is None or not flavor.visible_to(
        req.caller.project_id, req.caller.is_admin
    ):
        raise errors.not_found(f"Flavor {flavor_id} could not be found.")
    return flavor


def _bool(value: str, what: str) -> bool | None:
    text = value.strip().lower()
    if text in ("none", ""):
        return None
    if text in ("true", "1", "yes", "on", "t", "y"):
        return True
    if text in ("false", "0", "no", "off", "f", "n"):
        return False
    raise errors.bad_request(f"Invalid {what} filter [{value}]")


def _listed(sim, req: Request) -> list[Flavor]:
    caller = req.caller
    wanted = _bool(req.arg("is_public", "true"), "is_public")
    if not caller.is_admin:
        wanted = True  # the default policy shows members public + shared
    flavors = []
    for flavor in sim.cloud.flavors.values():
        shared = flavor.is_public or caller.project_id in flavor.projects
        if (
            wanted is None
            or (wanted and shared)
            or (wanted is False and not flavor.is_public)
        ):
            flavors.append(flavor)
    for param, attr in (("minRam", "ram"), ("minDisk", "disk")):
        value = req.arg(param)
        if value is not None:
            if not value.isdigit():
                raise errors.bad_request(f"Invalid {param} filter [{value}]")
            flavors = [f for f in flavors if getattr(f, attr) >= int(value)]
    flavors.sort(key=lambda f: f.id)
    marker = req.arg("marker")
    if marker is not None:
        ids = [f.id for f in flavors]
        if marker not in ids:
            raise errors.bad_request(f"marker [{marker}] not found")
        flavors = flavors[ids.index(marker) + 1 :]
    limit = req.arg("limit")
    if limit is not None and limit.isdigit():
        flavors = flavors[: min(int(limit), sim.cloud.max_limit)]
    return flavors


@routes.add("GET", "/flavors", "flavors")
def list_flavors(sim, req: Request):
    return 200, {
        "flavors": [views.flavor_brief(req, f) for f in _listed(sim, req)]
    }


@routes.add("GET", "/flavors/detail", "flavors/detail")
def list_flavors_detail(sim, req: Request):
    return 200, {"flavors": [views.flavor(req, f) for f in _listed(sim, req)]}


@routes.add("GET", "/flavors/{flavor_id}", "flavors/{id}")
def show_flavor(sim, req: Request, flavor_id: str):
    return 200, {"flavor": views.flavor(req, get_flavor(sim, req, flavor_id))}


def _count(body: dict, field: str, minimum: int, default: int | None) -> int:
    value = body.get(field, default)
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.invalid_input(
            field, value, f"{value!r} is not of type 'integer', 'string'"
        )
    if value < minimum:
        raise errors.invalid_input(
            field, value, f"{value} is less than the minimum of {minimum}"
        )
    return value


@routes.add("POST", "/flavors", "flavors")
def create_flavor(sim, req: Request):
    req.admin_only(f"{_MANAGE}:create")
    body = req.json("flavor")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 255:
        raise errors.invalid_input("name", name, "is not a valid name")
    flavor_id = body.get("id") or str(uuid.uuid4())
    if not isinstance(flavor_id, str) or not _ID.match(flavor_id):
        raise errors.invalid_input(
            "id", flavor_id, f"{flavor_id!r} does not match '{_ID.pattern}'"
        )
    public = body.get("os-flavor-access:is_public", True)
    if not isinstance(public, bool):
        raise errors.invalid_input(
            "os-flavor-access:is_public",
            public,
            f"{public!r} is not of type 'boolean'",
        )
    flavor = Flavor(
        id=flavor_id,
        name=name,
        ram=_count(body, "ram", 1, None),
        vcpus=_count(body, "vcpus", 1, None),
        disk=_count(body, "disk", 0, None),
        swap=_count(body, "swap", 0, 0) if body.get("swap") != "" else 0,
        ephemeral=_count(body, "OS-FLV-EXT-DATA:ephemeral", 0, 0),
        rxtx_factor=float(body.get("rxtx_factor", 1.0)),
        is_public=public,
        description=body.get("description") if req.at_least(2, 55) else None,
    )
    if any(f.name == name for f in sim.cloud.flavors.values()):
        raise errors.conflict(f"Flavor with name {name} already exists.")
    if flavor_id in sim.cloud.flavors:
        raise errors.conflict(f"Flavor with ID {flavor_id} already exists.")
    sim.cloud.flavors[flavor_id] = flavor
    return 200, {"flavor": views.flavor(req, flavor)}


@routes.add("DELETE", "/flavors/{flavor_id}", "flavors/{id}")
def delete_flavor(sim, req: Request, flavor_id: str):
    req.admin_only(f"{_MANAGE}:delete")
    get_flavor(sim, req, flavor_id)
    del sim.cloud.flavors[flavor_id]
    return 202, None


# -- extra specs ------------------------------------------------------------
def _spec_values(specs: Any) -> dict[str, str]:
    if not isinstance(specs, dict):
        raise errors.invalid_input(
            "extra_specs", specs, f"{specs!r} is not of type 'object'"
        )
    out = {}
    for key, value in specs.items():
        if not _SPEC_KEY.match(key):
            raise errors.bad_request(
                "Invalid input for field/attribute extra_specs. Value: "
                f"{specs}. '{key}' does not match any of the regexes: "
                f"'{_SPEC_KEY.pattern}'"
            )
        if not isinstance(value, str | int | float | bool) or (
            len(str(value)) > 255
        ):
            raise errors.invalid_input(
                key, value, f"{value!r} is not a valid extra spec value"
            )
        out[key] = str(value)
    return out


@routes.add("GET", "/flavors/{flavor_id}/os-extra_specs", "os-extra_specs")
def list_specs(sim, req: Request, flavor_id: str):
    flavor = get_flavor(sim, req, flavor_id)
    return 200, {"extra_specs": dict(flavor.extra_specs)}


@routes.add("POST", "/flavors/{flavor_id}/os-extra_specs", "os-extra_specs")
def create_specs(sim, req: Request, flavor_id: str):
    req.admin_only(f"{_SPECS}:create")
    specs = _spec_values((req.body or {}).get("extra_specs"))
    flavor = get_flavor(sim, req, flavor_id)
    flavor.extra_specs.update(specs)
    return 200, {"extra_specs": specs}


@routes.add(
    "GET", "/flavors/{flavor_id}/os-extra_specs/{key}", "os-extra_specs"
)
def show_spec(sim, req: Request, flavor_id: str, key: str):
    flavor = get_flavor(sim, req, flavor_id)
    if key not in flavor.extra_specs:
        raise errors.not_found(
            f"Flavor {flavor_id} has no extra specs with key {key}."
        )
    return 200, {key: flavor.extra_specs[key]}


@routes.add(
    "PUT", "/flavors/{flavor_id}/os-extra_specs/{key}", "os-extra_specs"
)
def update_spec(sim, req: Request, flavor_id: str, key: str):
    req.admin_only(f"{_SPECS}:update")
    specs = _spec_values(req.body)
    if list(specs) != [key]:
        raise errors.bad_request("Request body and URI mismatch")
    flavor = get_flavor(sim, req, flavor_id)
    flavor.extra_specs.update(specs)
    return 200, specs


@routes.add(
    "DELETE", "/flavors/{flavor_id}/os-extra_specs/{key}", "os-extra_specs"
)
def delete_spec(sim, req: Request, flavor_id: str, key: str):
    req.admin_only(f"{_SPECS}:delete")
    flavor = get_flavor(sim, req, flavor_id)
    if flavor.extra_specs.pop(key, None) is None:
        raise errors.not_found(
            f"Flavor {flavor_id} has no extra specs with key {key}."
        )
    return 200, None


# -- access -----------------------------------------------------------------
@routes.add("GET", "/flavors/{flavor_id}/os-flavor-access", "os-flavor-access")
def list_access(sim, req: Request, flavor_id: str):
    req.admin_only(_ACCESS)
    flavor = get_flavor(sim, req, flavor_id)
    if flavor.is_public:
        raise errors.not_found("Access list not available for public flavors.")
    return 200, views.flavor_access(flavor)


@routes.add("POST", "/flavors/{flavor_id}/action", "flavors/action")
def flavor_action(sim, req: Request, flavor_id: str):
    body = req.body if isinstance(req.body, dict) else {}
    if "addTenantAccess" in body:
        req.admin_only(f"{_ACCESS}:add_tenant_access")
        project = _tenant(req.json("addTenantAccess"))
        flavor = get_flavor(sim, req, flavor_id)
        if flavor.is_public:
            raise errors.conflict("Can not add access to a public flavor.")
        if project in flavor.projects:
            raise errors.conflict(
                f"Flavor access already exists for flavor {flavor_id} and "
                f"project {project} combination."
            )
        flavor.projects.append(project)
    elif "removeTenantAccess" in body:
        req.admin_only(f"{_ACCESS}:remove_tenant_access")
        project = _tenant(req.json("removeTenantAccess"))
        flavor = get_flavor(sim, req, flavor_id)
        if project not in flavor.projects:
            raise errors.not_found(
                f"Flavor access not found for {flavor_id} / {project} "
                "combination."
            )
        flavor.projects.remove(project)
    else:
        raise errors.bad_request(
            "There is no such action: " + ", ".join(sorted(body))
        )
    return 200, views.flavor_access(flavor)


def _tenant(body: dict) -> str:
    tenant = body.get("tenant")
    if not isinstance(tenant, str) or not tenant:
        raise errors.invalid_input(
            "tenant", tenant, f"{tenant!r} is not a valid project id"
        )
    return tenant
