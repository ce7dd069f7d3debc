"""jsonschema of SOL003 VNF fault management request bodies (clause 7):
FmSubscriptionRequest with its FmNotificationsFilter, AlarmModifications.
"""

from tacker_ng.api.schemas import vnflcm as lcm
from tacker_ng.nfvo import fm_notify as fm

_LCCN = lcm.LCCN_SUBSCRIPTION_REQUEST["properties"]


def _enums(values: tuple[str, ...]) -> dict:
    return {"type": "array", "items": {"enum": list(values)}}


#: FmSubscriptionRequest (SOL003 7.5.2.2) / FmNotificationsFilter (7.5.3.2).
FM_SUBSCRIPTION_REQUEST = {
    "type": "object",
    "properties": {
        "filter": {
            "type": "object",
            "properties": {
                "vnfInstanceSubscriptionFilter": _LCCN["filter"]["properties"][
                    "vnfInstanceSubscriptionFilter"
                ],
                "notificationTypes": _enums(fm.NOTIFICATION_TYPES),
                "faultyResourceTypes": _enums(fm.FAULTY_RESOURCE_TYPES),
                "perceivedSeverities": _enums(fm.PERCEIVED_SEVERITIES),
                "eventTypes": _enums(fm.EVENT_TYPES),
                "probableCauses": {
                    "type": "array",
                    "items": {"type": "string", "maxLength": 255},
                },
            },
            "additionalProperties": False,
        },
        "callbackUri": lcm.URI,
        "authentication": _LCCN["authentication"],
    },
    "required": ["callbackUri"],
    "additionalProperties": False,
}

#: AlarmModifications (SOL003 7.5.2.8).
ALARM_MODIFICATIONS = {
    "type": "object",
    "properties": {"ackState": {"enum": list(fm.ACK_STATES)}},
    "required": ["ackState"],
    "additionalProperties": False,
}
