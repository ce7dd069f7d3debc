"""jsonschema of Tacker's VIM bodies (``/v1.0/vims``) as
python-tackerclient's ``openstack vim register/set`` builds them."""

_STR = {"type": "string", "maxLength": 255}
_TEXT = {"type": "string", "maxLength": 1024}
_PEM = {"type": "string", "maxLength": 65536}

_AUTH_CRED = {
    "type": "object",
    "properties": {
        "username": _STR,
        "password": {"type": "string", "maxLength": 1024},
        "user_domain_name": _STR,
        "cert_verify": {"enum": ["True", "False", True, False]},
        "bearer_token": {"type": "string", "maxLength": 16384},
        "ssl_ca_cert": _PEM,
        "oidc_token_url": _STR,
        "client_id": _STR,
        "client_secret": _STR,
    },
    "additionalProperties": False,
}
_PROJECT = {
    "type": "object",
    "properties": {"name": _STR, "project_domain_name": _STR},
    "additionalProperties": False,
}
_URL = {"type": "string", "pattern": "^https?://[^@/\\s]+(/\\S*)?$"}

CREATE = {
    "type": "object",
    "required": ["vim"],
    "additionalProperties": False,
    "properties": {
        "vim": {
            "type": "object",
            "required": ["name", "auth_url", "auth_cred"],
            "additionalProperties": False,
            "properties": {
                "name": {**_STR, "minLength": 1},
                "description": _TEXT,
                "type": {"enum": ["openstack", "kubernetes"]},
                "auth_url": _URL,
                "auth_cred": _AUTH_CRED,
                "vim_project": _PROJECT,
                "is_default": {"type": "boolean"},
                "tenant_id": _STR,
                "extra": {
                    "type": "object",
                    "properties": {"region": _STR},
                },
            },
        }
    },
}

UPDATE = {
    "type": "object",
    "required": ["vim"],
    "additionalProperties": False,
    "properties": {
        "vim": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "properties": {
                "name": {**_STR, "minLength": 1},
                "description": _TEXT,
                "auth_url": _URL,
                "auth_cred": _AUTH_CRED,
                "vim_project": _PROJECT,
                "is_default": {"type": "boolean"},
                "tenant_id": _STR,
                "extra": {"type": "object"},
            },
        }
    },
}
