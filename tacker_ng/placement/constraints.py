"""Zone choice for a grant: honour ZONE-scope (anti-)affinity constraints.

Pure logic used by the local NFVO. Affinity members share a zone (pinned
to an existing member's zone when there is one); anti-affinity members,
new and existing, get pairwise distinct zones. Zones are tried in the
given order of preference. When constraints cannot all be met, a
constraint with ``fallbackBestEffort`` is relaxed (the least-used zone is
taken); otherwise placement fails.
"""

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import Any


class CannotPlace(Exception):
    """The constraints cannot be met with the zones available."""


@dataclasses.dataclass
class _Group:
    members: list[str]
    pinned: str | None = None
    fallback: bool = False


class _UnionFind:
    def __init__(self, items: Iterable[str]) -> None:
        self.parent = {i: i for i in items}

    def find(self, item: str) -> str:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def _zone_scoped(constraints, kind):
    return [
        c
        for c in constraints
        if c.get("scope") == "ZONE" and c["affinityOrAntiAffinity"] == kind
    ]


def _split(constraint):
    new = [
        r["resourceId"]
        for r in constraint["resource"]
        if r.get("idType", "GRANT") == "GRANT"
    ]
    old = [
        r["resourceId"]
        for r in constraint["resource"]
        if r.get("idType") == "RES_MGMT"
    ]
    return new, old


def assign_zones(
    resource_ids: list[str],
    constraints: list[dict[str, Any]],
    zones: list[str],
    existing_zones: dict[str, str] | None = None,
) -> dict[str, str]:
    """A zone for each resource id (GRANT ids of COMPUTE resources).

    ``existing_zones`` maps RES_MGMT resource ids of existing VNFCs to
    their zones. Raises :class:`CannotPlace` when no zones exist or a
    strict constraint cannot be met.
    """
    if not resource_ids:
        return {}
    if not zones:
        raise CannotPlace("no availability zone is available")
    existing_zones = existing_zones or {}
    uf = _UnionFind(resource_ids)
    pins: dict[str, str] = {}
    for c in _zone_scoped(constraints, "AFFINITY"):
        new, old = _split(c)
        new = [r for r in new if r in uf.parent]
        for a, b in zip(new, new[1:], strict=False):
            uf.union(a, b)
        old_zones = {existing_zones[o] for o in old if o in existing_zones}
        if new and old_zones:
            pins[new[0]] = sorted(old_zones)[0]
    groups: dict[str, _Group] = {}
    for rid in resource_ids:
        groups.setdefault(uf.find(rid), _Group([])).members.append(rid)
    for rid, zone in pins.items():
        groups[uf.find(rid)].pinned = zone

    # anti-affinity: group -> set of (other groups, existing zones)
    peers: dict[str, set[str]] = {g: set() for g in groups}
    taken: dict[str, set[str]] = {g: set() for g in groups}
    for c in _zone_scoped(constraints, "ANTI_AFFINITY"):
        new, old = _split(c)
        roots = {uf.find(r) for r in new if r in uf.parent}
        old_zones = {existing_zones[o] for o in old if o in existing_zones}
        for root in roots:
            peers[root] |= roots - {root}
            taken[root] |= old_zones
            groups[root].fallback |= bool(c.get("fallbackBestEffort"))

    chosen: dict[str, str] = {}
    usage: Counter = Counter(existing_zones.values())
    for root, group in groups.items():
        forbidden = set(taken[root]) | {
            chosen[p] for p in peers[root] if p in chosen
        }
        if group.pinned is not None:
            zone = group.pinned
            if zone in forbidden and not group.fallback:
                raise CannotPlace(
                    f"affinity pins {group.members} to {zone}, which "
                    "anti-affinity forbids"
                )
        else:
            free = [z for z in zones if z not in forbidden]
            if free:
                zone = free[0]
            elif group.fallback:
                zone = min(zones, key=lambda z: (usage[z], zones.index(z)))
            else:
                raise CannotPlace(
                    f"anti-affinity needs a zone other than "
                    f"{sorted(forbidden)} for {group.members}; zones: "
                    f"{zones}"
                )
        chosen[root] = zone
        usage[zone] += len(group.members)
    return {rid: chosen[uf.find(rid)] for rid in resource_ids}
