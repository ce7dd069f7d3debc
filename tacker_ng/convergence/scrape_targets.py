"""The observer's part in performance management: after listing a VIM it
knows where every VNFC of its instances runs, so it writes their
Prometheus scrape targets (:mod:`tacker_ng.pm.discovery`) without a call
of its own to the VIM.

A Nova server is scraped at its address; a pod through its cluster's
API server. A VNFC that is missing gets no target; a replacement pod
(same workload, new name) is scraped under its new name with the
desired VNFC id, so its series continue under the same ``vnfcId``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence import drift, kubernetes
from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs
from tacker_ng.pm import discovery

LOG = logging.getLogger(__name__)


def _by_instance(
    judged: Iterable[drift.Observation],
) -> dict[str, list[tuple[drift.Observation, drift.ObservedServer]]]:
    out: dict[str, list[tuple[drift.Observation, drift.ObservedServer]]] = {}
    for obs in judged:
        server = obs.replaced_by or obs.server
        entry = out.setdefault(obs.desired.vnf_instance_id, [])
        if server is not None:
            entry.append((obs, server))
    return out


def publish(
    files: discovery.TargetFiles,
    vim: Mapping[str, Any],
    instance_ids: Iterable[str],
    judged: Iterable[drift.Observation],
    conf: cfg.ConfigOpts = cfg.CONF,
) -> int:
    """Write the target files of ``instance_ids`` from one VIM's
    observations; returns how many files changed."""
    seen = _by_instance(judged)
    changed = 0
    if kubernetes.is_kubernetes(vim):
        endpoint = (vim.get("interfaceInfo") or {}).get("endpoint") or ""
        for vnf_id in sorted(instance_ids):
            pods = [
                (
                    o.desired.vnfc_id,
                    o.desired.vdu_id,
                    o.desired.namespace or "default",
                    server.id,
                )
                for o, server in seen.get(vnf_id, [])
            ]
            groups = discovery.pod_targets(
                vnf_id, endpoint, pods, conf.pm.kubernetes_metrics_path
            )
            changed += files.write(discovery.KUBERNETES, vnf_id, groups)
        return changed
    for vnf_id in sorted(instance_ids):
        servers = [
            (
                o.desired.vnfc_id,
                o.desired.vdu_id,
                discovery.pick_address(
                    server.addresses, conf.pm.scrape_network
                ),
            )
            for o, server in seen.get(vnf_id, [])
        ]
        groups = discovery.server_targets(vnf_id, servers, conf.pm.scrape_port)
        changed += files.write(discovery.OPENSTACK, vnf_id, groups)
    return changed


def sweep(files: discovery.TargetFiles) -> int:
    """Remove the files of VNFs that are no longer INSTANTIATED (whoever
    wrote them: a file is the same whichever conductor removes it)."""
    present = files.vnf_ids()
    if not present:
        return 0
    with db_api.reader() as session:
        keep = pm_jobs.instantiated_among(session, present)
    return files.sweep(keep)
