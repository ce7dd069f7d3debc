"""After an operation: say where the VNF breaks zone anti-affinity.

Spec 000 lets AZ reselection break a zone anti-affinity rule when no zone
that keeps it is left ("anti-affinity cannot be satisfied"); the NFVO may
do the same with ``fallbackBestEffort``. The operation then completes,
and the compromise must be visible through the API, not only in a log.
Whatever the driver, the conductor evaluates the VNFD's rules over the
zones the operation left the VNFCs in (:mod:`tacker_ng.placement.
rule_check`) and, in the transaction that ends the op occ:

* marks each breaking VNFC's ``vnfcResourceInfo[].metadata`` and the
  matching ADDED/MODIFIED ``resourceChanges.affectedVnfcs[].metadata``
  of the op occ with ``antiAffinityBroken`` (removes it where the rule
  holds again);
* raises, changes or clears the VNF's WARNING FM alarm
  (:mod:`tacker_ng.lcm.anti_affinity_alarm`).

An operation that leaves ``instantiatedVnfInfo`` as it was (no new one
from the driver) changes nothing; TERMINATE clears.
"""

from collections.abc import Callable, Mapping
from typing import Any

from tacker_ng.infra import base
from tacker_ng.lcm import anti_affinity_alarm
from tacker_ng.objects import lcm
from tacker_ng.objects.vnfd import DeploymentFlavour
from tacker_ng.placement import rule_check

#: ``transitions.finish``'s ``also``: (session, occ) -> None.
Also = Callable[[Any, Mapping[str, Any]], None]


def _flavour(
    task: base.LcmTask, info: Mapping[str, Any]
) -> DeploymentFlavour | None:
    flavour_id = info.get("flavourId")
    if not flavour_id:
        return None
    try:
        return task.vnfd.flavour(flavour_id)
    except KeyError:
        return None


def review(
    task: base.LcmTask,
    info: dict[str, Any] | None,
    resource_changes: dict[str, Any] | None,
    terminated: bool = False,
) -> Also | None:
    """Mark ``info`` and ``resource_changes`` (in place) and return what
    records the alarm when the op occ ends (None: nothing to record)."""
    if terminated:
        found: dict[str, rule_check.Break] = {}
        info = None
    elif info is None:
        return None
    else:
        found = rule_check.check(info, _flavour(task, info))
        rule_check.mark(info, resource_changes, found)

    def record(session: Any, occ: Mapping[str, Any]) -> None:
        anti_affinity_alarm.reconcile(
            session, occ, info, found, resource_changes
        )

    return record


def review_result(task: base.LcmTask, result: dict[str, Any]) -> Also | None:
    """:func:`review` of a driver's result (the Finish step's input)."""
    return review(
        task,
        result.get("instantiated_vnf_info"),
        result.get("resource_changes"),
        terminated=task.operation == lcm.Operation.TERMINATE,
    )
