"""Availability zone reselection after a lack of capacity (pure logic).

The spec's rules, kept free of I/O so they can be tested exhaustively:
candidates are the VIM's zones minus every zone that failed so far in
this operation minus the zones of zone-scope anti-affinity peers (new and
existing VNFCs); the pick is random (seedable); when anti-affinity leaves
nothing, any other non-failed zone is taken and the break is reported.
Only movable VNFCs move (instantiate: all; heal: the targets; scale out:
the new ones); movable zone-affinity mates move together.
"""

import dataclasses
import random
from collections.abc import Collection, Iterable, Mapping, Sequence

from tacker_ng.objects.vnfd import DeploymentFlavour


@dataclasses.dataclass(frozen=True)
class Member:
    """One VNFC as reselection sees it."""

    #: Heat resource name of the VNFC (``VDU1-0``).
    name: str
    vdu_id: str
    #: May this operation move it to another zone?
    movable: bool


@dataclasses.dataclass(frozen=True)
class ZoneRules:
    """Zone-scope affinity and anti-affinity rules, as sets of VDU ids."""

    affinity: tuple[frozenset[str], ...] = ()
    anti_affinity: tuple[frozenset[str], ...] = ()

    @classmethod
    def of_flavour(cls, flavour: DeploymentFlavour) -> "ZoneRules":
        """The ``scope: zone`` rules of a VNFD flavour."""
        zone_rules = [r for r in flavour.affinity_rules if r.scope == "zone"]
        return cls(
            affinity=tuple(
                frozenset(r.vdus) for r in zone_rules if r.is_affinity
            ),
            anti_affinity=tuple(
                frozenset(r.vdus) for r in zone_rules if not r.is_affinity
            ),
        )

    def affine(self, vdu_a: str, vdu_b: str) -> bool:
        """VNFCs of these VDUs share a zone-affinity rule."""
        return any(vdu_a in r and vdu_b in r for r in self.affinity)

    def anti(self, vdu_a: str, vdu_b: str) -> bool:
        """VNFCs of these VDUs must be in different zones.

        Members of one affinity rule are never each other's anti-affinity
        peers: they move as one group and share a zone by design.
        """
        if self.affine(vdu_a, vdu_b):
            return False
        return any(vdu_a in r and vdu_b in r for r in self.anti_affinity)


@dataclasses.dataclass(frozen=True)
class Move:
    """One group of VNFCs sent to a new zone."""

    members: tuple[str, ...]
    old_zones: tuple[str | None, ...]
    zone: str
    #: No zone respected anti-affinity; the pick breaks it.
    anti_affinity_broken: bool
    #: The zones anti-affinity ruled out (for the log).
    peer_zones: tuple[str, ...] = ()


class NoZoneLeft(Exception):
    """Every zone failed (or anti-affinity left none and none is left)."""

    def __init__(self, members: Sequence[str], failed_zones: Iterable[str]):
        self.members = tuple(members)
        self.failed_zones = tuple(sorted(failed_zones))
        super().__init__(
            f"no availability zone left for {', '.join(self.members)}: "
            f"zones tried without capacity: {', '.join(self.failed_zones)}"
        )


class RetryLimitReached(Exception):
    """``[placement] az_select_retry`` reselections were used up."""

    def __init__(self, limit: int, failed_zones: Iterable[str]):
        self.limit = limit
        self.failed_zones = tuple(sorted(failed_zones))
        super().__init__(
            f"gave up after {limit} zone reselection(s); zones tried "
            f"without capacity: {', '.join(self.failed_zones)}"
        )


class CannotMove(Exception):
    """A VNFC this operation may not move lacked capacity."""

    def __init__(self, members: Sequence[str]):
        self.members = tuple(members)
        super().__init__(
            f"{', '.join(self.members)} lacked capacity but this operation "
            "may not move them to another zone"
        )


def reselection_limit(az_select_retry: int, zones: Collection[str]) -> int:
    """Most reselections allowed: the option, or one per zone when 0."""
    return az_select_retry if az_select_retry > 0 else len(zones)


