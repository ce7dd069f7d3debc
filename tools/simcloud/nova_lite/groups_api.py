"""``os-server-groups``: the (anti-)affinity groups of reservations.

A group belongs to the project whose token made it, which is why
tacker-ng re-scopes its service user to the lease's project before
creating one: only that project's servers may use it as a scheduling
hint. ``all_projects`` is honoured for admins and silently ignored for
others, as Nova does.
"""

from __future__ import annotations

import uuid

from tools.simcloud.nova_lite import errors, views
from tools.simcloud.nova_lite.model import ServerGroup
from tools.simcloud.nova_lite.router import Request, Routes

routes = Routes()
_RULE = "os_compute_api:os-server-groups"
POLICIES = ["anti-affinity", "affinity", "soft-anti-affinity", "soft-affinity"]


def get_group(sim, req: Request, group_id: str, action: str) -> ServerGroup:
    group = sim.cloud.server_groups.get(group_id)
    if group is None:
        raise errors.not_found(
            f"Instance group {group_id} could not be found."
        )
    if not req.caller.is_admin and group.project_id != req.caller.project_id:
        raise errors.policy(f"{_RULE}:{action}")
    return group


@routes.add("GET", "/os-server-groups", "os-server-groups")
def list_groups(sim, req: Request):
    caller = req.caller
    everyone = req.arg("all_projects") is not None and caller.is_admin
    groups = [
        g
        for g in sim.cloud.server_groups.values()
        if everyone or g.project_id == caller.project_id
    ]
    offset = req.arg("offset", "0")
    limit = req.arg("limit")
    start = int(offset) if offset.isdigit() else 0
    end = (
        start + min(int(limit), sim.cloud.max_limit)
        if (limit and limit.isdigit())
        else start + sim.cloud.max_limit
    )
    return 200, {
        "server_groups": [
            views.server_group(req, g) for g in groups[start:end]
        ]
    }


@routes.add("POST", "/os-server-groups", "os-server-groups")
def create_group(sim, req: Request):
    body = req.json("server_group")
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 255:
        raise errors.invalid_input("name", name, "is not a valid name")
    if req.at_least(2, 64):
        policy = body.get("policy")
        field = "policy"
        unknown = sorted(set(body) - {"name", "policy", "rules"})
    else:
        policies = body.get("policies")
        policy = (
            policies[0]
            if isinstance(policies, list) and len(policies) == 1
            else policies
        )
        field = "policies"
        unknown = sorted(set(body) - {"name", "policies"})
    if unknown:
        raise errors.bad_request(
            "Invalid input for field/attribute server_group. Value: "
            f"{body}. Additional properties are not allowed "
            f"({', '.join(repr(u) for u in unknown)} was unexpected)"
        )
    if policy not in POLICIES:
        raise errors.invalid_input(
            field, policy, f"{policy!r} is not one of {POLICIES}"
        )
    rules = body.get("rules") or {}
    if rules and policy != "anti-affinity":
        raise errors.bad_request("Only anti-affinity policy supports rules.")
    group = ServerGroup(
        id=str(uuid.uuid4()),
        name=name,
        policy=policy,
        project_id=req.caller.project_id,
        user_id=req.caller.user_id,
        rules=dict(rules),
    )
    sim.cloud.server_groups[group.id] = group
    return 200, {"server_group": views.server_group(req, group)}


@routes.add("GET", "/os-server-groups/{group_id}", "os-server-groups/{id}")
def show_group(sim, req: Request, group_id: str):
    group = get_group(sim, req, group_id, "show")
    return 200, {"server_group": views.server_group(req, group)}


@routes.add("DELETE", "/os-server-groups/{group_id}", "os-server-groups/{id}")
def delete_group(sim, req: Request, group_id: str):
    group = get_group(sim, req, group_id, "delete")
    del sim.cloud.server_groups[group.id]
    return 204, None
