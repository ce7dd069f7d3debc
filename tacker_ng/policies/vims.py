"""Policy for the VIM registry (``/v1.0/vims``): members manage their
project's VIMs, readers see them, admins see every project's."""

from tacker_ng.policies import base

PREFIX = "tacker_ng:vims"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
VIMS = "/v1.0/vims"
VIM = f"{VIMS}/{{vim_id}}"

_RULES = [
    ("create", MEMBER, "Register a VIM.", [("POST", VIMS)]),
    ("index", READER, "List VIMs.", [("GET", VIMS)]),
    ("show", READER, "Show a VIM (never its secrets).", [("GET", VIM)]),
    (
        "update",
        MEMBER,
        "Change a VIM's name, credentials or default flag.",
        [("PUT", VIM)],
    ),
    ("delete", MEMBER, "Remove a VIM.", [("DELETE", VIM)]),
]

rules = base.documented(PREFIX, _RULES)


def list_rules() -> list:
    return rules
