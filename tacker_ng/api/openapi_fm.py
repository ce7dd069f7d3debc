"""The VNF fault management part of the OpenAPI document (``/vnffm/v1``)
and the admin ``observe`` and ``observed`` routes;
:mod:`tacker_ng.api.openapi` merges it."""

from __future__ import annotations

from typing import Any

from tacker_ng.api import openapi as o
from tacker_ng.api.schemas import vnffm as fm_schemas

FM = "/vnffm/v1"
NULLABLE_STRING = {"type": ["string", "null"]}
NULLABLE_DATETIME = {"type": ["string", "null"], "format": "date-time"}

SCHEMAS: dict[str, dict[str, Any]] = {
    "Alarm": o._obj(
        [
            "id",
            "managedObjectId",
            "alarmRaisedTime",
            "ackState",
            "perceivedSeverity",
            "eventTime",
            "eventType",
            "probableCause",
            "isRootCause",
            "_links",
        ],
        id=o.ID,
        managedObjectId=o.ID,
        vnfcInstanceIds={"type": "array", "items": {"type": "string"}},
        rootCauseFaultyResource=o.OBJECT,
        alarmRaisedTime=o.DATETIME,
        alarmChangedTime=o.DATETIME,
        alarmClearedTime=o.DATETIME,
        alarmAcknowledgedTime=o.DATETIME,
        ackState={"enum": ["UNACKNOWLEDGED", "ACKNOWLEDGED"]},
        perceivedSeverity={"type": "string"},
        eventTime=o.DATETIME,
        eventType={"type": "string"},
        faultType={"type": "string"},
        probableCause={"type": "string"},
        isRootCause={"type": "boolean"},
        faultDetails={"type": "array", "items": {"type": "string"}},
        _links=o.OBJECT,
    ),
    "AlarmModifications": o._obj(
        ["ackState"], ackState={"enum": ["UNACKNOWLEDGED", "ACKNOWLEDGED"]}
    ),
    "ObservedVnfc": o._obj(
        ["vnfcId", "vduId", "observed"],
        vnfcId={"type": "string"},
        vduId={"type": "string"},
        resourceId=NULLABLE_STRING,
        desiredStatus=NULLABLE_STRING,
        desiredZone=NULLABLE_STRING,
        observed={"type": "boolean"},
        observedResourceId=NULLABLE_STRING,
        observedStatus=NULLABLE_STRING,
        host=NULLABLE_STRING,
        hostUp={"type": ["boolean", "null"]},
        zone=NULLABLE_STRING,
        drift={"enum": ["MISSING", "ERROR", "SHUTOFF", "HOST_DOWN", None]},
        driftSince=NULLABLE_DATETIME,
        lastSeen=NULLABLE_DATETIME,
    ),
    "ObservedState": o._obj(
        ["vnfInstanceId", "instantiationState", "vnfcs"],
        vnfInstanceId=o.ID,
        instantiationState={"enum": ["NOT_INSTANTIATED", "INSTANTIATED"]},
        isAutohealEnabled={"type": "boolean"},
        lastObservedAt=NULLABLE_DATETIME,
        observeRequestedAt=NULLABLE_DATETIME,
        autohealFailures={"type": "integer"},
        lastAutohealOpOccId=NULLABLE_STRING,
        autohealBackoffUntil=NULLABLE_DATETIME,
        vnfcs={"type": "array", "items": o._ref("ObservedVnfc")},
    ),
    "FmSubscription": o._obj(
        ["id", "callbackUri", "_links"],
        id=o.ID,
        callbackUri={"type": "string"},
        filter=o.OBJECT,
        _links=o.OBJECT,
    ),
}


def paths() -> dict[str, dict]:
    """Every ``/vnffm/v1`` route plus ``/v1/vnf_instances/{id}/observe``
    and ``/observed``."""
    fm: dict[str, dict] = {
        f"{FM}/alarms": {
            "get": o._op(
                "listAlarms",
                "List alarms (attribute filter, paged).",
                o._ok(
                    "200",
                    {"type": "array", "items": o._ref("Alarm")},
                    "The page.",
                ),
            )
        },
        f"{FM}/alarms/{{alarmId}}": {
            "parameters": [o._id_param("alarmId")],
            "get": o._op(
                "showAlarm",
                "Show an alarm.",
                o._ok("200", o._ref("Alarm"), "The alarm."),
            ),
            "patch": o._op(
                "modifyAlarm",
                "Acknowledge an alarm.",
                o._ok("200", o._ref("AlarmModifications"), "Modified."),
                fm_schemas.ALARM_MODIFICATIONS,
                media="application/merge-patch+json",
                extra_errors=("409",),
            ),
        },
        **o._subscription_paths(
            FM, "FmSubscription", fm_schemas.FM_SUBSCRIPTION_REQUEST, "FM"
        ),
    }
    out = o._with_version(fm, "1.3.0")
    out["/v1/vnf_instances/{vnfInstanceId}/observe"] = {
        "parameters": [o._id_param("vnfInstanceId")],
        "post": o._op(
            "observeVnfInstance",
            "Have the conductors observe a VNF instance now (admin).",
            o._ok("202", None, "Requested."),
            extra_errors=("409",),
        ),
    }
    out["/v1/vnf_instances/{vnfInstanceId}/observed"] = {
        "parameters": [o._id_param("vnfInstanceId")],
        "get": o._op(
            "showObservedState",
            "Each VNFC's desired vs observed state and drift (admin).",
            o._ok("200", o._ref("ObservedState"), "The observed state."),
        ),
    }
    return out
