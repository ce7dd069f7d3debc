"""Policy for the VNF fault management API (``/vnffm/v1``) and the
operator's on-demand observation (``/v1/vnf_instances/{id}/observe``)."""

from oslo_policy import policy

from tacker_ng.policies import base

PREFIX = "tacker_ng:vnffm"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
ALARMS = "/vnffm/v1/alarms"
ALARM = f"{ALARMS}/{{alarmId}}"
SUBS = "/vnffm/v1/subscriptions"
SUB = f"{SUBS}/{{subscriptionId}}"

_RULES = [
    ("alarm_index", READER, "List alarms.", [("GET", ALARMS)]),
    ("alarm_show", READER, "Show an alarm.", [("GET", ALARM)]),
    (
        "alarm_update",
        MEMBER,
        "Acknowledge an alarm (or take the acknowledgement back).",
        [("PATCH", ALARM)],
    ),
    (
        "subscription_create",
        MEMBER,
        "Subscribe to VNF fault management notifications.",
        [("POST", SUBS)],
    ),
    ("subscription_index", READER, "List FM subscriptions.", [("GET", SUBS)]),
    ("subscription_show", READER, "Show an FM subscription.", [("GET", SUB)]),
    (
        "subscription_delete",
        MEMBER,
        "Delete an FM subscription.",
        [("DELETE", SUB)],
    ),
]

rules = base.documented(PREFIX, _RULES) + [
    policy.DocumentedRuleDefault(
        name="tacker_ng:convergence:observe",
        check_str="rule:admin_api",
        description="Have the conductors observe a VNF instance now.",
        operations=[
            {"method": "POST", "path": "/v1/vnf_instances/{id}/observe"}
        ],
    ),
    policy.DocumentedRuleDefault(
        name="tacker_ng:convergence:observed",
        check_str="rule:admin_api",
        description="Show a VNF instance's desired vs observed state "
        "(each VNFC's status, host, zone, last seen, drift).",
        operations=[
            {"method": "GET", "path": "/v1/vnf_instances/{id}/observed"}
        ],
    ),
]


def list_rules() -> list:
    return rules
