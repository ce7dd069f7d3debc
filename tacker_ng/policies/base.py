"""Reusable check strings shared by the per-API policy modules."""

from oslo_policy import policy

ADMIN = "role:admin"
PROJECT_READER = "role:reader and project_id:%(project_id)s"
PROJECT_MEMBER = "role:member and project_id:%(project_id)s"
PROJECT_READER_OR_ADMIN = f"({PROJECT_READER}) or {ADMIN}"
PROJECT_MEMBER_OR_ADMIN = f"({PROJECT_MEMBER}) or {ADMIN}"

rules = [
    policy.RuleDefault(
        "admin_api", ADMIN, description="Rule for admin-only APIs."
    ),
    policy.RuleDefault(
        "project_reader_or_admin",
        PROJECT_READER_OR_ADMIN,
        description="A reader of the resource's project, or an admin.",
    ),
    policy.RuleDefault(
        "project_member_or_admin",
        PROJECT_MEMBER_OR_ADMIN,
        description="A member of the resource's project, or an admin.",
    ),
]


def documented(
    prefix: str,
    specs: list[tuple[str, str, str, list[tuple[str, str]]]],
) -> list[policy.DocumentedRuleDefault]:
    """Rules ``<prefix>:<name>`` from (name, check, description,
    [(method, path), ...]) tuples, as the per-API modules declare them."""
    return [
        policy.DocumentedRuleDefault(
            name=f"{prefix}:{name}",
            check_str=check,
            description=description,
            operations=[
                {"method": method, "path": path} for method, path in operations
            ],
        )
        for name, check, description, operations in specs
    ]


def list_rules() -> list:
    return rules
