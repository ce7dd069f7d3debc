"""Turn API bodies into the columns and rows the commands print.

Pure functions, so every formatter is unit tested on plain dicts.

Resources python-tackerclient shows too (op occs) get its column names,
so that one ``-c 'Operation State'`` works with its ``vnflcm op show``
and our ``vnflcm op wait`` alike; our own resources (snapshots) are
named in its style: title case, "ID", "VNF Instance ID".
"""

import json
from typing import Any

from cliff import columns as cliff_columns


class ComplexColumn(cliff_columns.FormattableColumn):
    """A nested value: indented JSON on a table, the value itself in
    ``-f json``/``yaml`` (python-tackerclient's FormatComplexDataColumn)."""

    def human_readable(self) -> str:
        if self._value in (None, ""):
            return ""
        return json.dumps(self._value, indent=4, sort_keys=True)


#: (attribute, column) of an op occ as python-tackerclient's ``vnflcm op
#: show`` names them (tackerclient/osc/v1/vnflcm/vnflcm_op_occs.py).
OCC_ATTRIBUTES = (
    ("id", "ID"),
    ("operation", "Operation"),
    ("operationState", "Operation State"),
    ("vnfInstanceId", "VNF Instance ID"),
    ("startTime", "Start Time"),
    ("stateEnteredTime", "State Entered Time"),
    ("isAutomaticInvocation", "Is Automatic Invocation"),
    ("error", "Error"),
)
OCC_COLUMNS = tuple(column for _, column in OCC_ATTRIBUTES)
#: Column of ``snapshot create``'s VnfSnapshotInfo id.
SNAPSHOT_INFO_ID_COLUMN = "VNF Snapshot Info ID"

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
    "VNF Instance ID",
    "VNFC Snapshots",
    "Creation Started At",
    "Creation Finished At",
)

#: (attribute of the VnfSnapshot, column) of ``snapshot show``; the ID
#: is the VnfSnapshotInfo's.
SNAPSHOT_ATTRIBUTES = (
    ("id", "ID"),
    ("vnfInstanceId", "VNF Instance ID"),
    ("vnfdId", "VNFD ID"),
    ("creationStartedAt", "Creation Started At"),
    ("creationFinishedAt", "Creation Finished At"),
    ("vnfcSnapshots", "VNFC Snapshots"),
    ("userDefinedData", "User Defined Data"),
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
    """ShowOne columns/values of an op occ. Error is always there, ""
    without one, as in python-tackerclient (so ``-c Error`` works)."""
    values = tuple(
        ComplexColumn(occ.get(name) or "")
        if name == "error"
        else occ.get(name)
        for name, _ in OCC_ATTRIBUTES
    )
    return OCC_COLUMNS, values


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
    for name, _ in SNAPSHOT_ATTRIBUTES[1:]:
        value = snap.get(name)
        if name in ("vnfcSnapshots", "userDefinedData") and value is not None:
            value = ComplexColumn(value)
        values.append(value)
    columns = tuple(column for _, column in SNAPSHOT_ATTRIBUTES)
    return columns, tuple(values)
