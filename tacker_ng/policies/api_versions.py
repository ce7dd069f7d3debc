"""Policy for SOL api_versions resources (any authenticated caller)."""

from oslo_policy import policy

rules = [
    policy.DocumentedRuleDefault(
        name="tacker_ng:api_versions:show",
        check_str="",
        description="Read the API versions a SOL API supports.",
        operations=[
            {"path": "/vnflcm/api_versions", "method": "GET"},
            {"path": "/vnflcm/v2/api_versions", "method": "GET"},
        ],
    ),
]


def list_rules() -> list:
    return rules
