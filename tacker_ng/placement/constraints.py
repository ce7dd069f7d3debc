"""Zone choice for a grant: honour ZONE-scope (anti-)affinity constraints.

Pure logic used by the local NFVO. Affinity members share a zone (pinned
to an existing member's zone when there is one); anti-affinity members,
new and existing, get pairwise distinct zones. Zones are tried in the
given order of preference. When constraints cannot all be met, a
constraint with ``fallbackBestEffort`` is relaxed (the least-used zone is
taken); otherwise placement fails.

With ``capacity`` (the instance slots a reservation still has per zone)
a zone never gets more new VNFCs than it has slots: a reservation's
hosts are the only ones its flavour boots on, so a zone's slots are a
hard limit, and the groups are then placed by a small search instead of
first-fit (a lease of one host per zone must not get two VNFCs in one
zone because the first zone is the preferred one).
"""

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
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
    capacity: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """A zone for each resource id (GRANT ids of COMPUTE resources).

    ``existing_zones`` maps RES_MGMT resource ids of existing VNFCs to
    their zones; ``capacity`` caps the new VNFCs per zone (zones absent
    from it take none). Raises :class:`CannotPlace` when no zones exist,
    a strict constraint cannot be met or the capacity cannot hold them.
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

    if capacity is not None:
        return _assign_within(
            resource_ids, uf, groups, peers, taken, zones, capacity
        )
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


def _slots_text(capacity: Mapping[str, int]) -> str:
    return ", ".join(f"{z}: {n}" for z, n in sorted(capacity.items()))


def _assign_within(
    resource_ids: list[str],
    uf: _UnionFind,
    groups: dict[str, _Group],
    peers: dict[str, set[str]],
    taken: dict[str, set[str]],
    zones: list[str],
    capacity: Mapping[str, int],
) -> dict[str, str]:
    """Place the groups so that no zone exceeds its slots.

    Depth-first search, pinned and larger groups first; each group tries
    the zones its anti-affinity allows in preference order, then (only
    with ``fallbackBestEffort``) the others. The first complete placement
    wins, so the result is deterministic.
    """
    room = {z: max(int(capacity.get(z, 0)), 0) for z in zones}
    needed = len(resource_ids)
    if needed > sum(room.values()):
        raise CannotPlace(
            f"the reservation has {sum(room.values())} free instance "
            f"slot(s) ({_slots_text(room)}) for {needed} new VNFC(s)"
        )
    order = sorted(
        groups,
        key=lambda r: (groups[r].pinned is None, -len(groups[r].members)),
    )
    chosen: dict[str, str] = {}
    budget = [10_000]  # placements tried; the search stops beyond it

    def candidates(root: str) -> list[str]:
        group = groups[root]
        size = len(group.members)
        forbidden = set(taken[root]) | {
            chosen[p] for p in peers[root] if p in chosen
        }
        if group.pinned is not None:
            allowed = [group.pinned]
            if group.pinned in forbidden and not group.fallback:
                allowed = []
        else:
            allowed = [z for z in zones if z not in forbidden]
            if group.fallback:
                allowed += [z for z in zones if z in forbidden]
        return [z for z in allowed if room.get(z, 0) >= size]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        root = order[i]
        size = len(groups[root].members)
        for zone in candidates(root):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            chosen[root] = zone
            room[zone] -= size
            if place(i + 1):
                return True
            room[zone] += size
            del chosen[root]
        return False

    if not place(0):
        described = "; ".join(
            f"{'+'.join(groups[r].members)} together"
            for r in order
            if len(groups[r].members) > 1
        )
        raise CannotPlace(
            "the reservation's instance slots per zone "
            f"({_slots_text(room)}) cannot hold the {needed} new VNFC(s) "
            "under the zone (anti-)affinity rules"
            + (f" ({described})" if described else "")
        )
    return {rid: chosen[uf.find(rid)] for rid in resource_ids}
