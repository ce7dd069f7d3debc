"""The VNF snapshot part of the OpenAPI document (``/vnflcm/v2/
vnf_snapshots``); :mod:`tacker_ng.api.openapi` merges it. The task
resources create_snapshot / revert_to_snapshot are with the other LCM
tasks."""

from __future__ import annotations

from typing import Any

from tacker_ng.api import openapi as o
from tacker_ng.api.schemas import vnflcm as lcm_schemas

SNAPS = f"{o.LCM}/vnf_snapshots"

SCHEMAS: dict[str, dict[str, Any]] = {
    "VnfSnapshotInfo": o._obj(
        ["id", "_links"],
        id=o.ID,
        vnfSnapshotPkgId=o.ID,
        vnfSnapshot=o._obj(
            ["id", "vnfInstanceId", "vnfdId", "vnfInstance", "vnfcSnapshots"],
            id=o.ID,
            vnfInstanceId=o.ID,
            creationStartedAt=o.DATETIME,
            creationFinishedAt=o.DATETIME,
            vnfdId=o.ID,
            vnfInstance=o._ref("VnfInstance"),
            vnfcSnapshots={"type": "array", "items": o.OBJECT},
            userDefinedData=o.OBJECT,
        ),
        _links=o.OBJECT,
    ),
    "VnfSnapshotInfoModifications": o._obj(
        [], vnfSnapshotPkgId=o.ID, vnfSnapshot=o.OBJECT
    ),
}


def paths() -> dict[str, dict]:
    """``/vnflcm/v2/vnf_snapshots`` and ``/vnf_snapshots/{id}``."""
    snaps: dict[str, dict] = {
        SNAPS: {
            "get": o._op(
                "listVnfSnapshots",
                "List VNF snapshots (attribute filter, paged).",
                o._ok(
                    "200",
                    {"type": "array", "items": o._ref("VnfSnapshotInfo")},
                    "The page.",
                ),
            ),
            "post": o._op(
                "createVnfSnapshotInfo",
                "Create an empty VNF snapshot resource.",
                o._ok("201", o._ref("VnfSnapshotInfo"), "Created."),
                lcm_schemas.CREATE_VNF_SNAPSHOT_INFO_REQUEST,
                extra_errors=("422",),
            ),
        },
        f"{SNAPS}/{{vnfSnapshotInfoId}}": {
            "parameters": [o._id_param("vnfSnapshotInfoId")],
            "get": o._op(
                "showVnfSnapshotInfo",
                "Show a VNF snapshot.",
                o._ok("200", o._ref("VnfSnapshotInfo"), "The snapshot."),
            ),
            "patch": o._op(
                "modifyVnfSnapshotInfo",
                "Modify an empty VNF snapshot (JSON Merge Patch).",
                o._ok(
                    "200",
                    o._ref("VnfSnapshotInfoModifications"),
                    "The attributes modified.",
                ),
                lcm_schemas.VNF_SNAPSHOT_INFO_MODIFICATION_REQUEST,
                media="application/merge-patch+json",
                extra_errors=("409", "422"),
            ),
            "delete": o._op(
                "deleteVnfSnapshotInfo",
                "Delete a VNF snapshot; a conductor deletes its images.",
                o._ok("204", None, "Deleted."),
                extra_errors=("409",),
            ),
        },
        f"{SNAPS}/{{vnfSnapshotInfoId}}/vnf_state_snapshot": {
            "parameters": [o._id_param("vnfSnapshotInfoId")],
            "get": o._op(
                "showVnfStateSnapshot",
                "VNF state snapshot content: tacker-ng takes none (409).",
                {},
                extra_errors=("409",),
            ),
        },
    }
    return o._with_version(snaps, "2.0.0")
