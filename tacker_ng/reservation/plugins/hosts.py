"""``physical:host``: between ``min`` and ``max`` whole hosts.

The hosts must have no other booking in the window and match the
``hypervisor_properties`` and ``resource_properties`` queries. At lease
start they are put in an aggregate named after the reservation with
``reservation=<id>`` and ``filter_tenant_id=<project>``: with Nova's
AggregateMultiTenancyIsolation only that project (and the service
project) can place instances there during the lease.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tacker_ng.db import models_reservation as models
from tacker_ng.reservation import allocation, exceptions
from tacker_ng.reservation.plugins import base

KEYS = (
    "min",
    "max",
    "hypervisor_properties",
    "resource_properties",
    "before_end",
)
BEFORE_END_ACTIONS = ("default",)


def _before_end(value: object) -> str:
    if value in (None, "", "default"):
        return "default"
    if value == "snapshot":
        raise base.bad(
            "before_end 'snapshot' is not supported by tacker-ng; use "
            "'default' (no action before the end)"
        )
    raise base.bad(f"before_end must be 'default', got {value!r}")


class HostPlugin(base.ResourcePlugin):
    resource_type = "physical:host"
    model = models.HostReservation

    def _check(self, values: Mapping[str, Any]) -> base.Detail:
        low = base.integer(values, "min", 1)
        high = base.integer(values, "max", 1)
        if low > high:
            raise base.bad(f"'min' ({low}) must not exceed 'max' ({high})")
        return {
            "count_range_min": low,
            "count_range_max": high,
            "hypervisor_properties": base.query_text(
                values, "hypervisor_properties"
            ),
            "resource_properties": base.query_text(
                values, "resource_properties"
            ),
            "before_end": _before_end(values.get("before_end")),
        }

    def parse(self, values: Mapping[str, Any]) -> base.Detail:
        base.reject_unknown(values, KEYS)
        return self._check(values)

    def merge(
        self, current: base.Detail, values: Mapping[str, Any]
    ) -> base.Detail:
        base.reject_unknown(values, KEYS)
        merged = {
            "min": current["count_range_min"],
            "max": current["count_range_max"],
            "hypervisor_properties": current["hypervisor_properties"],
            "resource_properties": current["resource_properties"],
            "before_end": current["before_end"],
        }
        merged.update({k: values[k] for k in KEYS if k in values})
        return self._check(merged)

    def check_active_change(
        self, current: base.Detail, new: base.Detail
    ) -> None:
        for key, name in (
            ("count_range_min", "min"),
            ("count_range_max", "max"),
            ("hypervisor_properties", "hypervisor_properties"),
            ("resource_properties", "resource_properties"),
        ):
            if (current[key] or "") != (new[key] or ""):
                raise exceptions.CantUpdateParameter(
                    param=name,
                    reason="the reservation is active; its hosts are in use",
                )

    def request(self, key: str, detail: base.Detail) -> allocation.HostRequest:
        return allocation.HostRequest(
            key=key,
            min=detail["count_range_min"],
            max=detail["count_range_max"],
            host_filter=base.host_filter(
                detail["hypervisor_properties"],
                detail["resource_properties"],
            ),
        )

    def demand(self, detail: base.Detail) -> tuple[int, int, int, bool]:
        return (0, 0, 0, True)

    def view(self, detail: base.Detail) -> dict[str, Any]:
        return {
            "min": detail["count_range_min"],
            "max": detail["count_range_max"],
            "hypervisor_properties": detail["hypervisor_properties"] or "",
            "resource_properties": detail["resource_properties"] or "",
            "before_end": detail["before_end"] or "default",
            "aggregate_id": detail["aggregate_id"],
        }

    # -- Nova --------------------------------------------------------------
    def _aggregate(self, job: base.Job) -> None:
        rid = job.res["id"]
        agg_id = job.nova.ensure_aggregate(
            rid,
            {"reservation": rid, "filter_tenant_id": job.lease["project_id"]},
        )
        job.save(aggregate_id=agg_id)
        job.nova.set_aggregate_hosts(agg_id, job.hosts)

    def on_start(self, job: base.Job) -> None:
        self._aggregate(job)

    def on_sync(self, job: base.Job) -> None:
        self._aggregate(job)

    def on_end(self, job: base.Job) -> None:
        job.nova.delete_aggregate(job.detail["aggregate_id"], job.res["id"])
