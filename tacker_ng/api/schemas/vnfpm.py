"""jsonschema of SOL003 v3.3.1 VNF performance management request bodies
(clause 6, interface version 2.1.0): CreatePmJobRequest with its
PmJobCriteria, PmJobModifications, CreateThresholdRequest with its
ThresholdCriteria, ThresholdModifications.

Like the LCM schemas, every structure is closed (an unknown attribute is
a 400). What a schema cannot say (a metric tacker-ng measures, sane
periods, instances the caller owns) is :mod:`tacker_ng.pm.rules`' (422).
"""

from tacker_ng.api.schemas import vnflcm as lcm
from tacker_ng.pm import measurements

#: SubscriptionAuthentication (SOL013 8.3.4 as SOL003 v3.3.1 uses it).
AUTHENTICATION = lcm.LCCN_SUBSCRIPTION_REQUEST["properties"]["authentication"]
OBJECT_TYPE = {"enum": list(measurements.OBJECT_TYPES)}
#: A year and a day: longer periods are no performance management.
MAX_PERIOD = 366 * 24 * 3600
_PERIOD = {"type": "integer", "minimum": 1, "maximum": MAX_PERIOD}
_NAMES = {
    "type": "array",
    "minItems": 1,
    "maxItems": 64,
    "uniqueItems": True,
    "items": {"type": "string", "minLength": 1, "maxLength": 255},
}
_IDS = {
    "type": "array",
    "minItems": 1,
    "maxItems": 1000,
    "uniqueItems": True,
    "items": lcm.IDENTIFIER,
}
#: Finite numbers: JSON's 1e400 is a float infinity in Python.
_NUMBER = {"type": "number", "minimum": -1e300, "maximum": 1e300}

#: PmJobCriteria (SOL003 6.5.3.3).
PM_JOB_CRITERIA = {
    "type": "object",
    "properties": {
        "performanceMetric": _NAMES,
        "performanceMetricGroup": _NAMES,
        "collectionPeriod": _PERIOD,
        "reportingPeriod": _PERIOD,
        "reportingBoundary": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64,
        },
    },
    "required": ["collectionPeriod", "reportingPeriod"],
    "anyOf": [
        {"required": ["performanceMetric"]},
        {"required": ["performanceMetricGroup"]},
    ],
    "additionalProperties": False,
}

#: CreatePmJobRequest (SOL003 6.5.2.6).
CREATE_PM_JOB_REQUEST = {
    "type": "object",
    "properties": {
        "objectType": OBJECT_TYPE,
        "objectInstanceIds": {**_IDS, "maxItems": 100},
        "subObjectInstanceIds": _IDS,
        "criteria": PM_JOB_CRITERIA,
        "callbackUri": lcm.URI,
        "authentication": AUTHENTICATION,
    },
    "required": ["objectType", "objectInstanceIds", "criteria", "callbackUri"],
    "additionalProperties": False,
}

#: PmJobModifications (SOL003 6.5.2.12) and ThresholdModifications
#: (6.5.2.11), JSON merge patches: ``"authentication": null`` removes it.
MODIFICATIONS = {
    "type": "object",
    "properties": {
        "callbackUri": lcm.URI,
        "authentication": {"oneOf": [AUTHENTICATION, {"type": "null"}]},
    },
    "minProperties": 1,
    "additionalProperties": False,
}
PM_JOB_MODIFICATIONS = MODIFICATIONS
THRESHOLD_MODIFICATIONS = MODIFICATIONS

#: ThresholdCriteria (SOL003 6.5.3.4); SIMPLE is the only type.
THRESHOLD_CRITERIA = {
    "type": "object",
    "properties": {
        "performanceMetric": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
        },
        "thresholdType": {"enum": ["SIMPLE"]},
        "simpleThresholdDetails": {
            "type": "object",
            "properties": {
                "thresholdValue": _NUMBER,
                "hysteresis": {**_NUMBER, "minimum": 0},
            },
            "required": ["thresholdValue", "hysteresis"],
            "additionalProperties": False,
        },
    },
    "required": [
        "performanceMetric",
        "thresholdType",
        "simpleThresholdDetails",
    ],
    "additionalProperties": False,
}

#: CreateThresholdRequest (SOL003 6.5.2.8).
CREATE_THRESHOLD_REQUEST = {
    "type": "object",
    "properties": {
        "objectType": OBJECT_TYPE,
        "objectInstanceId": lcm.IDENTIFIER,
        "subObjectInstanceIds": _IDS,
        "criteria": THRESHOLD_CRITERIA,
        "callbackUri": lcm.URI,
        "authentication": AUTHENTICATION,
    },
    "required": ["objectType", "objectInstanceId", "criteria", "callbackUri"],
    "additionalProperties": False,
}
