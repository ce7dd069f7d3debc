"""Put tenant resources back to the baseline between tests.

Shared by `minicloud.py reset` (minicloud's venv) and the pytest fixture
(the project's test venv): needs only openstacksdk and the state written
by setup_cloud.py. Returns what it removed, by kind.

Two scopes: :func:`reset` is the whole cloud (every project); a
:class:`Scope` of one lane (see lanes.py) deletes only what belongs to
that lane - its projects' resources, what stands on its hosts, and what
its tests named with its prefix - and restores only its hosts, zones and
quotas, so lanes reset while other lanes' tests run.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import placement_sync

QUOTAS = (
    "instances",
    "cores",
    "ram",
    "server_groups",
    "server_group_members",
    "key_pairs",
)
UNLIMITED = dict.fromkeys(QUOTAS, -1)
FILLER_PREFIX = "mc-filler-"


class ResetError(RuntimeError):
    """Something stayed behind after the reset."""


def poll(check: Callable[[], bool], timeout: float, first: float = 0.1):
    """Call ``check`` until it is true, waiting ``first`` seconds at
    first and half again as long each time (at most 1 s): quick when the
    service is quick, few calls when it is slow. False on timeout."""
    deadline = time.monotonic() + timeout
    interval = first
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
        interval = min(interval * 1.5, 1.0)
    return True


@dataclasses.dataclass(frozen=True)
class Scope:
    """What a reset may touch. ``projects`` None: every project."""

    projects: frozenset[str] | None = None
    hosts: frozenset[str] | None = None
    zones: frozenset[str] | None = None
    name_prefix: str | None = None
    keep_networks: frozenset[str] = frozenset()

    @classmethod
    def of_lane(cls, lane: dict[str, Any]) -> Scope:
        """One lane's scope (a lane of state["baseline"]["lanes"])."""
        hosts = {h for hs in lane["topology"].values() for h in hs}
        return cls(
            projects=frozenset({lane["project_id"], lane["admin_project_id"]}),
            hosts=frozenset(hosts),
            zones=frozenset(lane["zones"].values()),
            name_prefix=lane["name_prefix"],
            keep_networks=frozenset({lane["network_id"]}),
        )

    def owns_project(self, project_id: str | None) -> bool:
        return self.projects is None or project_id in self.projects

    def named(self, name: str | None) -> bool:
        """Named by this scope's tests (every name, cloud-wide)."""
        return self.name_prefix is None or (name or "").startswith(
            self.name_prefix
        )

    def owns_filler(self, name: str | None) -> bool:
        name = name or ""
        if not name.startswith(FILLER_PREFIX):
            return False
        return self.hosts is None or any(
            name.startswith(f"{FILLER_PREFIX}{h}-") for h in self.hosts
        )


def _until_gone(what: str, listing, timeout: float) -> None:
    left: list = []

    def gone() -> bool:
        left[:] = list(listing())
        return not left

    if not poll(gone, timeout):
        names = [getattr(x, "name", x) for x in left]
        raise ResetError(f"{what} still present after {timeout}s: {names}")


def _stacks(conn, scope: Scope, removed: Counter, timeout: float) -> None:
    """Delete the scope's Heat stacks. An admin's stack list holds every
    project's stacks (each with its "project"): keep to the scope's."""
    orch = conn.orchestration

    def mine() -> list[dict]:
        stacks = orch.get("/stacks").json()["stacks"]
        return [s for s in stacks if scope.owns_project(s.get("project"))]

    for attempt in range(2):
        stacks = mine()
        if not stacks:
            return
        for st in stacks:
            if st["stack_status"] != "DELETE_IN_PROGRESS":
                orch.delete_stack(st["id"], ignore_missing=True)
                removed["stacks"] += attempt == 0

        def settled() -> bool:
            left = mine()
            return not left or all(
                s["stack_status"] == "DELETE_FAILED" for s in left
            )

        poll(settled, timeout)
    left = [f"{s['stack_name']}:{s['stack_status']}" for s in mine()]
    if left:
        raise ResetError(f"stacks could not be deleted: {left}")


def _servers(conn, scope: Scope) -> list:
    return [
        s
        for s in conn.compute.servers(all_projects=True)
        if scope.owns_project(s.project_id)
        or scope.owns_filler(s.name)
        or (scope.hosts is not None and s.compute_host in scope.hosts)
    ]


