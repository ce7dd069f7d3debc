"""Refresh the VNFCs whose pod a ReplicaSet replaced behind our back.

A Deployment's pod deleted outside tacker-ng comes back under a new
name: the VDU still has its desired number of pods, so this is not
drift (no alarm, no heal), but ``vnfcResourceInfo`` must name the pod
that runs now, or every later heal or scale would aim at a ghost. Like
the driver after a heal (the pod name is the VNFC id), the entry takes
the new pod's name as id and resourceId, and its node and zone.

Only a Ready replacement is adopted: one still starting is left for a
later cycle, one that is not Ready stays drift on the old VNFC id, which
a heal handles (the driver skips the pod that is gone and waits for the
workload). Never while an op holds the
instance (see :func:`~tacker_ng.db.observed.refresh_vnf_info`).
"""

import copy
from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng.convergence.drift import Observation, ObservedServer
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db

LOG = logging.getLogger(__name__)


def adopt(
    info: dict[str, Any], replaced: Mapping[str, ObservedServer]
) -> dict[str, Any] | None:
    """``info`` with each VNFC id in ``replaced`` renamed to its new pod
    (None when none of them is there any more). Pure."""
    new = copy.deepcopy(info)
    done = False
    renamed: dict[str, str] = {}
    for item in new.get("vnfcResourceInfo") or []:
        pod = replaced.get(item.get("id"))
        if pod is None:
            continue
        renamed[item["id"]] = pod.id
        item["id"] = pod.id
        item.setdefault("computeResource", {})["resourceId"] = pod.id
        meta = item.setdefault("metadata", {})
        if pod.host:
            meta["nodeName"] = pod.host
        if pod.zone:
            meta["zone"] = pod.zone
        else:
            meta.pop("zone", None)
        done = True
    for vnfc in new.get("vnfcInfo") or []:
        old = vnfc.get("vnfcResourceInfoId")
        if old in renamed:
            vnfc["vnfcResourceInfoId"] = renamed[old]
    if done:
        new["vnfcResourceInfo"] = sorted(
            new["vnfcResourceInfo"],
            key=lambda v: (v.get("vduId", ""), v["id"]),
        )
    return new if done else None


def refresh_replaced(
    instances: Mapping[str, Mapping[str, Any]],
    judged: list[Observation],
) -> int:
    """Adopt the Ready replacements among ``judged``; VNFCs refreshed."""
    by_instance: dict[str, dict[str, ObservedServer]] = {}
    for obs in judged:
        new = obs.replaced_by
        if new is not None and obs.drift is None and new.status == "ACTIVE":
            d = obs.desired
            by_instance.setdefault(d.vnf_instance_id, {})[d.vnfc_id] = new
    count = 0
    for iid, replaced in sorted(by_instance.items()):
        if instances[iid]["current_op_occ_id"]:
            continue
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as s:
                done = observed_db.refresh_vnf_info(
                    s, iid, lambda info, r=replaced: adopt(info, r)
                )
        if done:
            count += len(replaced)
            LOG.info(
                "VNF instance %s: pods replaced by their ReplicaSet "
                "adopted: %s",
                iid,
                ", ".join(f"{o} -> {p.id}" for o, p in replaced.items()),
            )
    return count
