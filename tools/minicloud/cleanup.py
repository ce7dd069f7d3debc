"""Put tenant resources back to the baseline between tests.

Shared by `minicloud.py reset` (minicloud's venv) and the pytest fixture
(the project's test venv): needs only openstacksdk and the state written
by setup_cloud.py. Returns what it removed, by kind.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

QUOTAS = (
    "instances",
    "cores",
    "ram",
    "server_groups",
    "server_group_members",
    "key_pairs",
)
UNLIMITED = dict.fromkeys(QUOTAS, -1)


class ResetError(RuntimeError):
    """Something stayed behind after the reset."""


def _until_gone(what: str, listing, timeout: float) -> None:
    t0 = time.monotonic()
    while True:
        left = list(listing())
        if not left:
            return
        if time.monotonic() - t0 > timeout:
            names = [getattr(x, "name", x) for x in left]
            raise ResetError(f"{what} still present after {timeout}s: {names}")
        time.sleep(1)


def _stacks(conn, removed: Counter, timeout: float) -> None:
    orch = conn.orchestration
    for attempt in range(2):
        stacks = list(orch.stacks())
        if not stacks:
            return
        for st in stacks:
            if st.status != "DELETE_IN_PROGRESS":
                orch.delete_stack(st, ignore_missing=True)
                removed["stacks"] += attempt == 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            left = list(orch.stacks())
            if not left or all(s.status == "DELETE_FAILED" for s in left):
                break
            time.sleep(1)
    left = [f"{s.name}:{s.status}" for s in orch.stacks()]
    if left:
        raise ResetError(f"stacks could not be deleted: {left}")


def _compute(conn, state: dict, removed: Counter, timeout: float) -> None:
    cmp = conn.compute
    base = state["baseline"]
    servers = list(cmp.servers(all_projects=True))
    for s in servers:
        cmp.delete_server(s, ignore_missing=True, force=s.status == "ERROR")
    removed["servers"] += len(servers)
    _until_gone("servers", lambda: cmp.servers(all_projects=True), timeout)
    for g in cmp.server_groups(all_projects=True):
        cmp.delete_server_group(g, ignore_missing=True)
        removed["server_groups"] += 1
    keep = set(base["flavors"].values())
    for f in cmp.flavors(is_public=None):
        if f.id not in keep:
            cmp.delete_flavor(f, ignore_missing=True)
            removed["flavors"] += 1
    wanted = {a["id"]: a for a in base["aggregates"].values()}
    for agg in cmp.aggregates():
        spec = wanted.get(agg.id)
        hosts = set(agg.hosts or [])
        extra = hosts - set(spec["hosts"]) if spec else hosts
        for h in extra:
            cmp.remove_host_from_aggregate(agg, h)
        if spec is None:
            cmp.delete_aggregate(agg, ignore_missing=True)
            removed["aggregates"] += 1
            continue
        for h in set(spec["hosts"]) - hosts:
            cmp.add_host_to_aggregate(agg, h)
        meta = agg.metadata or {}
        zone = agg.availability_zone
        fix = {k: None for k in meta if k != "availability_zone"}
        if fix or zone != spec["name"][len("mc-az-") :]:
            fix["availability_zone"] = spec["name"][len("mc-az-") :]
            cmp.set_aggregate_metadata(agg, fix)
            removed["aggregate_changes"] += 1
    for svc in cmp.services(binary="nova-compute"):
        if svc.status == "disabled":
            cmp.enable_service(svc)
            removed["disabled_services"] += 1
        if getattr(svc, "is_forced_down", False):
            cmp.update_service_forced_down(svc, forced=False)
            removed["forced_down_services"] += 1
    for pid in (state["project_id"], state["admin_project_id"]):
        cmp.revert_quota_set(pid)
    cmp.update_quota_class_set("default", **UNLIMITED)


def _volume_snapshots(conn, removed: Counter, timeout: float) -> None:
    """Before the stacks: Cinder refuses to delete a volume that has
    snapshots, and so Heat would fail to delete its stack."""
    bs = conn.block_storage
    snaps = list(bs.snapshots(all_projects=True))
    for snap in snaps:
        bs.delete_snapshot(snap, ignore_missing=True, force=True)
    removed["volume_snapshots"] += len(snaps)
    _until_gone("snapshots", lambda: bs.snapshots(all_projects=True), timeout)


def _volumes(conn, removed: Counter, timeout: float) -> None:
    """Volumes left over (outside stacks); their servers are gone."""
    bs = conn.block_storage
    volumes = list(bs.volumes(all_projects=True))
    for vol in volumes:
        bs.delete_volume(vol, ignore_missing=True, force=True)
    removed["volumes"] += len(volumes)
    _until_gone("volumes", lambda: bs.volumes(all_projects=True), timeout)


def _network(conn, state: dict, removed: Counter) -> None:
    net = conn.network
    base = state["baseline"]
    for p in net.ports():
        net.delete_port(p, ignore_missing=True)
        removed["ports"] += 1
    for s in net.subnets():
        if s.id != base["subnet_id"]:
            net.delete_subnet(s, ignore_missing=True)
            removed["subnets"] += 1
    for n in net.networks():
        if n.id != base["network_id"]:
            net.delete_network(n, ignore_missing=True)
            removed["networks"] += 1
    for sg in net.security_groups():
        if sg.name != "default":
            net.delete_security_group(sg, ignore_missing=True)
            removed["security_groups"] += 1


def _identity_and_images(conn, state: dict, removed: Counter) -> None:
    base = state["baseline"]
    for img in conn.image.images():
        if img.id != base["image_id"]:
            conn.image.delete_image(img, ignore_missing=True)
            removed["images"] += 1
    idc = conn.identity
    default = idc.find_domain("default")
    for p in idc.projects(domain_id=default.id):
        if p.id not in base["project_ids"]:
            idc.delete_project(p, ignore_missing=True)
            removed["projects"] += 1
    for u in idc.users(domain_id=default.id):
        if u.id not in base["user_ids"]:
            idc.delete_user(u, ignore_missing=True)
            removed["users"] += 1


def reset(
    admin_conn, project_conn, state: dict[str, Any], timeout: float = 180
) -> dict[str, int]:
    """Delete everything tests may have created; restore zones, hosts,
    quotas. Raises ResetError if something cannot be removed."""
    removed: Counter = Counter()
    _volume_snapshots(admin_conn, removed, timeout)
    _stacks(project_conn, removed, timeout)
    _stacks(admin_conn, removed, timeout)
    for c in (project_conn, admin_conn):
        for kp in c.compute.keypairs():
            c.compute.delete_keypair(kp, ignore_missing=True)
            removed["keypairs"] += 1
    _compute(admin_conn, state, removed, timeout)
    _volumes(admin_conn, removed, timeout)
    _network(admin_conn, state, removed)
    _identity_and_images(admin_conn, state, removed)
    return {k: v for k, v in removed.items() if v}
