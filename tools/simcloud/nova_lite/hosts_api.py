"""``os-hypervisors``, ``os-services`` and ``os-availability-zone``.

The reservation service finds a host by hypervisor name, reads its size
and its service's zone, and watches the services for hosts that go down;
an operator (or a test) makes a host fail the way Nova lets admins do it,
``PUT /os-services/{id}`` with ``forced_down`` or ``status: disabled``,
so no back door is needed to inject a host failure.
"""

from __future__ import annotations

import uuid

from tools.simcloud.nova_lite import errors, views
from tools.simcloud.nova_lite.model import Host
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
_HYP = "os_compute_api:os-hypervisors"
#: The controller's services, listed before the compute ones.
CONTROL_SERVICES = ("nova-conductor", "nova-scheduler")


def _by_id(sim, req: Request, hyp_id: str) -> Host:
    for host in sim.cloud.hosts.values():
        if str(views.hypervisor_id(req, host)) == hyp_id:
            return host
    if req.at_least(2, 53):
        try:
            uuid.UUID(hyp_id)
        except ValueError:
            raise errors.bad_request(f"Invalid uuid {hyp_id}") from None
    raise errors.not_found(
        f"Hypervisor with ID '{hyp_id}' could not be found."
    )


def _matching(sim, pattern: str) -> list[Host]:
    # Nova searches with SQL LIKE '%pattern%'
    found = [h for h in sim.cloud.hosts.values() if pattern in h.name]
    if not found:
        raise errors.not_found(
            f"No hypervisor matching '{pattern}' could be found."
        )
    return found


@routes.add("GET", "/os-hypervisors", "os-hypervisors")
def list_hypervisors(sim, req: Request):
    req.admin_only(f"{_HYP}:list")
    pattern = req.arg("hypervisor_hostname_pattern")
    if pattern is not None and req.at_least(2, 53):
        req.admin_only(f"{_HYP}:search")
        hosts = _matching(sim, pattern)
    else:
        hosts = list(sim.cloud.hosts.values())
    return 200, {"hypervisors": [views.hypervisor(req, h) for h in hosts]}


@routes.add("GET", "/os-hypervisors/detail", "os-hypervisors/detail")
def list_hypervisors_detail(sim, req: Request):
    req.admin_only(f"{_HYP}:list-detail")
    pattern = req.arg("hypervisor_hostname_pattern")
    hosts = (
        _matching(sim, pattern)
        if pattern is not None and req.at_least(2, 53)
        else list(sim.cloud.hosts.values())
    )
    return 200, {
        "hypervisors": [
            views.hypervisor_detail(req, sim.cloud, h) for h in hosts
        ]
    }


@routes.add("GET", "/os-hypervisors/{pattern}/search", "os-hypervisors")
def search_hypervisors(sim, req: Request, pattern: str):
    if req.at_least(2, 53):
        raise errors.not_found("The resource could not be found.")
    req.admin_only(f"{_HYP}:search")
    hosts = _matching(sim, pattern)
    return 200, {"hypervisors": [views.hypervisor(req, h) for h in hosts]}


@routes.add("GET", "/os-hypervisors/{hyp_id}/uptime", "os-hypervisors/uptime")
def hypervisor_uptime(sim, req: Request, hyp_id: str):
    """What ``openstack hypervisor show`` asks for besides the details."""
    req.admin_only(f"{_HYP}:uptime")
    host = _by_id(sim, req, hyp_id)
    return 200, {
        "hypervisor": {
            **views.hypervisor(req, host),
            "uptime": " 08:32:11 up 93 days, 18:25, 1 user,  load average: "
            "0.20, 0.12, 0.14",
        }
    }


@routes.add("GET", "/os-hypervisors/{hyp_id}", "os-hypervisors/{id}")
def show_hypervisor(sim, req: Request, hyp_id: str):
    req.admin_only(f"{_HYP}:show")
    host = _by_id(sim, req, hyp_id)
    return 200, {"hypervisor": views.hypervisor_detail(req, sim.cloud, host)}


