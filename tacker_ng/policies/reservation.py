"""Policy for the reservation API (``/reservation/v1``).

Leases belong to a project: its readers see them, its members change
them, admins see and change every project's. Hosts and allocations are
the operator's (admin only), as in Blazar.
"""

from oslo_policy import policy

PREFIX = "tacker_ng:reservation"
V1 = "/reservation/v1"


def _rule(name: str, check: str, description: str, operations) -> object:
    return policy.DocumentedRuleDefault(
        name=f"{PREFIX}:{name}",
        check_str=check,
        description=description,
        operations=[{"path": p, "method": m} for m, p in operations],
    )


rules = [
    _rule(
        "versions:show",
        "",
        "Read the reservation API's version documents.",
        [("GET", "/reservation"), ("GET", V1)],
    ),
    _rule(
        "leases:list",
        "rule:project_reader_or_admin",
        "List the leases of the caller's project.",
        [("GET", f"{V1}/leases")],
    ),
    _rule(
        "leases:list_all_projects",
        "rule:admin_api",
        "List the leases of every project (instead of the caller's).",
        [("GET", f"{V1}/leases")],
    ),
    _rule(
        "leases:get",
        "rule:project_reader_or_admin",
        "Show a lease.",
        [("GET", f"{V1}/leases/{{lease_id}}")],
    ),
    _rule(
        "leases:create",
        "rule:project_member_or_admin",
        "Create a lease (admission against the freepool).",
        [("POST", f"{V1}/leases")],
    ),
    _rule(
        "leases:update",
        "rule:project_member_or_admin",
        "Rename, move or resize a lease.",
        [("PUT", f"{V1}/leases/{{lease_id}}")],
    ),
    _rule(
        "leases:delete",
        "rule:project_member_or_admin",
        "Delete a lease and free its capacity.",
        [("DELETE", f"{V1}/leases/{{lease_id}}")],
    ),
    _rule(
        "hosts:list",
        "rule:admin_api",
        "List the freepool hosts.",
        [("GET", f"{V1}/os-hosts")],
    ),
    _rule(
        "hosts:get",
        "rule:admin_api",
        "Show a freepool host.",
        [("GET", f"{V1}/os-hosts/{{host_id}}")],
    ),
    _rule(
        "hosts:create",
        "rule:admin_api",
        "Register a Nova hypervisor into the freepool.",
        [("POST", f"{V1}/os-hosts")],
    ),
    _rule(
        "hosts:update",
        "rule:admin_api",
        "Set or unset extra capabilities of a host.",
        [("PUT", f"{V1}/os-hosts/{{host_id}}")],
    ),
    _rule(
        "hosts:delete",
        "rule:admin_api",
        "Remove a host without reservations from the freepool.",
        [("DELETE", f"{V1}/os-hosts/{{host_id}}")],
    ),
    _rule(
        "hosts:allocations",
        "rule:admin_api",
        "Show which reservations hold which hosts.",
        [
            ("GET", f"{V1}/os-hosts/allocations"),
            ("GET", f"{V1}/os-hosts/{{host_id}}/allocation"),
        ],
    ),
]


def list_rules() -> list:
    return rules
