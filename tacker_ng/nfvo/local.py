"""The built-in NFVO (``[nfvo] mode = local``): grants every request.

It assigns availability zones to new VNFCs honouring the ZONE-scope
placement constraints of the grant request, keeps healed VNFCs in their
zone, and answers a SOL003 Grant. Zones come from ``[nfvo] local_zones``
or, when that is empty, from the VIM through the infra driver.
"""

import uuid
from typing import Any

from tacker_ng import exceptions
from tacker_ng.placement import constraints as placement


class GrantRejected(exceptions.Forbidden):
    """The NFVO refused the grant (SOL003: 403)."""

    title = "Grant Rejected"
    message = "The NFVO rejected the grant: {reason}"


def grant(
    grant_request: dict[str, Any],
    vim_connection_id: str | None,
    zones: list[str],
    existing_zones: dict[str, str],
    capacity: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A Grant for ``grant_request`` (SOL003 9.5.2.3).

    ``capacity``: new VNFCs each zone can still take (a reservation's
    free instance slots); unlimited when None.
    """
    add = grant_request.get("addResources") or []
    update = grant_request.get("updateResources") or []
    compute = [d["id"] for d in add if d["type"] == "COMPUTE"]
    try:
        chosen = placement.assign_zones(
            compute,
            grant_request.get("placementConstraints") or [],
            zones,
            existing_zones,
            capacity,
        )
    except placement.CannotPlace as exc:
        raise GrantRejected(reason=str(exc)) from exc
    for d in update:
        ref = (d.get("resource") or {}).get("resourceId")
        zone = existing_zones.get(ref) or (zones[0] if zones else None)
        if zone:
            chosen[d["id"]] = zone
    zone_infos: dict[str, dict[str, Any]] = {}
    for zone in dict.fromkeys(chosen.values()):
        zone_infos[zone] = {
            "id": str(uuid.uuid4()),
            "zoneId": zone,
            **(
                {"vimConnectionId": vim_connection_id}
                if vim_connection_id
                else {}
            ),
        }

    def granted(defs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for d in defs:
            item: dict[str, Any] = {"resourceDefinitionId": d["id"]}
            if vim_connection_id:
                item["vimConnectionId"] = vim_connection_id
            if d["id"] in chosen:
                item["zoneId"] = zone_infos[chosen[d["id"]]]["id"]
            out.append(item)
        return out

    body: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "vnfInstanceId": grant_request["vnfInstanceId"],
        "vnfLcmOpOccId": grant_request["vnfLcmOpOccId"],
        "_links": grant_request["_links"],
    }
    if zone_infos:
        body["zones"] = list(zone_infos.values())
    if add:
        body["addResources"] = granted(add)
    if update:
        body["updateResources"] = granted(update)
    if grant_request.get("removeResources"):
        body["removeResources"] = [
            {"resourceDefinitionId": d["id"]}
            for d in grant_request["removeResources"]
        ]
    return body


def apply_reservation(
    grant: dict[str, Any],
    grant_request: dict[str, Any],
    reservation: dict[str, Any],
    vim_connection_id: str | None,
) -> dict[str, Any]:
    """Grant the new VNFCs from a Blazar-style reservation.

    Each added COMPUTE resource carries ``reservationId``; the
    reservation's flavour is the VIM flavour of every VDU it adds
    (``vimAssets.computeResourceFlavours``) and its server group goes to
    the driver in ``additionalParams``.
    """
    computes = {
        d["id"]: d["vduId"]
        for d in grant_request.get("addResources") or []
        if d["type"] == "COMPUTE"
    }
    for item in grant.get("addResources") or []:
        if item["resourceDefinitionId"] in computes:
            item["reservationId"] = reservation["reservationId"]
    if reservation.get("flavour_id"):
        flavours = []
        for vdu in sorted(set(computes.values())):
            entry = {
                "vnfdVirtualComputeDescId": vdu,
                "vimFlavourId": reservation["flavour_id"],
            }
            if vim_connection_id:
                entry["vimConnectionId"] = vim_connection_id
            flavours.append(entry)
        grant.setdefault("vimAssets", {})["computeResourceFlavours"] = flavours
    params = grant.setdefault("additionalParams", {})
    params["reservation"] = {
        "reservationId": reservation["reservationId"],
        "serverGroupId": reservation.get("server_group_id"),
        "hosts": reservation.get("hosts") or [],
        # Every zone of the reserved hosts: AZ reselection may move a VNFC
        # to any of them, not only to the zones this grant chose.
        "zones": list(reservation.get("zones") or []),
    }
    return grant