# -- services ---------------------------------------------------------------
@routes.add("GET", "/os-services", "os-services")
def list_services(sim, req: Request):
    req.admin_only("os_compute_api:os-services:list")
    services = [
        views.control_service(req, binary, number)
        for number, binary in enumerate(CONTROL_SERVICES, 1)
    ] + [views.service(req, sim.cloud, h) for h in sim.cloud.hosts.values()]
    binary, host = req.arg("binary"), req.arg("host")
    services = [
        s
        for s in services
        if (not binary or s["binary"] == binary)
        and (not host or s["host"] == host)
    ]
    return 200, {"services": services}


@routes.add("PUT", "/os-services/{service_id}", "os-services/{id}")
def update_service(sim, req: Request, service_id: str):
    """Disable/enable a compute service or force it down (>= 2.53)."""
    req.admin_only("os_compute_api:os-services:update")
    if not req.at_least(2, 53):
        raise errors.not_found("The resource could not be found.")
    try:
        uuid.UUID(service_id)
    except ValueError:
        raise errors.bad_request(f"Invalid uuid {service_id}") from None
    host = next(
        (h for h in sim.cloud.hosts.values() if h.service_uuid == service_id),
        None,
    )
    if host is None:
        for number, binary in enumerate(CONTROL_SERVICES, 1):
            if views.control_service(req, binary, number)["id"] == service_id:
                raise errors.bad_request(
                    f"Updating a {binary} service is not supported. Only "
                    "nova-compute services can be updated."
                )
        raise errors.not_found(f"Service {service_id} could not be found.")
    body = req.body if isinstance(req.body, dict) else {}
    status = body.get("status")
    if status not in (None, "enabled", "disabled"):
        raise errors.invalid_input(
            "status",
            status,
            f"'{status}' is not one of ['enabled', 'disabled']",
        )
    if status == "enabled" and body.get("disabled_reason"):
        raise errors.bad_request(
            "Specifying 'disabled_reason' with status 'enabled' is invalid."
        )
    if "forced_down" in body and not isinstance(body["forced_down"], bool):
        raise errors.invalid_input(
            "forced_down",
            body["forced_down"],
            f"{body['forced_down']!r} is not of type 'boolean'",
        )
    if status is None and "forced_down" not in body:
        raise errors.bad_request(
            "No updates were requested. Fields 'status' or 'forced_down' "
            "should be specified."
        )
    if status == "enabled":
        host.status, host.disabled_reason = "enabled", None
    elif status == "disabled":
        host.status = "disabled"
        host.disabled_reason = body.get("disabled_reason")
    if "forced_down" in body:
        host.forced_down = body["forced_down"]
    return 200, {"service": views.service(req, sim.cloud, host)}


# -- availability zones -----------------------------------------------------
@routes.add("GET", "/os-availability-zone", "os-availability-zone")
def list_zones(sim, req: Request):
    zones: dict[str, bool] = {}
    for host in sim.cloud.hosts.values():
        zone = sim.cloud.zone_of(host.name)
        up = host.state == "up" and host.status == "enabled"
        zones[zone] = zones.get(zone, False) or up
    return 200, {
        "availabilityZoneInfo": [
            {"zoneName": z, "zoneState": {"available": up}, "hosts": None}
            for z, up in sorted(zones.items())
        ]
    }


@routes.add("GET", "/os-availability-zone/detail", "os-availability-zone")
def list_zones_detail(sim, req: Request):
    req.admin_only("os_compute_api:os-availability-zone:detail")
    info: dict[str, dict] = {}
    for host in sim.cloud.hosts.values():
        zone = sim.cloud.zone_of(host.name)
        entry = info.setdefault(zone, {"available": False, "hosts": {}})
        up = host.state == "up" and host.status == "enabled"
        entry["available"] = entry["available"] or up
        entry["hosts"][host.name] = {
            "nova-compute": {
                "available": up,
                "active": host.status == "enabled",
                "updated_at": None,
            }
        }
    return 200, {
        "availabilityZoneInfo": [
            {
                "zoneName": zone,
                "zoneState": {"available": entry["available"]},
                "hosts": entry["hosts"],
            }
            for zone, entry in sorted(info.items())
        ]
    }
