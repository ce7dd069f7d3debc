"""Drift rules: does what the VIM says match what is desired?

Pure logic. A VNFC drifts when its server (or pod) is missing, in ERROR
or SHUTOFF while ACTIVE is desired, a pod is not Ready, or it runs on a
compute host Nova reports down (a node Kubernetes reports NotReady).
Transitional states (BUILD, REBOOT, MIGRATING, a pod Pending or
terminating ...) are not drift: an operation, ours or an operator's, is
moving the resource and judging it now would fight that change. A
Pending pod the scheduler marked Unschedulable is not on its way: it is
NOT_READY drift (the replacement pod a failed heal leaves behind).

A pod of a Deployment (or ReplicaSet) deleted behind our back is
replaced by its ReplicaSet under a NEW name. That is the cluster
converging by itself, not drift: the desired state of a VDU is its
number of pods, so a missing pod of a VDU is paired with a pod of the
same workload that no VNFC names (:func:`judge_all`), judged on that
pod's state, and the VNFC's resource id is refreshed to it.
"""

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from tacker_ng.convergence.desired import ACTIVE, DesiredVnfc


class DriftKind(enum.StrEnum):
    MISSING = "MISSING"
    ERROR = "ERROR"
    SHUTOFF = "SHUTOFF"
    HOST_DOWN = "HOST_DOWN"
    NOT_READY = "NOT_READY"


#: Nova server statuses that are a fault against a desired ACTIVE.
_FAULT_STATUSES = {
    "ERROR": DriftKind.ERROR,
    "SHUTOFF": DriftKind.SHUTOFF,
    "NOT_READY": DriftKind.NOT_READY,
    # A Pending pod the scheduler cannot place (e.g. the replacement a
    # failed heal left): never Ready unless capacity comes back.
    "UNSCHEDULABLE": DriftKind.NOT_READY,
}

#: Workload kinds whose controller replaces a pod under a new name.
RENAMING_KINDS = ("Deployment", "ReplicaSet")


@dataclasses.dataclass(frozen=True)
class ObservedServer:
    """What one paged Nova listing says about one server."""

    id: str
    status: str
    host: str | None = None
    zone: str | None = None
    #: Kubernetes only: the workload owning the pod (``Kind/name``).
    owner: str | None = None
    #: Nova only: (network, address, IP version, OS-EXT-IPS:type) of each
    #: address, for PM's scrape targets.
    addresses: tuple[tuple[str, str, int, str], ...] = ()


@dataclasses.dataclass(frozen=True)
class StackState:
    """A Heat stack in a ``*_FAILED`` state, as Heat's listing says, or
    gone from Heat (:data:`STACK_MISSING`, see :func:`missing_stack`)."""

    id: str
    name: str
    status: str
    reason: str = ""


#: Status of a VNF's stack Heat no longer has.
STACK_MISSING = "MISSING"


def missing_stack(name: str) -> StackState:
    """A VNF's stack deleted behind the VNFM's back (its id is gone with
    it: the name stands for it)."""
    return StackState(
        id=name,
        name=name,
        status=STACK_MISSING,
        reason="the stack is gone from Heat (deleted outside the VNFM); "
        "a heal of the VNF creates it again",
    )


def all_missing(observations: list["Observation"]) -> bool:
    """Whether every observed VNFC of an instance is MISSING (none at all
    is not): what a deleted stack leaves, so only then is Heat asked
    whether the stack still exists."""
    return bool(observations) and all(
        o.drift == DriftKind.MISSING for o in observations
    )


@dataclasses.dataclass(frozen=True)
class Observation:
    """One VNFC as observed: the server (None when missing), whether its
    host is up (None when unknown) and the drift, if any."""

    desired: DesiredVnfc
    server: ObservedServer | None
    host_up: bool | None
    drift: DriftKind | None
    #: The pod that replaced the desired one (a new name, same workload).
    replaced_by: ObservedServer | None = None

    def observed_dict(self) -> dict[str, Any]:
        """The observed attributes shown in an alarm's faultDetails."""
        if self.server is None:
            return {"status": None}
        return {
            "status": self.server.status,
            "host": self.server.host,
            "zoneId": self.server.zone,
            "hostUp": self.host_up,
        }


def judge(
    desired: DesiredVnfc,
    server: ObservedServer | None,
    hosts_up: Mapping[str, bool],
) -> Observation:
    """Compare one VNFC with its server and its host's state."""
    if server is None:
        return Observation(desired, None, None, DriftKind.MISSING)
    host_up = hosts_up.get(server.host) if server.host else None
    drift = None
    if desired.status == ACTIVE:
        drift = _FAULT_STATUSES.get(server.status.upper())
        # A pod on a NotReady node is not Ready either: say why.
        if drift in (None, DriftKind.NOT_READY) and host_up is False:
            drift = DriftKind.HOST_DOWN
    elif server.status.upper() == "ERROR":
        # Stopped on purpose (operate): only a fault is a drift.
        drift = DriftKind.ERROR
    return Observation(desired, server, host_up, drift)


def judge_all(
    desired: list[DesiredVnfc],
    servers: Mapping[str, ObservedServer],
    hosts_up: Mapping[str, bool],
) -> list[Observation]:
    """Every desired VNFC judged against a VIM's listing (by
    :attr:`DesiredVnfc.key`).

    A VNFC with no resource id yet (its op never created it) is skipped:
    there is nothing to observe. A missing pod of a renaming workload is
    judged on its replacement when there is one (see module doc).
    """
    out = []
    for d in desired:
        if d.resource_id:
            key = d.key or ""
            out.append(judge(d, servers.get(key), hosts_up))
    spares = _spare_pods(desired, servers)
    for i, obs in enumerate(out):
        d = obs.desired
        if obs.server is not None or not d.workload or not d.namespace:
            continue
        if d.workload.split("/", 1)[0] not in RENAMING_KINDS:
            continue
        pool = spares.get((d.namespace, d.workload))
        if pool:
            new = pool.pop(0)
            judged = judge(d, new, hosts_up)
            out[i] = dataclasses.replace(judged, replaced_by=new)
    return out


def _spare_pods(
    desired: list[DesiredVnfc], servers: Mapping[str, ObservedServer]
) -> dict[tuple[str, str], list[ObservedServer]]:
    """Pods of the desired workloads that no desired VNFC names, by
    (namespace, workload), oldest name first (deterministic)."""
    claimed = {d.key for d in desired if d.resource_id}
    wanted = {(d.namespace, d.workload) for d in desired if d.workload}
    spares: dict[tuple[str, str], list[ObservedServer]] = {}
    for key in sorted(servers):
        pod = servers[key]
        if key in claimed or pod.owner is None or "/" not in key:
            continue
        where = (key.split("/", 1)[0], pod.owner)
        if where in wanted and pod.status.upper() != "TERMINATING":
            spares.setdefault(where, []).append(pod)
    return spares


#: Severity and probable cause of each drift kind in an FM alarm.
ALARM_OF = {
    DriftKind.MISSING: ("CRITICAL", "VNFC server missing from the VIM"),
    DriftKind.ERROR: ("CRITICAL", "VNFC server in ERROR"),
    DriftKind.SHUTOFF: ("MAJOR", "VNFC server SHUTOFF"),
    DriftKind.HOST_DOWN: ("MAJOR", "VNFC compute host (node) down"),
    DriftKind.NOT_READY: ("MAJOR", "VNFC pod not Ready"),
}
