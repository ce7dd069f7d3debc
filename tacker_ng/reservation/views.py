"""Blazar v1 response bodies: field names, types and date formats.

Host ids are strings of integers and extra capabilities sit beside the
built-in host fields, as in Blazar. Internal event types (sync and delete
work items) are not shown.
"""

from __future__ import annotations

from typing import Any

from tacker_ng.reservation import dates, plugins
from tacker_ng.reservation import status as st

HOST_FIELDS = (
    "hypervisor_hostname",
    "service_name",
    "availability_zone",
    "hypervisor_type",
    "hypervisor_version",
    "cpu_info",
    "vcpus",
    "memory_mb",
    "local_gb",
    "reservable",
    "status",
    "trust_id",
)
#: Names an extra capability may not take (they are host fields).
RESERVED_HOST_KEYS = frozenset(
    (*HOST_FIELDS, "id", "created_at", "updated_at")
)


def reservation(res: dict) -> dict[str, Any]:
    body = {
        "id": res["id"],
        "lease_id": res["lease_id"],
        "status": res["status"],
        "missing_resources": res["missing_resources"],
        "resources_changed": res["resources_changed"],
        "resource_id": res["resource_id"],
        "resource_type": res["resource_type"],
        "created_at": dates.render(res["created_at"]),
        "updated_at": dates.render(res.get("updated_at")),
    }
    body.update(plugins.get(res["resource_type"]).view(res["detail"]))
    return body


def event(ev: dict) -> dict[str, Any]:
    return {
        "id": ev["id"],
        "lease_id": ev["lease_id"],
        "status": ev["status"],
        "event_type": ev["event_type"],
        "time": dates.render(ev["time"]),
        "created_at": dates.render(ev["created_at"]),
        "updated_at": dates.render(ev.get("updated_at")),
    }


def lease(record: dict) -> dict[str, Any]:
    """A lease body (the value of ``{"lease": ...}``)."""
    return {
        "id": record["id"],
        "name": record["name"],
        "start_date": dates.render(record["start_date"]),
        "end_date": dates.render(record["end_date"]),
        "status": record["status"],
        "degraded": record["degraded"],
        "user_id": record["user_id"],
        "project_id": record["project_id"],
        "trust_id": record["trust_id"],
        "created_at": dates.render(record["created_at"]),
        "updated_at": dates.render(record.get("updated_at")),
        "reservations": [reservation(r) for r in record["reservations"]],
        "events": [
            event(e)
            for e in record["events"]
            if e["event_type"] in st.PUBLIC_EVENTS
        ],
    }


def host(record: dict) -> dict[str, Any]:
    """A host body (the value of ``{"host": ...}``)."""
    body: dict[str, Any] = dict(record.get("extra_capabilities") or {})
    body.update({name: record.get(name) for name in HOST_FIELDS})
    body.update(
        id=str(record["id"]),
        created_at=dates.render(record["created_at"]),
        updated_at=dates.render(record.get("updated_at")),
    )
    return body


def allocation(host_id: int, reservations: list[dict]) -> dict[str, Any]:
    """One host's allocations: ``{"resource_id", "reservations"}``."""
    return {
        "resource_id": str(host_id),
        "reservations": [
            {"id": r["id"], "lease_id": r["lease_id"]} for r in reservations
        ],
    }
