"""``GET /v1/vnf_instances/{id}/observed`` (admin): convergence's view.

For each VNFC its desired state (what the last accepted operation left in
``instantiatedVnfInfo``) beside what the observer last saw on the VIM
(``vnfc_observed``): status, host, zone, when, and the drift between the
two. Read only, from the database: the API never asks a VIM.
"""

import datetime
from collections.abc import Mapping
from typing import Any

import pecan

from tacker_ng import policies
from tacker_ng.api import routing
from tacker_ng.convergence import desired as desired_mod
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm
from tacker_ng.objects.times import sol_time

POLICY = "tacker_ng:convergence:observed"


def _time(value: datetime.datetime | None) -> str | None:
    return sol_time(value) if value is not None else None


def vnfc_view(
    want: desired_mod.DesiredVnfc | None, seen: Mapping[str, Any] | None
) -> dict[str, Any]:
    """One VNFC: desired vs observed. ``seen`` None: not observed yet."""
    seen = seen or {}
    return {
        "vnfcId": want.vnfc_id if want else seen.get("vnfc_id"),
        "vduId": want.vdu_id if want else seen.get("vdu_id"),
        "resourceId": want.resource_id if want else None,
        "desiredStatus": want.status if want else None,
        "desiredZone": want.zone if want else None,
        "observed": bool(seen),
        "observedResourceId": seen.get("resource_id"),
        "observedStatus": seen.get("status"),
        "host": seen.get("host"),
        "hostUp": seen.get("host_up"),
        "zone": seen.get("zone"),
        "drift": seen.get("drift"),
        "driftSince": _time(seen.get("drift_since")),
        "lastSeen": _time(seen.get("observed_at")),
    }


def observed_view(
    instance: Mapping[str, Any],
    rows: list[Mapping[str, Any]],
    autoheal: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The response body: the instance's VNFCs, desired ones first in
    their instantiatedVnfInfo order, then observed rows no longer desired
    (the observer forgets them at its next cycle)."""
    wanted = desired_mod.desired_vnfcs(instance)
    seen = {r["vnfc_id"]: r for r in rows}
    vnfcs = [vnfc_view(w, seen.pop(w.vnfc_id, None)) for w in wanted]
    vnfcs += [vnfc_view(None, r) for r in seen.values()]
    last = max((r["observed_at"] for r in rows), default=None)
    autoheal = autoheal or {}
    return {
        "vnfInstanceId": instance["id"],
        "instantiationState": instance["instantiation_state"],
        "isAutohealEnabled": desired_mod.autoheal_enabled(instance),
        "lastObservedAt": _time(last),
        "observeRequestedAt": _time(autoheal.get("observe_requested_at")),
        "autohealFailures": autoheal.get("autoheal_failures") or 0,
        "lastAutohealOpOccId": autoheal.get("last_autoheal_op_occ_id"),
        "autohealBackoffUntil": _time(autoheal.get("backoff_until")),
        "vnfcs": vnfcs,
    }


class ObservedController:
    """Desired vs observed state of one VNF instance's VNFCs."""

    def __init__(self, instance_id: str) -> None:
        self.instance_id = instance_id

    @routing.resource()
    def index(self) -> dict[str, Any]:
        ctx = pecan.request.context
        policies.authorize(ctx, POLICY)
        with db_api.reader(ctx) as session:
            instance = vnf_lcm.get_instance(session, self.instance_id)
            rows = observed_db.of_instance(session, self.instance_id)
            autoheal = observed_db.autoheal_state(session, self.instance_id)
        return observed_view(instance, rows, autoheal)
