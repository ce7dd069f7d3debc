"""The VNF performance management part of the OpenAPI document
(``/vnfpm/v2``: PM jobs, their reports, thresholds);
:mod:`tacker_ng.api.openapi` merges it."""

from __future__ import annotations

from typing import Any

from tacker_ng.api import openapi as o
from tacker_ng.api.schemas import vnfpm as pm_schemas

PM = "/vnfpm/v2"
VERSION = "2.1.0"
_IDS = {"type": "array", "items": {"type": "string"}}

SCHEMAS: dict[str, dict[str, Any]] = {
    "PmJob": o._obj(
        ["id", "objectType", "objectInstanceIds", "criteria", "_links"],
        id=o.ID,
        objectType={"type": "string"},
        objectInstanceIds=_IDS,
        subObjectInstanceIds=_IDS,
        criteria=o.OBJECT,
        callbackUri={"type": "string"},
        reports={
            "type": "array",
            "items": o._obj(
                ["href", "readyTime"],
                href={"type": "string"},
                readyTime=o.DATETIME,
                expiryTime=o.DATETIME,
                fileSize={"type": "integer"},
            ),
        },
        _links=o._obj(
            ["self"], self=o.LINK, objects={"type": "array", "items": o.LINK}
        ),
    ),
    "PmJobModifications": {
        "type": "object",
        "properties": {"callbackUri": {"type": "string"}},
    },
    "PerformanceReport": o._obj(
        ["entries"],
        entries={
            "type": "array",
            "items": o._obj(
                [
                    "objectType",
                    "objectInstanceId",
                    "performanceMetric",
                    "performanceValues",
                ],
                objectType={"type": "string"},
                objectInstanceId={"type": "string"},
                subObjectInstanceId={"type": "string"},
                performanceMetric={"type": "string"},
                performanceValues={
                    "type": "array",
                    "items": o._obj(
                        ["timeStamp", "value"],
                        timeStamp=o.DATETIME,
                        value={},
                        context=o.OBJECT,
                    ),
                },
            ),
        },
    ),
    "Threshold": o._obj(
        ["id", "objectType", "objectInstanceId", "criteria", "_links"],
        id=o.ID,
        objectType={"type": "string"},
        objectInstanceId={"type": "string"},
        subObjectInstanceIds=_IDS,
        criteria=o.OBJECT,
        callbackUri={"type": "string"},
        _links=o._obj(["self"], self=o.LINK, object=o.LINK),
    ),
    "ThresholdModifications": {
        "type": "object",
        "properties": {"callbackUri": {"type": "string"}},
    },
}


def _collection(kind: str, plural: str, request: dict, what: str) -> dict:
    return {
        "get": o._op(
            f"list{plural}",
            f"List {what}s (attribute filter, paged).",
            o._ok(
                "200",
                {"type": "array", "items": o._ref(kind)},
                "The page.",
            ),
        ),
        "post": o._op(
            f"create{kind}",
            f"Create a {what}; its callbackUri must answer a test GET "
            "with 204.",
            o._ok("201", o._ref(kind), "Created; Location names it."),
            request,
            extra_errors=("422",),
        ),
    }


def _item(kind: str, param: str, modifications: dict, what: str) -> dict:
    return {
        "parameters": [o._id_param(param)],
        "get": o._op(
            f"show{kind}", f"Show a {what}.", o._ok("200", o._ref(kind), what)
        ),
        "patch": o._op(
            f"modify{kind}",
            f"Modify a {what}'s callbackUri or authentication.",
            o._ok("200", o._ref(f"{kind}Modifications"), "Modified."),
            modifications,
            media="application/merge-patch+json",
            extra_errors=("422",),
        ),
        "delete": o._op(
            f"delete{kind}",
            f"Delete a {what}.",
            o._ok("204", None, "Deleted."),
        ),
    }


def paths() -> dict[str, dict]:
    """Every ``/vnfpm/v2`` route but api_versions (common to all APIs)."""
    return o._with_version(
        {
            f"{PM}/pm_jobs": _collection(
                "PmJob",
                "PmJobs",
                pm_schemas.CREATE_PM_JOB_REQUEST,
                "PM job",
            ),
            f"{PM}/pm_jobs/{{pmJobId}}": _item(
                "PmJob",
                "pmJobId",
                pm_schemas.PM_JOB_MODIFICATIONS,
                "PM job",
            ),
            f"{PM}/pm_jobs/{{pmJobId}}/reports/{{reportId}}": {
                "parameters": [
                    o._id_param("pmJobId"),
                    o._id_param("reportId"),
                ],
                "get": o._op(
                    "showPerformanceReport",
                    "Read a performance report of a PM job.",
                    o._ok("200", o._ref("PerformanceReport"), "The report."),
                ),
            },
            f"{PM}/thresholds": _collection(
                "Threshold",
                "Thresholds",
                pm_schemas.CREATE_THRESHOLD_REQUEST,
                "threshold",
            ),
            f"{PM}/thresholds/{{thresholdId}}": _item(
                "Threshold",
                "thresholdId",
                pm_schemas.THRESHOLD_MODIFICATIONS,
                "threshold",
            ),
        },
        VERSION,
    )
