"""SOL003 VNF fault management: the Alarm representation, the
FmNotificationsFilter, and AlarmNotification / AlarmClearedNotification
put in the outbox in the alarm change's transaction.

Delivery is the conductors' outbox loop, like every other notification.
"""

import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import orm

from tacker_ng.db import notifications as outbox
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo import subscription_filter as sf
from tacker_ng.nfvo.notify import public_base_url
from tacker_ng.objects import times, views

FM_PREFIX = "/vnffm/v1"
ALARM_NOTIFICATION = "AlarmNotification"
ALARM_CLEARED_NOTIFICATION = "AlarmClearedNotification"
ALARM_LIST_REBUILT_NOTIFICATION = "AlarmListRebuiltNotification"
NOTIFICATION_TYPES = (
    ALARM_NOTIFICATION,
    ALARM_CLEARED_NOTIFICATION,
    ALARM_LIST_REBUILT_NOTIFICATION,
)
PERCEIVED_SEVERITIES = (
    "CRITICAL",
    "MAJOR",
    "MINOR",
    "WARNING",
    "INDETERMINATE",
    "CLEARED",
)
EVENT_TYPES = (
    "COMMUNICATIONS_ALARM",
    "PROCESSING_ERROR_ALARM",
    "ENVIRONMENTAL_ALARM",
    "QOS_ALARM",
    "EQUIPMENT_ALARM",
)
FAULTY_RESOURCE_TYPES = ("COMPUTE", "STORAGE", "NETWORK")
ACK_STATES = ("UNACKNOWLEDGED", "ACKNOWLEDGED")


def _time(value) -> str | None:
    return times.sol_time(value) if value is not None else None


def alarm_view(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """An Alarm (SOL003 7.5.2.4) from a ``vnf_alarms`` row."""
    body: dict[str, Any] = {
        "id": row["id"],
        "managedObjectId": row["managed_object_id"],
        "vnfcInstanceIds": row.get("vnfc_instance_ids"),
        "rootCauseFaultyResource": row.get("root_cause_faulty_resource"),
        "alarmRaisedTime": _time(row["alarm_raised_time"]),
        "alarmChangedTime": _time(row.get("alarm_changed_time")),
        "alarmClearedTime": _time(row.get("alarm_cleared_time")),
        "alarmAcknowledgedTime": _time(row.get("alarm_acknowledged_time")),
        "ackState": row["ack_state"],
        "perceivedSeverity": row["perceived_severity"],
        "eventTime": _time(row["event_time"]),
        "eventType": row["event_type"],
        "faultType": row.get("fault_type"),
        "probableCause": row["probable_cause"],
        "isRootCause": row["is_root_cause"],
        "faultDetails": row.get("fault_details"),
        "_links": {
            "self": {"href": f"{base}{FM_PREFIX}/alarms/{row['id']}"},
            "objectInstance": {
                "href": f"{base}{views.LCM_PREFIX}/vnf_instances/"
                f"{row['managed_object_id']}"
            },
        },
    }
    return {k: v for k, v in body.items() if v is not None}


def subscription_view(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """An FmSubscription (SOL003 7.5.2.3); authentication is omitted."""
    body = {
        "id": row["id"],
        "filter": row.get("filter"),
        "callbackUri": row["callback_uri"],
        "_links": {
            "self": {"href": f"{base}{FM_PREFIX}/subscriptions/{row['id']}"}
        },
    }
    return {k: v for k, v in body.items() if v is not None}


def matches(
    fm_filter: Mapping[str, Any] | None,
    notification_type: str,
    alarm: Mapping[str, Any],
    instance: Mapping[str, Any],
) -> bool:
    """Does an FmNotificationsFilter (SOL003 7.5.3.2) select it? Every
    attribute given must match (AND), list values are alternatives."""
    f = fm_filter or {}
    if f.get("notificationTypes") and (
        notification_type not in f["notificationTypes"]
    ):
        return False
    resource = (alarm.get("root_cause_faulty_resource") or {}).get(
        "faultyResourceType"
    )
    for key, value in (
        ("faultyResourceTypes", resource),
        ("perceivedSeverities", alarm["perceived_severity"]),
        ("eventTypes", alarm["event_type"]),
        ("probableCauses", alarm["probable_cause"]),
    ):
        if f.get(key) and value not in f[key]:
            return False
    return sf.instance_matches(
        f.get("vnfInstanceSubscriptionFilter"), instance
    )


def _enqueue(
    session: orm.Session,
    notification_type: str,
    alarm: Mapping[str, Any],
    instance: Mapping[str, Any],
) -> int:
    base = public_base_url()
    queued = 0
    for sub in subscriptions_db.FM.for_project(session, alarm["project_id"]):
        if not matches(sub["filter"], notification_type, alarm, instance):
            continue
        payload: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "notificationType": notification_type,
            "subscriptionId": sub["id"],
            "timeStamp": times.sol_time(utcnow()),
            "_links": {
                "subscription": {
                    "href": f"{base}{FM_PREFIX}/subscriptions/{sub['id']}"
                }
            },
        }
        if notification_type == ALARM_NOTIFICATION:
            payload["alarm"] = alarm_view(base, alarm)
        else:
            payload["alarmId"] = alarm["id"]
            payload["alarmClearedTime"] = _time(alarm["alarm_cleared_time"])
            payload["_links"]["alarm"] = {
                "href": f"{base}{FM_PREFIX}/alarms/{alarm['id']}"
            }
        outbox.enqueue(session, sub["id"], notification_type, payload)
        queued += 1
    return queued


def alarm_raised(
    session: orm.Session,
    alarm: Mapping[str, Any],
    instance: Mapping[str, Any],
) -> int:
    """AlarmNotification for a new (or changed) alarm."""
    return _enqueue(session, ALARM_NOTIFICATION, alarm, instance)


def alarm_cleared(
    session: orm.Session,
    alarm: Mapping[str, Any],
    instance: Mapping[str, Any],
) -> int:
    """AlarmClearedNotification: the drift behind ``alarm`` ended."""
    return _enqueue(session, ALARM_CLEARED_NOTIFICATION, alarm, instance)
