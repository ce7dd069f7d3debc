"""The FM alarm of a VNF whose VNFCs break a zone anti-affinity rule.

A WARNING alarm (SOL003 ``Alarm``, one per VNF instance, open key
:data:`KEY`) is raised when an operation ends with VNFCs that share a
zone against the VNFD's anti-affinity rules (AZ reselection found no
zone left, or the NFVO placed them with ``fallbackBestEffort``), changed
when a later operation leaves other VNFCs in that state, and cleared when
one leaves none (or terminates the VNF). It is written in the
transaction that ends the operation, with its notification, so the
alarm and the op occ never disagree. The convergence observer leaves it
alone: it is about placement, not drift.

Event type ``QOS_ALARM``: nothing failed, the VNF runs, but a zone
outage would now take more of it down than its VNFD allows.
"""

from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging
from sqlalchemy import orm

from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import vnf_lcm
from tacker_ng.nfvo import fm_notify
from tacker_ng.placement import rule_check

LOG = logging.getLogger(__name__)

#: Open key of the alarm among the instance's alarms (never a VNFC id).
KEY = "placement:anti-affinity"
SEVERITY = "WARNING"
EVENT_TYPE = "QOS_ALARM"
FAULT_TYPE = "ANTI_AFFINITY_BROKEN"
PROBABLE_CAUSE = (
    "Zone anti-affinity rule not satisfied (no availability zone left "
    "that keeps it)"
)


def _root_cause(
    info: Mapping[str, Any] | None,
    found: Mapping[str, rule_check.Break],
    changed: set[str],
) -> dict[str, Any]:
    """The compute resource of the VNFC the operation placed against the
    rule (else the first VNFC that breaks it)."""
    placed_now = sorted(set(found) & changed)
    root = (placed_now or sorted(found))[0]
    for vnfc in (info or {}).get("vnfcResourceInfo") or []:
        if vnfc["id"] == root and vnfc.get("computeResource"):
            return dict(vnfc["computeResource"])
    return {"resourceId": root}


def changed_vnfcs(resource_changes: Mapping[str, Any] | None) -> set[str]:
    """Ids of the VNFCs an operation ADDED or MODIFIED."""
    return {
        c["id"]
        for c in (resource_changes or {}).get("affectedVnfcs") or []
        if c.get("changeType") in ("ADDED", "MODIFIED")
    }


def reconcile(
    session: orm.Session,
    occ: Mapping[str, Any],
    info: Mapping[str, Any] | None,
    found: Mapping[str, rule_check.Break],
    resource_changes: Mapping[str, Any] | None = None,
) -> str | None:
    """Raise, change or clear the instance's alarm after ``occ`` left its
    VNFCs as ``info`` says with ``found`` breaks (none after a
    terminate). Returns what was done: raised, changed, cleared or None.
    """
    instance = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
    alarm = alarms_db.open_for(session, instance["id"]).get(KEY)
    if not found:
        if alarm is None:
            return None
        cleared = alarms_db.clear(session, alarm["id"])
        if cleared is None:
            return None
        fm_notify.alarm_cleared(session, cleared, instance)
        LOG.info(
            "VNF instance %s: zone anti-affinity holds again after op occ "
            "%s; alarm %s cleared",
            instance["id"],
            occ["id"],
            alarm["id"],
        )
        return "cleared"
    vnfc_ids = sorted(found)
    lines = rule_check.describe(found)
    resource = _root_cause(info, found, changed_vnfcs(resource_changes))
    where = f"{occ['operation']} op occ {occ['id']}"
    if alarm is None:
        raised = alarms_db.raise_open(
            session,
            instance,
            KEY,
            faulty_resource=resource,
            severity=SEVERITY,
            event_type=EVENT_TYPE,
            probable_cause=PROBABLE_CAUSE,
            fault_type=FAULT_TYPE,
            details=[*lines, f"raised after {where}"],
            vnfc_ids=vnfc_ids,
        )
        fm_notify.alarm_raised(session, raised, instance)
        LOG.warning(
            "VNF instance %s: %s; alarm %s raised",
            instance["id"],
            "; ".join(lines),
            raised["id"],
        )
        return "raised"
    if (
        list(alarm["vnfc_instance_ids"] or []) == vnfc_ids
        and list(alarm["fault_details"] or [])[: len(lines)] == lines
    ):
        return None
    changed = alarms_db.change_open(
        session,
        alarm["id"],
        faulty_resource=resource,
        details=[*lines, f"changed after {where}"],
        vnfc_ids=vnfc_ids,
    )
    if changed is None:
        return None
    fm_notify.alarm_raised(session, changed, instance)
    LOG.warning(
        "VNF instance %s: %s; alarm %s changed",
        instance["id"],
        "; ".join(lines),
        alarm["id"],
    )
    return "changed"
