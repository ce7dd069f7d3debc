"""Policy for the conductor fleet API (operators only)."""

from oslo_policy import policy

rules = [
    policy.DocumentedRuleDefault(
        name="tacker_ng:conductors:list",
        check_str="rule:admin_api",
        description="List conductors and whether each is alive.",
        operations=[{"path": "/v1/conductors", "method": "GET"}],
    ),
    policy.DocumentedRuleDefault(
        name="tacker_ng:conductors:ping",
        check_str="rule:admin_api",
        description="Make an RPC round trip to a conductor.",
        operations=[{"path": "/v1/ping", "method": "POST"}],
    ),
]


def list_rules() -> list:
    return rules
