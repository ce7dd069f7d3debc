"""``virtual:instance``: N instance slots of one size.

At lease start the reservation becomes, in Nova: a server group
(anti-affinity for ``affinity: false``, affinity for ``true``, none for
``null``), a private flavor whose id is the reservation id with the extra
specs ``aggregate_instance_extra_specs:reservation=<id>`` and
``affinity_id=<group>``, shared with the lease's project, and an aggregate
named after the reservation holding its hosts with the metadata
``reservation=<id>`` and ``filter_tenant_id=<project>``. The hosts stay in
the freepool: other reservations use their other slots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tacker_ng.db import models_reservation as models
from tacker_ng.reservation import allocation, exceptions
from tacker_ng.reservation.plugins import base

KEYS = (
    "vcpus",
    "memory_mb",
    "disk_gb",
    "amount",
    "affinity",
    "resource_properties",
)
#: What an active reservation cannot change (its flavor exists).
FROZEN_WHEN_ACTIVE = (
    "vcpus",
    "memory_mb",
    "disk_gb",
    "affinity",
    "resource_properties",
)
EXTRA_SPEC = "aggregate_instance_extra_specs:reservation"


def nova_names(reservation_id: str) -> dict[str, str]:
    """Deterministic Nova names, so a resumed start finds what it made."""
    return {
        "flavor": f"reservation:{reservation_id}",
        "server_group": f"reservation:{reservation_id}",
        "aggregate": reservation_id,
    }


class InstancePlugin(base.ResourcePlugin):
    resource_type = "virtual:instance"
    model = models.InstanceReservation

    def _check(self, values: Mapping[str, Any]) -> base.Detail:
        return {
            "vcpus": base.integer(values, "vcpus", 1),
            "memory_mb": base.integer(values, "memory_mb", 1),
            "disk_gb": base.integer(values, "disk_gb", 0),
            "amount": base.integer(values, "amount", 1),
            "affinity": base.tristate(values.get("affinity"), "affinity"),
            "resource_properties": base.query_text(
                values, "resource_properties"
            ),
        }

    def parse(self, values: Mapping[str, Any]) -> base.Detail:
        base.reject_unknown(values, KEYS)
        return self._check(values)

    def merge(
        self, current: base.Detail, values: Mapping[str, Any]
    ) -> base.Detail:
        base.reject_unknown(values, KEYS)
        merged = {k: current[k] for k in KEYS}
        merged.update({k: values[k] for k in KEYS if k in values})
        return self._check(merged)

    def check_active_change(
        self, current: base.Detail, new: base.Detail
    ) -> None:
        for key in FROZEN_WHEN_ACTIVE:
            old, value = current[key], new[key]
            if key == "resource_properties":
                old, value = old or "", value or ""
            if old != value:
                raise exceptions.CantUpdateParameter(
                    param=key,
                    reason="the reservation is active and its flavor and "
                    "server group exist in Nova",
                )
        if new["amount"] < current["amount"]:
            raise exceptions.CantUpdateParameter(
                param="amount",
                reason="an active reservation can grow but not shrink "
                "(instances may run in every slot)",
            )

    def request(
        self, key: str, detail: base.Detail
    ) -> allocation.InstanceRequest:
        return allocation.InstanceRequest(
            key=key,
            vcpus=detail["vcpus"],
            memory_mb=detail["memory_mb"],
            disk_gb=detail["disk_gb"],
            amount=detail["amount"],
            affinity=detail["affinity"],
            host_filter=base.host_filter(detail["resource_properties"]),
        )

    def demand(self, detail: base.Detail) -> tuple[int, int, int, bool]:
        return (detail["vcpus"], detail["memory_mb"], detail["disk_gb"], False)

    def view(self, detail: base.Detail) -> dict[str, Any]:
        return {
            "vcpus": detail["vcpus"],
            "memory_mb": detail["memory_mb"],
            "disk_gb": detail["disk_gb"],
            "amount": detail["amount"],
            "affinity": detail["affinity"],
            "resource_properties": detail["resource_properties"] or "",
            "flavor_id": detail["flavor_id"],
            "server_group_id": detail["server_group_id"],
            "aggregate_id": detail["aggregate_id"],
        }

    # -- Nova --------------------------------------------------------------
    def _group(self, job: base.Job) -> str | None:
        detail = job.detail
        if detail["affinity"] is None:
            return None
        if detail["server_group_id"]:
            return detail["server_group_id"]
        policy = "affinity" if detail["affinity"] else "anti-affinity"
        group_id = job.nova.ensure_server_group(
            nova_names(job.res["id"])["server_group"],
            policy,
            job.lease["project_id"],
        )
        job.save(server_group_id=group_id)
        return group_id

    def _aggregate(self, job: base.Job, group_id: str | None) -> None:
        rid = job.res["id"]
        metadata = {
            "reservation": rid,
            "filter_tenant_id": job.lease["project_id"],
        }
        if group_id:
            metadata["affinity_id"] = group_id
        agg_id = job.nova.ensure_aggregate(
            nova_names(rid)["aggregate"], metadata
        )
        job.save(aggregate_id=agg_id)
        job.nova.set_aggregate_hosts(agg_id, job.hosts)

    def on_start(self, job: base.Job) -> None:
        group_id = self._group(job)
        self._aggregate(job, group_id)
        rid, detail = job.res["id"], job.detail
        extra_specs = {EXTRA_SPEC: rid}
        if group_id:
            extra_specs["affinity_id"] = group_id
        flavor_id = job.nova.ensure_flavor(
            flavor_id=rid,
            name=nova_names(rid)["flavor"],
            vcpus=detail["vcpus"],
            ram=detail["memory_mb"],
            disk=detail["disk_gb"],
            extra_specs=extra_specs,
            project_id=job.lease["project_id"],
        )
        job.save(flavor_id=flavor_id)

    def on_sync(self, job: base.Job) -> None:
        self._aggregate(job, self._group(job))

    def on_end(self, job: base.Job) -> None:
        rid, detail = job.res["id"], job.detail
        names = nova_names(rid)
        flavor_id = detail["flavor_id"] or rid
        job.nova.delete_servers_with_flavor(flavor_id)
        job.nova.delete_flavor(flavor_id)
        job.nova.delete_server_group(
            detail["server_group_id"], names["server_group"]
        )
        job.nova.delete_aggregate(detail["aggregate_id"], names["aggregate"])