def _with_named_projects(conn, scope: Scope) -> Scope:
    """The scope with the projects its tests made (named with its
    prefix): their servers, ports and volumes are its too."""
    if scope.projects is None:
        return scope
    default = conn.identity.find_domain("default")
    named = {
        p.id
        for p in conn.identity.projects(domain_id=default.id)
        if scope.named(p.name)
    }
    return dataclasses.replace(scope, projects=scope.projects | named)


def _flavors(conn, scope: Scope, keep: set[str], removed: Counter) -> None:
    cmp = conn.compute
    for f in cmp.flavors(is_public=None):
        if f.id in keep:
            continue
        mine = scope.projects is None or scope.named(f.name)
        mine = mine or scope.owns_filler(f.name)
        if not mine and not f.is_public:
            access = cmp.get_flavor_access(f)
            mine = any(scope.owns_project(a["tenant_id"]) for a in access)
        if mine:
            cmp.delete_flavor(f, ignore_missing=True)
            removed["flavors"] += 1


def _aggregates(conn, state: dict, scope: Scope, removed: Counter) -> None:
    """Delete the scope's extra aggregates; restore the hosts and the
    metadata of its baseline aggregates (a zone's, a lane's), in Nova and
    in Placement's copy (placement_sync.py)."""
    cmp = conn.compute
    wanted = {a["id"]: a for a in state["baseline"]["aggregates"].values()}
    members: dict[str, set[str]] = {}
    for agg in cmp.aggregates():
        spec = wanted.get(agg.id)
        hosts = set(agg.hosts or [])
        if spec is None:
            on_mine = bool(hosts) and scope.hosts is not None
            on_mine = on_mine and hosts <= scope.hosts
            if scope.named(agg.name) or on_mine:
                for h in hosts:
                    cmp.remove_host_from_aggregate(agg, h)
                cmp.delete_aggregate(agg, ignore_missing=True)
                removed["aggregates"] += 1
            continue
        if scope.hosts is not None and not set(spec["hosts"]) <= scope.hosts:
            continue
        for h in hosts - set(spec["hosts"]):
            cmp.remove_host_from_aggregate(agg, h)
        for h in set(spec["hosts"]) - hosts:
            cmp.add_host_to_aggregate(agg, h)
        for h in spec["hosts"]:
            members.setdefault(h, set()).add(agg.uuid)
        meta = dict(agg.metadata or {})
        want = spec.get("metadata") or {
            # A baseline written before aggregates had "metadata".
            "availability_zone": spec["name"][len("mc-az-") :]
        }
        fix = {k: None for k in meta if k not in want}
        fix.update({k: v for k, v in want.items() if meta.get(k) != v})
        if fix:
            cmp.set_aggregate_metadata(agg, fix)
            removed["aggregate_changes"] += 1
    placement_sync.ensure_members(conn.placement, members, removed)


def restore_computes(conn, hosts: Iterable[str] | None) -> Counter:
    """Enable the nova-compute services of ``hosts`` (None: all) that a
    test disabled and clear their forced-down flag; what was undone."""
    wanted = None if hosts is None else set(hosts)
    undone: Counter = Counter()
    cmp = conn.compute
    for svc in cmp.services(binary="nova-compute"):
        if wanted is not None and svc.host not in wanted:
            continue
        if svc.status == "disabled":
            cmp.enable_service(svc)
            undone["disabled_services"] += 1
        if getattr(svc, "is_forced_down", False):
            cmp.update_service_forced_down(svc, forced=False)
            undone["forced_down_services"] += 1
    return undone


def _compute(conn, state: dict, scope: Scope, removed, timeout) -> None:
    cmp = conn.compute
    servers = _servers(conn, scope)
    for s in servers:
        cmp.delete_server(s, ignore_missing=True, force=s.status == "ERROR")
    removed["servers"] += len(servers)
    _until_gone("servers", lambda: _servers(conn, scope), timeout)
    for g in cmp.server_groups(all_projects=True):
        if scope.owns_project(g.project_id):
            cmp.delete_server_group(g, ignore_missing=True)
            removed["server_groups"] += 1
    _flavors(conn, scope, set(state["baseline"]["flavors"].values()), removed)
    _aggregates(conn, state, scope, removed)
    removed.update(restore_computes(conn, scope.hosts))
    for lane in state["baseline"].get("lanes") or [state]:
        for pid in (lane["project_id"], lane["admin_project_id"]):
            if scope.owns_project(pid):
                cmp.revert_quota_set(pid)
    cmp.update_quota_class_set("default", **UNLIMITED)


