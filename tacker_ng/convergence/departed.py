"""Which instances hold an open alarm that no VNFC observation will clear
(the observer hands them to the converger to clear)."""

from collections.abc import Mapping
from typing import Any

from tacker_ng.convergence import converge
from tacker_ng.convergence.desired import desired_vnfcs
from tacker_ng.db import alarms as alarms_db


def with_departed_alarms(
    session: Any,
    chunk: list[str],
    instances: Mapping[str, Mapping[str, Any]],
    stacks_known: bool,
) -> set[str]:
    """Instances of ``chunk`` holding an open alarm that no observation
    of a VNFC would clear: its VNFC is no longer desired (a heal or an
    adoption gave it a new pod, hence a new VNFC id - possibly while an
    observation saw the new pods before the heal recorded them, so no
    drift ever changed), the stack's alarm once Heat was heard, or the
    automatic-heal alarm."""
    out = set()
    wanted: dict[str, set[str]] = {}
    for iid, key in alarms_db.open_keys(session, chunk):
        if key in (converge.STACK_KEY, converge.AUTOHEAL_KEY):
            if stacks_known or key == converge.AUTOHEAL_KEY:
                out.add(iid)
            continue
        if ":" in key:
            # Not a VNFC's and not the observer's (e.g. the conductor's
            # zone anti-affinity alarm): no observation clears it.
            continue
        if iid not in wanted:
            wanted[iid] = {d.vnfc_id for d in desired_vnfcs(instances[iid])}
        if key not in wanted[iid]:
            out.add(iid)
    return out