def groups_to_move(
    members: Sequence[Member], failed: Collection[str], rules: ZoneRules
) -> list[tuple[str, ...]]:
    """Failed movable VNFCs, each with its movable affinity mates.

    Deterministic order (by first member name) so seeded picks repeat.
    """
    by_name = {m.name: m for m in members}
    movable = [m for m in members if m.movable]
    seen: set[str] = set()
    groups = []
    for name in sorted(failed):
        if name in seen or name not in by_name:
            continue
        group = {name}
        frontier = [by_name[name]]
        while frontier:
            current = frontier.pop()
            for other in movable:
                if other.name not in group and rules.affine(
                    current.vdu_id, other.vdu_id
                ):
                    group.add(other.name)
                    frontier.append(other)
        seen |= group
        groups.append(tuple(sorted(group)))
    return sorted(groups)


def peer_zones(
    group: Collection[str],
    members: Sequence[Member],
    assignment: Mapping[str, str | None],
    rules: ZoneRules,
) -> set[str]:
    """Zones of the group's anti-affinity peers (existing and new)."""
    vdus = {m.vdu_id for m in members if m.name in group}
    out = set()
    for other in members:
        if other.name in group:
            continue
        zone = assignment.get(other.name)
        if zone and any(rules.anti(v, other.vdu_id) for v in vdus):
            out.add(zone)
    return out


def choose_zone(
    group: Collection[str],
    members: Sequence[Member],
    assignment: Mapping[str, str | None],
    zones: Sequence[str],
    failed_zones: Collection[str],
    rules: ZoneRules,
    rng: random.Random,
) -> Move:
    """A new zone for one group; raises :class:`NoZoneLeft`."""
    taken = peer_zones(group, members, assignment, rules)
    open_zones = sorted(z for z in set(zones) if z not in failed_zones)
    candidates = [z for z in open_zones if z not in taken]
    broken = not candidates
    if broken:
        candidates = open_zones
    if not candidates:
        raise NoZoneLeft(sorted(group), failed_zones)
    names = tuple(sorted(group))
    return Move(
        members=names,
        old_zones=tuple(assignment.get(n) for n in names),
        zone=rng.choice(candidates),
        anti_affinity_broken=broken,
        peer_zones=tuple(sorted(taken)),
    )


def reselect(
    members: Sequence[Member],
    assignment: Mapping[str, str | None],
    failed: Collection[str],
    zones: Sequence[str],
    failed_zones: Collection[str],
    rules: ZoneRules,
    rng: random.Random,
) -> tuple[dict[str, str | None], list[Move]]:
    """New zones for the failed VNFCs (and their movable affinity mates).

    Groups are placed one after the other, each seeing the zones chosen
    before it, so new VNFCs keep anti-affinity among themselves too.
    """
    by_name = {m.name: m for m in members}
    stuck = sorted(
        n for n in failed if n in by_name and not by_name[n].movable
    )
    if stuck:
        raise CannotMove(stuck)
    result = dict(assignment)
    moves = []
    for group in groups_to_move(members, failed, rules):
        move = choose_zone(
            group, members, result, zones, failed_zones, rules, rng
        )
        for name in move.members:
            result[name] = move.zone
        moves.append(move)
    return result, moves


@dataclasses.dataclass
class Reselection:
    """The state of one operation's reselection: failed zones, count."""

    members: Sequence[Member]
    zones: Sequence[str]
    rules: ZoneRules
    limit: int
    rng: random.Random
    failed_zones: set[str] = dataclasses.field(default_factory=set)
    count: int = 0

    def next(
        self,
        assignment: Mapping[str, str | None],
        capacity_failed: Collection[str],
        incomplete: Collection[str] = (),
    ) -> tuple[dict[str, str | None], list[Move]]:
        """Zones for the next attempt after a capacity failure.

        ``capacity_failed``: VNFCs whose failure matched the capacity
        regex; their zones are never chosen again in this operation.
        ``incomplete``: VNFCs that did not finish (cancelled); movable
        ones sitting in a failed zone move as well, so every failed
        attempt rules out at least one more zone.
        """
        self.failed_zones |= {
            z for n in capacity_failed if (z := assignment.get(n))
        }
        movable = {m.name for m in self.members if m.movable}
        to_move = set(capacity_failed) | {
            n
            for n in incomplete
            if n in movable and assignment.get(n) in self.failed_zones
        }
        if self.count >= self.limit:
            raise RetryLimitReached(self.limit, self.failed_zones)
        self.count += 1
        return reselect(
            self.members,
            assignment,
            to_move,
            self.zones,
            self.failed_zones,
            self.rules,
            self.rng,
        )