def _cinder(conn, kind: str, scope: Scope, removed, timeout) -> None:
    """Delete Cinder ``snapshots`` or ``volumes`` of the scope. Snapshots
    go before the stacks: Cinder refuses to delete a volume that has
    one, so Heat would fail to delete its stack. Volumes go after the
    servers they were attached to."""
    bs = conn.block_storage
    singular = kind[:-1]

    def mine() -> list:
        return [
            i
            for i in getattr(bs, kind)(all_projects=True)
            if scope.owns_project(i.project_id)
        ]

    items = mine()
    for item in items:
        getattr(bs, f"delete_{singular}")(
            item, ignore_missing=True, force=True
        )
    removed["volume_snapshots" if kind == "snapshots" else kind] += len(items)
    _until_gone(kind, mine, timeout)


def _network(conn, state: dict, scope: Scope, removed: Counter) -> None:
    net = conn.network
    keep_nets = {lane["network_id"] for lane in _lanes(state)}
    keep_nets.add(state["baseline"]["network_id"])
    keep_subnets = {lane["subnet_id"] for lane in _lanes(state)}
    keep_subnets.add(state["baseline"]["subnet_id"])
    for p in net.ports():
        if scope.owns_project(p.project_id):
            net.delete_port(p, ignore_missing=True)
            removed["ports"] += 1
    for s in net.subnets():
        if s.id not in keep_subnets and scope.owns_project(s.project_id):
            net.delete_subnet(s, ignore_missing=True)
            removed["subnets"] += 1
    for n in net.networks():
        if n.id not in keep_nets and scope.owns_project(n.project_id):
            net.delete_network(n, ignore_missing=True)
            removed["networks"] += 1
    for sg in net.security_groups():
        if sg.name != "default" and scope.owns_project(sg.project_id):
            net.delete_security_group(sg, ignore_missing=True)
            removed["security_groups"] += 1


def _lanes(state: dict) -> Iterable[dict]:
    return state["baseline"].get("lanes") or []


def _identity_and_images(conn, state: dict, scope, removed) -> None:
    base = state["baseline"]
    for img in conn.image.images():
        if img.id != base["image_id"] and scope.owns_project(img.owner_id):
            conn.image.delete_image(img, ignore_missing=True)
            removed["images"] += 1
    idc = conn.identity
    default = idc.find_domain("default")
    for p in idc.projects(domain_id=default.id):
        if p.id not in base["project_ids"] and scope.named(p.name):
            idc.delete_project(p, ignore_missing=True)
            removed["projects"] += 1
    for u in idc.users(domain_id=default.id):
        if u.id not in base["user_ids"] and scope.named(u.name):
            idc.delete_user(u, ignore_missing=True)
            removed["users"] += 1


def reset(
    admin_conn,
    owners: Iterable,
    state: dict[str, Any],
    timeout: float = 180,
    scope: Scope | None = None,
) -> dict[str, int]:
    """Delete everything tests (of ``scope``: default the whole cloud)
    may have created; restore zones, hosts, quotas. ``admin_conn``: an
    admin of the scope; ``owners``: connections of the users whose
    keypairs go (Nova lists a user's own keypairs). Raises ResetError if
    something cannot be removed."""
    scope = _with_named_projects(admin_conn, scope or Scope())
    owners = list(owners)
    removed: Counter = Counter()
    _cinder(admin_conn, "snapshots", scope, removed, timeout)
    _stacks(admin_conn, scope, removed, timeout)
    for c in owners:
        for kp in c.compute.keypairs():
            c.compute.delete_keypair(kp, ignore_missing=True)
            removed["keypairs"] += 1
    _compute(admin_conn, state, scope, removed, timeout)
    _cinder(admin_conn, "volumes", scope, removed, timeout)
    _network(admin_conn, state, scope, removed)
    _identity_and_images(admin_conn, state, scope, removed)
    return {k: v for k, v in removed.items() if v}


def lane_auths(state: dict[str, Any]) -> list[dict[str, str]]:
    """keystoneauth arguments of every lane's project user and admin
    (the owners of a whole-cloud reset); the legacy pair when the state
    has no lanes."""
    lanes = list(_lanes(state)) or [state]
    out = []
    for lane in lanes:
        out += [lane["project_auth"], lane["admin_auth"]]
    return out
