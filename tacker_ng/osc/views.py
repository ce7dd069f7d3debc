"""Turn API bodies into the columns and rows the commands print.

Pure functions, so every formatter is unit tested on plain dicts.
"""

import json
from typing import Any

OCC_FIELDS = (
    "id",
    "operation",
    "operationState",
    "vnfInstanceId",
    "startTime",
    "stateEnteredTime",
    "isAutomaticInvocation",
)

PLACEMENT_COLUMNS = ("VNFC", "VDU", "Zone", "Server", "Server group")
#: What placement show cannot print because the API does not expose it.
PLACEMENT_NOT_EXPOSED = (
    "Compute hosts: 'openstack vnflcm observed show' (admin) shows where "
    "the observer last saw each VNFC. The API does not expose the zones "
    "tried by AZ reselection; the conductor logs each reselection "
    "('zone reselection N/M: <VNFCs> from <zone> to <zone>')."
)

OBSERVED_COLUMNS = (
    "VNFC",
    "VDU",
    "Desired",
    "Observed",
    "Host",
    "Zone",
    "Drift",
    "Drift since",
    "Last seen",
)

SNAPSHOT_COLUMNS = (
    "ID",
    "VNF instance",
    "VNFC snapshots",
    "Started at",
    "Finished at",
)

SNAPSHOT_FIELDS = (
    "id",
    "vnfInstanceId",
    "vnfdId",
    "creationStartedAt",
    "creationFinishedAt",
    "vnfcSnapshots",
    "userDefinedData",
)

CONDUCTOR_COLUMNS = (
    "Hostname",
    "Alive",
    "Online",
    "RPC version",
    "Started at",
    "Heartbeat at",
)


def occ_summary(occ: dict[str, Any]) -> tuple[tuple[str, ...], tuple]:
    """ShowOne columns/values of an op occ, with its error if any."""
    columns = OCC_FIELDS
    values = tuple(occ.get(name) for name in columns)
    if occ.get("error"):
        columns += ("error",)
        values += (json.dumps(occ["error"], sort_keys=True),)
    return columns, values


def placement_rows(instance: dict[str, Any]) -> list[tuple]:
    """One row per VNFC: its id, VDU, zone, server and server group.

    The zone is SOL003's ``zoneId`` (the zone the server really runs in),
    else the driver's ``metadata.zone``; '-' before instantiation.
    """
    info = instance.get("instantiatedVnfInfo") or {}
    rows = []
    for vnfc in info.get("vnfcResourceInfo") or []:
        meta = vnfc.get("metadata") or {}
        compute = vnfc.get("computeResource") or {}
        rows.append(
            (
                vnfc.get("id"),
                vnfc.get("vduId"),
                vnfc.get("zoneId") or meta.get("zone") or "-",
                compute.get("resourceId") or "-",
                meta.get("serverGroupId") or "-",
            )
        )
    return sorted(rows, key=lambda row: (str(row[1]), str(row[0])))


def conductor_rows(conductors: list[dict[str, Any]]) -> list[tuple]:
    """One row per conductor of the fleet, as ``GET /v1/conductors``."""
    return [
        (
            c.get("hostname"),
            c.get("alive"),
            c.get("online"),
            c.get("rpcVersion"),
            c.get("startedAt"),
            c.get("heartbeatAt"),
        )
        for c in conductors
    ]


def observed_rows(
    body: dict[str, Any], drift_only: bool = False
) -> list[tuple]:
    """One row per VNFC of ``GET /v1/vnf_instances/{id}/observed``.

    '-' where nothing was observed yet; ``drift_only`` keeps the VNFCs
    with a drift.
    """
    rows = []
    for v in body.get("vnfcs") or []:
        if drift_only and not v.get("drift"):
            continue
        host = v.get("host") or "-"
        if v.get("host") and v.get("hostUp") is False:
            host += " (down)"
        zone = v.get("zone") or "-"
        if v.get("desiredZone") and v.get("zone") not in (
            None,
            v["desiredZone"],
        ):
            zone += f" (desired {v['desiredZone']})"
        observed = v.get("observedStatus")
        if not v.get("observed"):
            observed = "not observed yet"
        elif observed is None:
            observed = "MISSING"
        rows.append(
            (
                v.get("vnfcId"),
                v.get("vduId"),
                v.get("desiredStatus") or "-",
                observed,
                host,
                zone,
                v.get("drift") or "-",
                v.get("driftSince") or "-",
                v.get("lastSeen") or "-",
            )
        )
    return rows


def observed_summary(body: dict[str, Any]) -> str:
    """One line on the instance's convergence state (for stderr)."""
    drifted = sum(1 for v in body.get("vnfcs") or [] if v.get("drift"))
    parts = [
        f"VNF instance {body.get('vnfInstanceId')} "
        f"({body.get('instantiationState')}): "
        f"{len(body.get('vnfcs') or [])} VNFC(s), {drifted} drifted",
        f"last observed {body.get('lastObservedAt') or 'never'}",
        "auto-heal " + ("on" if body.get("isAutohealEnabled") else "off"),
    ]
    if body.get("autohealFailures"):
        parts.append(
            f"{body['autohealFailures']} failed auto-heal(s) in a row, "
            f"back-off until {body.get('autohealBackoffUntil') or '-'}"
        )
    return "; ".join(parts)


def snapshot_rows(snaps: list[dict[str, Any]]) -> list[tuple]:
    """One row per VnfSnapshotInfo; '-' while it holds no snapshot."""
    rows = []
    for info in snaps:
        snap = info.get("vnfSnapshot") or {}
        rows.append(
            (
                info.get("id"),
                snap.get("vnfInstanceId") or "-",
                len(snap.get("vnfcSnapshots") or []),
                snap.get("creationStartedAt") or "-",
                snap.get("creationFinishedAt") or "-",
            )
        )
    return rows


def snapshot_summary(info: dict[str, Any]) -> tuple[tuple[str, ...], tuple]:
    """ShowOne columns/values of a VnfSnapshotInfo (its VnfSnapshot flat).

    The VNFC snapshots and user data are JSON; the copy of the VNF
    instance is left out (``-f json`` of the API shows it).
    """
    snap = info.get("vnfSnapshot") or {}
    values: list[Any] = [info.get("id")]
    for name in SNAPSHOT_FIELDS[1:]:
        value = snap.get(name)
        if name in ("vnfcSnapshots", "userDefinedData") and value is not None:
            value = json.dumps(value, sort_keys=True)
        values.append(value)
    return SNAPSHOT_FIELDS, tuple(values)
