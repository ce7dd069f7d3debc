"""jsonschema of SOL005 VNF package management request bodies.

Top-level attributes are closed (unknown ones are a 400), as in
:mod:`tacker_ng.api.schemas.vnflcm`.
"""

from tacker_ng.api.schemas import vnflcm as lcm

KEY_VALUE_PAIRS = {"type": "object"}

CREATE_VNF_PKG_INFO_REQUEST = {
    "type": "object",
    "properties": {"userDefinedData": KEY_VALUE_PAIRS},
    "additionalProperties": False,
}

VNF_PKG_INFO_MODIFICATIONS = {
    "type": "object",
    "properties": {
        "operationalState": {"enum": ["ENABLED", "DISABLED"]},
        "userDefinedData": KEY_VALUE_PAIRS,
    },
    "additionalProperties": False,
    "minProperties": 1,
}

UPLOAD_VNF_PKG_FROM_URI_REQUEST = {
    "type": "object",
    "properties": {
        "addressInformation": {
            "type": "string",
            "minLength": 1,
            "maxLength": 2048,
        },
        "userName": {"type": "string", "maxLength": 255},
        "password": {"type": "string", "maxLength": 1024},
    },
    "required": ["addressInformation"],
    "additionalProperties": False,
}

_STRINGS = {"type": "array", "items": lcm.IDENTIFIER}

#: PkgmSubscriptionRequest (SOL005 9.5.2.3) with its PkgmNotificationsFilter
#: (9.5.3.2): vnfProductsFromProviders, vnfdId and vnfPkgId are
#: alternatives ("shall not be present at the same time").
PKGM_SUBSCRIPTION_REQUEST = {
    "type": "object",
    "properties": {
        "filter": {
            "type": "object",
            "properties": {
                "notificationTypes": {
                    "type": "array",
                    "items": {
                        "enum": [
                            "VnfPackageOnboardingNotification",
                            "VnfPackageChangeNotification",
                        ]
                    },
                },
                "vnfProductsFromProviders": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["vnfProvider"],
                    },
                },
                "vnfdId": _STRINGS,
                "vnfPkgId": _STRINGS,
                "operationalState": {
                    "type": "array",
                    "items": {"enum": ["ENABLED", "DISABLED"]},
                },
                "usageState": {
                    "type": "array",
                    "items": {"enum": ["IN_USE", "NOT_IN_USE"]},
                },
            },
            "not": {
                "anyOf": [
                    {"required": ["vnfProductsFromProviders", "vnfdId"]},
                    {"required": ["vnfProductsFromProviders", "vnfPkgId"]},
                    {"required": ["vnfdId", "vnfPkgId"]},
                ]
            },
            "additionalProperties": False,
        },
        "callbackUri": lcm.URI,
        "authentication": lcm.LCCN_SUBSCRIPTION_REQUEST["properties"][
            "authentication"
        ],
    },
    "required": ["callbackUri"],
    "additionalProperties": False,
}
