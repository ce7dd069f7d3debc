"""Is zone anti-affinity kept? The VNFD's rules checked where VNFCs run.

Spec 000 (AZ reselection) lets a reselection break a zone-scope
anti-affinity rule when no zone is left that keeps it, and an NFVO
placing with ``fallbackBestEffort`` may do the same. Such a compromise
must not stay hidden in a log line: after every operation the rules are
evaluated over the zones the instance's VNFCs ended in, and every VNFC
that shares its zone with an anti-affinity peer is reported (VNFC
metadata, the op occ's affected VNFCs, an FM alarm). Evaluating the end
state rather than replaying the reselection's moves also notices that a
later operation (scale in, heal, change of flavour) restored the rule.

Pure logic on plain SOL003 dicts, tested exhaustively.
"""

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tacker_ng.objects.vnfd import DeploymentFlavour, PlacementRule

#: ``vnfcResourceInfo[].metadata`` / ``affectedVnfcs[].metadata`` key of a
#: VNFC that breaks a zone anti-affinity rule.
METADATA_KEY = "antiAffinityBroken"
#: Affected VNFCs whose metadata copies the VNFC's (SOL003: AffectedVnfc
#: ``metadata`` is a copy of the VnfcResourceInfo's); REMOVED ones keep
#: what they had.
_MARKED_CHANGES = ("ADDED", "MODIFIED")


@dataclasses.dataclass(frozen=True)
class PlacedVnfc:
    """One VNFC and the zone it runs in (None: unknown, never a break)."""

    id: str
    vdu_id: str
    zone: str | None


@dataclasses.dataclass(frozen=True)
class Break:
    """A VNFC that shares its zone with peers a rule keeps apart."""

    vnfc_id: str
    vdu_id: str
    zone: str
    #: VNFC ids of the peers in the same zone.
    peers: tuple[str, ...]
    #: Names of the broken rules (VNFD policy names).
    rules: tuple[str, ...]

    def as_metadata(self) -> dict[str, Any]:
        """The value of :data:`METADATA_KEY` in the VNFC's metadata."""
        return {
            "zoneId": self.zone,
            "peerVnfcIds": list(self.peers),
            "rules": list(self.rules),
        }


def zone_anti_affinity(
    flavour: DeploymentFlavour,
) -> tuple[tuple[PlacementRule, ...], tuple[frozenset[str], ...]]:
    """The flavour's zone-scope anti-affinity rules and, as VDU sets, its
    zone-scope affinity rules (their members are never each other's
    anti-affinity peers: they share a zone by design)."""
    zone = [r for r in flavour.affinity_rules if r.scope == "zone"]
    return (
        tuple(r for r in zone if not r.is_affinity),
        tuple(frozenset(r.vdus) for r in zone if r.is_affinity),
    )


def breaks(
    vnfcs: Iterable[PlacedVnfc],
    anti_affinity: Sequence[PlacementRule],
    affinity: Sequence[frozenset[str]] = (),
) -> dict[str, Break]:
    """VNFC id -> its :class:`Break`, for every VNFC that shares a zone
    with a VNFC an anti-affinity rule keeps apart from it."""
    by_zone: dict[str, list[PlacedVnfc]] = {}
    for vnfc in vnfcs:
        if vnfc.zone:
            by_zone.setdefault(vnfc.zone, []).append(vnfc)
    out: dict[str, Break] = {}
    for zone in sorted(by_zone):
        members = sorted(by_zone[zone], key=lambda v: v.id)
        for vnfc in members:
            peers: set[str] = set()
            names: set[str] = set()
            for rule in anti_affinity:
                if vnfc.vdu_id not in rule.vdus:
                    continue
                for other in members:
                    if (
                        other.id == vnfc.id
                        or other.vdu_id not in rule.vdus
                        or _affine(vnfc.vdu_id, other.vdu_id, affinity)
                    ):
                        continue
                    peers.add(other.id)
                    names.add(rule.name)
            if peers:
                out[vnfc.id] = Break(
                    vnfc_id=vnfc.id,
                    vdu_id=vnfc.vdu_id,
                    zone=zone,
                    peers=tuple(sorted(peers)),
                    rules=tuple(sorted(names)),
                )
    return out


def _affine(
    vdu_a: str, vdu_b: str, affinity: Sequence[frozenset[str]]
) -> bool:
    return any(vdu_a in group and vdu_b in group for group in affinity)


def placed(info: Mapping[str, Any] | None) -> list[PlacedVnfc]:
    """The VNFCs of an ``instantiatedVnfInfo`` and their ``zoneId``."""
    return [
        PlacedVnfc(v["id"], v["vduId"], v.get("zoneId"))
        for v in (info or {}).get("vnfcResourceInfo") or []
    ]


def check(
    info: Mapping[str, Any] | None, flavour: DeploymentFlavour | None
) -> dict[str, Break]:
    """The breaks of an ``instantiatedVnfInfo`` under ``flavour``'s rules
    (none without a flavour)."""
    if flavour is None:
        return {}
    anti, affinity = zone_anti_affinity(flavour)
    if not anti:
        return {}
    return breaks(placed(info), anti, affinity)


def _marked(
    metadata: Mapping[str, Any] | None, found: Break | None
) -> dict[str, Any] | None:
    out = dict(metadata or {})
    if found is None:
        out.pop(METADATA_KEY, None)
    else:
        out[METADATA_KEY] = found.as_metadata()
    return out if out or metadata is not None else None


def mark(
    info: dict[str, Any] | None,
    resource_changes: dict[str, Any] | None,
    found: Mapping[str, Break],
) -> None:
    """Write :data:`METADATA_KEY` into the metadata of every VNFC that
    breaks a rule and of its ADDED/MODIFIED affected VNFC, and remove it
    from every other VNFC (a previous operation may have set it)."""
    for vnfc in (info or {}).get("vnfcResourceInfo") or []:
        metadata = _marked(vnfc.get("metadata"), found.get(vnfc["id"]))
        if metadata is not None:
            vnfc["metadata"] = metadata
    for change in (resource_changes or {}).get("affectedVnfcs") or []:
        if change.get("changeType") not in _MARKED_CHANGES:
            continue
        metadata = _marked(change.get("metadata"), found.get(change["id"]))
        if metadata is not None:
            change["metadata"] = metadata


def describe(found: Mapping[str, Break]) -> list[str]:
    """One line per zone naming the VNFCs that share it against the
    rules, for an alarm's ``faultDetails``."""
    by_zone: dict[str, list[Break]] = {}
    for brk in found.values():
        by_zone.setdefault(brk.zone, []).append(brk)
    lines = []
    for zone, members in sorted(by_zone.items()):
        rules = sorted({name for b in members for name in b.rules})
        names = ", ".join(
            f"{b.vnfc_id} ({b.vdu_id})"
            for b in sorted(members, key=lambda b: b.vnfc_id)
        )
        lines.append(
            f"zone {zone} holds VNFCs that anti-affinity rule(s) "
            f"{', '.join(rules)} keep apart: {names}"
        )
    return lines
