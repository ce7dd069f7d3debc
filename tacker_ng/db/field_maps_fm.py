"""Filterable attributes of the VNF FM resources (SOL003 clause 7):
Alarm (7.4.2.3.2's attribute filter) and FmSubscription."""

from tacker_ng.db import field_maps
from tacker_ng.db import models_convergence as cm

_SEVERITY = "CRITICAL|MAJOR|MINOR|WARNING|INDETERMINATE|CLEARED"
_EVENT = (
    "COMMUNICATIONS_ALARM|PROCESSING_ERROR_ALARM|ENVIRONMENTAL_ALARM|"
    "QOS_ALARM|EQUIPMENT_ALARM"
)

ALARM = field_maps.FieldMap(
    "Alarm",
    cm.VnfAlarm.__table__,
    columns={
        "id": "id:uuid",
        "managedObjectId": "managed_object_id:uuid",
        "eventType": f"event_type:enum({_EVENT})",
        "perceivedSeverity": f"perceived_severity:enum({_SEVERITY})",
        "probableCause": "probable_cause",
        "ackState": "ack_state:enum(UNACKNOWLEDGED|ACKNOWLEDGED)",
        "faultType": "fault_type",
        "alarmRaisedTime": "alarm_raised_time:datetime",
    },
    documents={
        "vnfcInstanceIds": "vnfc_instance_ids",
        "rootCauseFaultyResource": "root_cause_faulty_resource",
    },
    leaves={
        "rootCauseFaultyResource": "faultyResourceType:enum("
        "COMPUTE|STORAGE|NETWORK) faultyResource/resourceId "
        "faultyResource/vimConnectionId",
    },
    unrendered=("open_key", "project_id"),
)

_FILTER = "filter/vnfInstanceSubscriptionFilter"
FM_SUBSCRIPTION = field_maps.FieldMap(
    "FmSubscription",
    cm.FmSubscription.__table__,
    columns={"id": "id:uuid", "callbackUri": "callback_uri"},
    documents={"filter": "filter"},
    leaves={
        _FILTER: "vnfdIds[] vnfInstanceIds[] vnfInstanceNames[]",
        "filter": "notificationTypes[]:enum(AlarmNotification|"
        "AlarmClearedNotification|AlarmListRebuiltNotification) "
        f"perceivedSeverities[]:enum({_SEVERITY}) "
        f"eventTypes[]:enum({_EVENT}) probableCauses[] "
        "faultyResourceTypes[]:enum(COMPUTE|STORAGE|NETWORK)",
    },
    unrendered=("fingerprint", "project_id", "authentication"),
)
