"""jsonschema of SOL005 VNF package management request bodies.

Top-level attributes are closed (unknown ones are a 400), as in
:mod:`tacker_ng.api.schemas.vnflcm`.
"""

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
