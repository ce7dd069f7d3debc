"""Pure helpers for removing a node: ``remove_node.sh``'s arguments and
what it reports, and how the op occ says so.

A drain is bounded: the script evicts for at most the eviction timeout
(``additionalParams.k8sCluster.drainTimeout``), then force-deletes what
is left on the node (the pods of a dead kubelet stay Terminating
forever) and prints each one. The hook hands that to the conductor as
the metadata of the VNFC in the op occ's ``resourceChanges``, so an
NFVO sees which pods were killed without a graceful end.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from tacker_ng.mgmt.kubernetes_cluster.commands import node_name

REMOVE_NODE = "Scripts/remove_node.sh"
#: The key of the VNFC's metadata in the op occ's affectedVnfcs.
METADATA_KEY = "nodeDrain"

_FORCED = re.compile(
    r"^force-deleted ([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)/"
    r"([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?)$"
)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """``EVICTED`` (every pod left gracefully) or ``FORCED`` (the
    eviction timeout passed; ``force_deleted`` pods were deleted with no
    grace period)."""

    result: str
    force_deleted: tuple[str, ...] = ()


def remove_args(node: str, timeout: int) -> list[str]:
    """``remove_node.sh`` arguments (``timeout``: checked by params)."""
    return [node_name(node), str(int(timeout))]


def outcome(stdout: str) -> Outcome | None:
    """What ``remove_node.sh`` did; None when the node was not there."""
    lines = [line.strip() for line in stdout.splitlines()]
    if any(line.startswith("drain of ") for line in lines):
        pods = []
        for line in lines:
            match = _FORCED.match(line)
            if match:
                pods.append(f"{match.group(1)}/{match.group(3)}")
        return Outcome("FORCED", tuple(pods))
    if any(line.startswith("drained ") for line in lines):
        return Outcome("EVICTED")
    return None


def metadata(node: str, timeout: int, done: Outcome) -> dict[str, Any]:
    """The VNFC's ``nodeDrain`` metadata for the op occ."""
    item: dict[str, Any] = {
        "node": node,
        "result": done.result,
        "evictionTimeout": timeout,
    }
    if done.result == "FORCED":
        item["forceDeletedPods"] = list(done.force_deleted)
    return {METADATA_KEY: item}
