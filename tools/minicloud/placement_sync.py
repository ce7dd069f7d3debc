"""Placement's copy of the host aggregates, checked at every reset.

Nova mirrors each host aggregate into Placement (the compute node's
resource provider is a member of the aggregate's uuid), and its
scheduler asks Placement for the hosts of an availability zone
(``query_placement_for_availability_zone``) and of a tenant-isolation
aggregate. Nova's view and Placement's can drift apart: a run killed
while it moved hosts between aggregates left az1-cmp1's provider outside
AZ-1's aggregate, though Nova still listed the host there, and every
boot in AZ-1 then failed with "No valid host was found" in later runs.
The reset puts each baseline host back into its aggregates' Placement
copy, so one bad run cannot poison the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

#: First microversion whose aggregate documents carry the generation.
MICROVERSION = "1.19"


def _provider(placement, host: str) -> str | None:
    found = placement.get(
        f"/resource_providers?name={host}", microversion=MICROVERSION
    ).json()["resource_providers"]
    return found[0]["uuid"] if found else None


def ensure_members(
    placement, wanted: dict[str, Iterable[str]], removed: Counter
) -> None:
    """Make every host in ``wanted`` (host -> aggregate uuids) a member
    of those aggregates in Placement; counts the fixes."""
    for host, uuids in wanted.items():
        rp = _provider(placement, host)
        if rp is None:
            continue
        path = f"/resource_providers/{rp}/aggregates"
        doc = placement.get(path, microversion=MICROVERSION).json()
        missing = set(uuids) - set(doc["aggregates"])
        if not missing:
            continue
        placement.put(
            path,
            json={
                "aggregates": sorted(set(doc["aggregates"]) | missing),
                "resource_provider_generation": doc[
                    "resource_provider_generation"
                ],
            },
            microversion=MICROVERSION,
        )
        removed["placement_aggregate_fixes"] += len(missing)
