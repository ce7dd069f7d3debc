"""Policy for the local NFVO's grants (``GET /grant/v1/grants/{id}``)."""

from tacker_ng.policies import base

PREFIX = "tacker_ng:grant"
READER = "rule:project_reader_or_admin"
GRANT = "/grant/v1/grants/{grantId}"

_RULES = [
    (
        "grant_show",
        READER,
        "Show a grant the local NFVO issued (a reader of the project of "
        "the op occ it grants).",
        [("GET", GRANT)],
    ),
]

rules = base.documented(PREFIX, _RULES)


def list_rules() -> list:
    return rules
