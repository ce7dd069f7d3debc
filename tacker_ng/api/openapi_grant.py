"""The granting part of the OpenAPI document (``/grant/v1``: the local
NFVO's grants, read-only); :mod:`tacker_ng.api.openapi` merges it."""

from __future__ import annotations

from typing import Any

from tacker_ng.api import openapi as o

GRANT = "/grant/v1"

SCHEMAS: dict[str, dict[str, Any]] = {
    "Grant": o._obj(
        ["id", "vnfInstanceId", "vnfLcmOpOccId", "_links"],
        id=o.ID,
        vnfInstanceId=o.ID,
        vnfLcmOpOccId=o.ID,
        vimConnectionInfo=o.OBJECT,
        zones={"type": "array", "items": o.OBJECT},
        zoneGroups={"type": "array", "items": o.OBJECT},
        addResources={"type": "array", "items": o.OBJECT},
        tempResources={"type": "array", "items": o.OBJECT},
        removeResources={"type": "array", "items": o.OBJECT},
        updateResources={"type": "array", "items": o.OBJECT},
        vimAssets=o.OBJECT,
        extVirtualLinks={"type": "array", "items": o.OBJECT},
        extManagedVirtualLinks={"type": "array", "items": o.OBJECT},
        additionalParams=o.OBJECT,
        _links=o._obj(
            ["self", "vnfLcmOpOcc", "vnfInstance"],
            self=o.LINK,
            vnfLcmOpOcc=o.LINK,
            vnfInstance=o.LINK,
        ),
    ),
}


def paths() -> dict[str, dict]:
    """``GET /grant/v1/grants/{grantId}`` (local NFVO mode; 404 with a
    remote NFVO)."""
    return o._with_version(
        {
            f"{GRANT}/grants/{{grantId}}": {
                "parameters": [o._id_param("grantId")],
                "get": o._op(
                    "showGrant",
                    "Show a grant the local NFVO issued ([nfvo] mode = "
                    "local; 404 otherwise).",
                    o._ok("200", o._ref("Grant"), "The grant."),
                ),
            }
        },
        "1.4.0",
    )
