"""Build minicloud's baseline: computes in zones, flavors, image, lanes.

Used by setup_cloud.py (minicloud's venv, openstacksdk). Idempotent:
a warm `up` finds everything in place and changes nothing.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import lanes as lanes_mod
import placement_sync
from cleanup import UNLIMITED, poll, restore_computes

AGG_PREFIX = "mc-az-"
LANE_AGG_PREFIX = "mc-lane-"
IMAGE = "minicloud-image"


def _fail(msg: str, logs: Path | None = None, names: Any = ()) -> None:
    for n in names:
        f = logs / f"{n}.log" if logs else None
        if f and f.exists():
            tail = f.read_text(errors="replace").splitlines()[-20:]
            msg += f"\n--- tail of {f}\n" + "\n".join(tail)
    sys.exit(msg)


def _wait(what: str, check, timeout: float, logs=None, names=()) -> None:
    if not poll(check, timeout):
        _fail(
            f"timed out after {timeout:.0f}s waiting for {what}", logs, names
        )


def _computes(conn, topo, logs: Path) -> None:
    hosts = {h for hs in topo["zones"].values() for h in hs}
    # A run killed before its lane's reset leaves computes disabled or
    # forced down: their zones would never be listed and ``up`` would
    # wait for them in vain.
    undone = restore_computes(conn, hosts)
    if undone:
        print(f"computes left by a killed run, undone: {dict(undone)}")

    def up() -> bool:
        svcs = conn.compute.services(binary="nova-compute")
        return hosts <= {s.host for s in svcs if s.state == "up"}

    _wait(
        f"nova-compute services {sorted(hosts)}",
        up,
        150,
        logs,
        [f"nova-compute-{h}" for h in sorted(hosts)],
    )
    for s in conn.compute.services(binary="nova-compute"):
        if s.host not in hosts:  # a host the topology dropped
            conn.compute.delete_service(s, ignore_missing=True)


def _capacity_ok(conn, host: str, cap: dict[str, int]) -> bool:
    rps = conn.placement.get(f"/resource_providers?name={host}").json()
    if not rps["resource_providers"]:
        return False
    uuid = rps["resource_providers"][0]["uuid"]
    inv = conn.placement.get(f"/resource_providers/{uuid}/inventories")
    inv = inv.json()["inventories"]
    want = {"VCPU": cap["vcpus"], "MEMORY_MB": cap["ram_mb"]}
    want["DISK_GB"] = cap["disk_gb"]
    return all(
        rc in inv
        and inv[rc]["total"] - inv[rc]["reserved"] == n
        and inv[rc]["allocation_ratio"] == 1.0
        for rc, n in want.items()
    )


def _aggregates(conn, topo, nova_conf: Path) -> dict[str, Any]:
    existing = {a.name: a for a in conn.compute.aggregates()}
    for name, agg in existing.items():
        zone = name[len(AGG_PREFIX) :]
        if name.startswith(AGG_PREFIX) and zone not in topo["zones"]:
            for h in agg.hosts or []:
                conn.compute.remove_host_from_aggregate(agg, h)
            conn.compute.delete_aggregate(agg)
    discovered = False
    out = {}
    for zone, hosts in topo["zones"].items():
        name = AGG_PREFIX + zone
        agg = existing.get(name) or conn.compute.create_aggregate(
            name=name, availability_zone=zone
        )
        for h in set(agg.hosts or []) - set(hosts):
            conn.compute.remove_host_from_aggregate(agg, h)
        for h in sorted(set(hosts) - set(agg.hosts or [])):
            if not discovered:
                _discover_hosts(nova_conf)
                discovered = True
            conn.compute.add_host_to_aggregate(agg, h)
        out[zone] = {
            "id": agg.id,
            "name": name,
            "hosts": sorted(hosts),
            "metadata": {"availability_zone": zone},
        }
    return out


def _lane_aggregates(conn, lanes: list[dict[str, Any]]) -> dict[str, Any]:
    """One aggregate per lane over its hosts whose ``filter_tenant_id``
    names the lane's projects: Nova's AggregateMultiTenancyIsolation
    filter then keeps every server of a lane - a zoneless one too - on
    the lane's hosts, and other lanes' servers off them."""
    existing = {a.name: a for a in conn.compute.aggregates()}
    wanted = {f"{LANE_AGG_PREFIX}{lane['index']}" for lane in lanes}
    for name, agg in existing.items():
        if name.startswith(LANE_AGG_PREFIX) and name not in wanted:
            for h in agg.hosts or []:
                conn.compute.remove_host_from_aggregate(agg, h)
            conn.compute.delete_aggregate(agg)
    out = {}
    for lane in lanes:
        name = f"{LANE_AGG_PREFIX}{lane['index']}"
        hosts = sorted(h for hs in lane["topology"].values() for h in hs)
        meta = {
            "filter_tenant_id": ",".join(
                (lane["project_id"], lane["admin_project_id"])
            )
        }
        agg = existing.get(name) or conn.compute.create_aggregate(name=name)
        for h in set(agg.hosts or []) - set(hosts):
            conn.compute.remove_host_from_aggregate(agg, h)
        for h in sorted(set(hosts) - set(agg.hosts or [])):
            conn.compute.add_host_to_aggregate(agg, h)
        current = agg.metadata or {}
        fix = {k: None for k in current if k not in meta}
        fix.update({k: v for k, v in meta.items() if current.get(k) != v})
        if fix:
            conn.compute.set_aggregate_metadata(agg, fix)
        out[name] = {
            "id": agg.id,
            "name": name,
            "hosts": hosts,
            "metadata": meta,
        }
    return out


def _discover_hosts(nova_conf: Path) -> None:
    """Map new compute hosts to cell1. nova-scheduler maps them too
    (discover_hosts_in_cells_interval): when both map the same host at
    once, the loser exits 2 on the duplicate mapping; the next run finds
    every host mapped."""
    nova_manage = Path(sys.executable).parent / "nova-manage"
    for attempt in range(3):
        done = subprocess.run(
            [str(nova_manage), "--config-file", str(nova_conf)]
            + ["cell_v2", "discover_hosts"],
            check=False,
            timeout=120,
            capture_output=True,
            text=True,
        )
        if done.returncode == 0:
            return
        time.sleep(1 + attempt)
    _fail(f"nova-manage cell_v2 discover_hosts failed: {done.stderr[-800:]}")


def _flavors(conn, topo) -> dict[str, str]:
    existing = {f.name: f for f in conn.compute.flavors(is_public=None)}
    out = {}
    for name, spec in topo["flavors"].items():
        f = existing.get(name)
        same = f and (f.vcpus, f.ram, f.disk) == (
            spec["vcpus"],
            spec["ram_mb"],
            spec["disk_gb"],
        )
        if f and not same:
            conn.compute.delete_flavor(f)
        if not same:
            f = conn.compute.create_flavor(
                name=name,
                vcpus=spec["vcpus"],
                ram=spec["ram_mb"],
                disk=spec["disk_gb"],
                is_public=True,
            )
        out[name] = f.id
    return out


def _image(conn) -> str:
    img = conn.image.find_image(IMAGE) or conn.create_image(
        IMAGE,
        data=b"\0" * 65536,
        disk_format="raw",
        container_format="bare",
        visibility="public",
        wait=True,
    )
    return img.id


def _zones_visible(conn, topo) -> bool:
    seen = {
        z.name: set((z.hosts or {}).keys())
        for z in conn.compute.availability_zones(details=True)
        if z.state and z.state.get("available")
    }
    return all(set(h) <= seen.get(z, set()) for z, h in topo["zones"].items())


def _heat_engine_up(conn) -> bool:
    try:
        svcs = conn.orchestration.get("/services").json()["services"]
    except Exception:  # noqa: BLE001 - heat-api may still be starting
        return False
    return any(s["status"] == "up" for s in svcs)


def _inventories(conn, topo, logs: Path) -> None:
    for zone, hosts in topo["zones"].items():
        for host, cap in hosts.items():
            _wait(
                f"placement inventory of {host} ({zone}) = {cap}",
                lambda h=host, c=cap: _capacity_ok(conn, h, c),
                120,
                logs,
                [f"nova-compute-{host}"],
            )


def ready(conn, topo: dict, logs: Path) -> None:
    """Wait until a cloud whose baseline exists serves it: every compute
    up with its capacity, every zone listed, heat-engine up."""
    _computes(conn, topo, logs)
    _inventories(conn, topo, logs)
    _ready_services(conn, topo, logs)


def _ready_services(conn, topo: dict, logs: Path) -> None:
    _wait(
        "zones in os-availability-zone/detail",
        lambda: _zones_visible(conn, topo),
        # 18 computes (3 lanes) on 2 busy cores took over 90 s.
        240,
    )
    _wait(
        "heat-engine",
        lambda: _heat_engine_up(conn),
        120,
        logs,
        ["heat-engine"],
    )


def _placement_copy(conn, aggregates: dict[str, Any]) -> None:
    """Nova mirrors a host's aggregates into Placement only if the
    host's resource provider exists when the host is added; the first
    zone's hosts were added before theirs (seen: AZ-1 unschedulable)."""
    uuids = {a.id: a.uuid for a in conn.compute.aggregates()}
    members: dict[str, set[str]] = {}
    for spec in aggregates.values():
        for host in spec["hosts"]:
            members.setdefault(host, set()).add(uuids[spec["id"]])
    placement_sync.ensure_members(conn.placement, members, Counter())


def build(conn, topo: dict, logs: Path, nova_conf: Path) -> dict[str, Any]:
    """Make the cloud match the topology; returns baseline ids."""
    _computes(conn, topo, logs)
    aggregates = _aggregates(conn, topo, nova_conf)
    _inventories(conn, topo, logs)
    flavors = _flavors(conn, topo)
    image_id = _image(conn)
    lanes = [
        lanes_mod.build(conn, lane, topo["zones"]) for lane in topo["lanes"]
    ]
    aggregates.update(_lane_aggregates(conn, lanes))
    _placement_copy(conn, aggregates)
    conn.compute.update_quota_class_set("default", **UNLIMITED)
    _ready_services(conn, topo, logs)
    return {
        "aggregates": aggregates,
        "flavors": flavors,
        "image_id": image_id,
        "network_id": lanes[0]["network_id"],
        "subnet_id": lanes[0]["subnet_id"],
        "lanes": lanes,
        "project_ids": sorted(p.id for p in conn.identity.projects()),
        "user_ids": sorted(u.id for u in conn.identity.users()),
    }
