"""Policy for tacker-ng's own metrics (operators only)."""

from oslo_policy import policy

rules = [
    policy.DocumentedRuleDefault(
        name="tacker_ng:metrics:show",
        check_str="rule:admin_api",
        description="Read tacker-ng's own metrics (Prometheus text "
        "format): API requests, op occs by operation and state, the "
        "notification backlog, conductors, the jobboard. Figures of every "
        "project together, hence admins only by default.",
        operations=[{"path": "/metrics", "method": "GET"}],
    ),
]


def list_rules() -> list:
    return rules
