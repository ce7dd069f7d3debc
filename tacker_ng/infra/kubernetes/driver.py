"""The Kubernetes infra driver (vimType ``ETSINFV.KUBERNETES.V_1``).

A CNF is the objects of its package's manifests in one namespace; each
VDU is the workload of the same name and each of its pods a VNFC.
Instantiate applies the objects in dependency order and waits for the
workloads to be ready; terminate deletes them in reverse order and waits
until they are gone; rollback of a failed instantiate deletes what the
operation created (recorded step by step in the op occ's progress).
Scale, heal and change_vnfpkg are in :mod:`.lifecycle`.
"""

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import conf as _conf  # noqa: F401 - registers the options
from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import (
    connection,
    errors,
    info,
    lifecycle,
    manifests,
    readiness,
    waiting,
)
from tacker_ng.infra.kubernetes.kube import Kube, ObjectRef
from tacker_ng.infra.kubernetes.state import (
    OWNER,
    Cluster,
    CnfState,
    owned,
    target_counts,
    vim_of,
)
from tacker_ng.objects import lcm

LOG = logging.getLogger(__name__)
Op = lcm.Operation


class KubernetesDriver(lifecycle.Lifecycle):
    """CNFs from manifests, with the ``kubernetes`` client."""

    name = "kubernetes"
    rollback_operations = frozenset(
        {
            Op.INSTANTIATE,
            Op.SCALE,
            Op.SCALE_TO_LEVEL,
            Op.HEAL,
            Op.CHANGE_VNFPKG,
        }
    )

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.conf = conf
        #: Timing of the last operation (tools/bench/cnf.py reads it).
        self.last_timing: dict[str, Any] = {}

    # -- plumbing --------------------------------------------------------
    @contextlib.contextmanager
    def cluster(self, task: base.LcmTask) -> Iterator[Cluster]:
        """Clients for the operation; its timing recorded at the end."""
        started, cpu = time.perf_counter(), time.thread_time()
        vim_id, vim = vim_of(task)
        timer = connection.CallTimer()
        with connection.api_client(vim, timer, self.conf) as api:
            kube = Kube(api, self.conf.kubernetes.request_timeout)
            waiter = waiting.Waiter(kube, self.conf, task.check_cancel)
            cluster = Cluster(vim_id, kube, waiter, timer)
            try:
                yield cluster
            finally:
                self._timed(task, cluster, started, cpu)

    def _timed(
        self, task: base.LcmTask, cluster: Cluster, started: float, cpu: float
    ) -> None:
        total = time.perf_counter() - started
        client = cluster.timer.seconds
        waited = cluster.waiter.waited
        self.last_timing = {
            "total_s": round(total, 3),
            "client_calls": cluster.timer.calls,
            "client_s": round(client, 3),
            "poll_wait_s": round(waited, 3),
            "vnfm_s": round(max(total - client - waited, 0.0), 3),
            "thread_cpu_s": round(time.thread_time() - cpu, 3),
        }
        task.progress["timing"] = self.last_timing
        task.save_progress()

    def describe(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        state: CnfState,
        ready: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]],
    ) -> dict[str, Any]:
        """instantiatedVnfInfo from the workloads' pods as now running."""
        flavour = task.vnfd.flavour(task.flavour_id)
        zones = info.node_zones(cluster.kube.list("v1", "Node"))
        vnfcs = []
        for vdu_id, ref in state.vdus.items():
            _, pods = ready[ref.name]
            vnfcs += [
                info.vnfc(vdu_id, ref.kind, pod, zones, cluster.vim_id)
                for pod in pods
            ]
        return info.instantiated_vnf_info(
            flavour,
            vnfcs,
            state.namespace,
            state.files,
            state.objects,
            state.vdus,
        )

    @staticmethod
    def workloads(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [o for o in objects if o["kind"] in manifests.WORKLOAD_KINDS]

    def list_zones(self, vim: dict[str, Any]) -> list[str]:
        """The nodes' ``kubernetes.io/zone`` labels (node names when no
        node has one), for the local NFVO's grant. The grant's zones are
        not imposed on pods: the manifests' affinity rules place them."""
        with connection.api_client(vim, conf=self.conf) as api:
            nodes = Kube(api, self.conf.kubernetes.request_timeout).list(
                "v1", "Node"
            )
        zones = info.node_zones(nodes)
        labels = sorted({z for z in zones.values() if z})
        return labels or sorted(zones)

    # -- instantiate -----------------------------------------------------
    def instantiate(self, task: base.LcmTask) -> base.LcmResult:
        flavour = task.vnfd.flavour(task.flavour_id)
        manifest = manifests.load(task.package_root, task.request, flavour)
        counts = target_counts(task)
        for vdu_id, workload in manifest.vdus.items():
            manifests.set_replicas(workload, counts.get(vdu_id, 0))
        with self.cluster(task) as cluster:
            self.apply(task, cluster, manifest.objects)
            ready = cluster.waiter.until_ready(
                self.workloads(manifest.objects)
            )
            state = CnfState.of(manifest)
            state.objects = [  # not a namespace that existed before
                ObjectRef.from_dict(r) for r in task.progress["created"]
            ]
            new_info = self.describe(task, cluster, state, ready)
        return base.LcmResult(
            instantiated_vnf_info=new_info,
            resource_changes=info.resource_changes(
                [], new_info["vnfcResourceInfo"]
            ),
        )

    def apply(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        objects: list[dict[str, Any]],
    ) -> None:
        """Create ``objects`` in order. Each is recorded in the progress
        (``created``) before it is created and carries the instance id
        (annotation :data:`OWNER`), so that a retry or a rollback - even
        after a conductor died between the two - knows exactly which
        objects are this VNF's. A namespace that already existed is used,
        never owned; any other existing object is a conflict."""
        created = task.progress.setdefault("created", [])
        for wanted in objects:
            body = owned(wanted, task.instance["id"])
            ref = ObjectRef.of(body)
            if ref.to_dict() not in created:
                created.append(ref.to_dict())
                task.save_progress()
            try:
                cluster.kube.create(body)
            except errors.ApiError as exc:
                if exc.code != 409:
                    raise
                self._existing(task, cluster, ref)

    @staticmethod
    def _existing(
        task: base.LcmTask, cluster: Cluster, ref: ObjectRef
    ) -> None:
        """An object of the manifests exists: ours (a retry) or not."""
        found = cluster.kube.get(ref) or {}
        annotations = (found.get("metadata") or {}).get("annotations") or {}
        if annotations.get(OWNER) == task.instance["id"]:
            return
        task.progress["created"].remove(ref.to_dict())
        task.save_progress()
        if ref.kind != "Namespace":
            raise errors.NotOwned(object=str(ref))
        LOG.info("Namespace %s exists; using it", ref.name)

    # -- terminate and rollback ------------------------------------------
    def delete_all(
        self,
        cluster: Cluster,
        refs: list[ObjectRef],
        grace: int | None,
    ) -> None:
        """Delete in reverse dependency order: workloads first (and wait
        until their pods are gone), then the rest, then namespaces."""
        ordered = sorted(refs, key=lambda r: manifests.rank(r.kind))[::-1]
        workloads = [r for r in ordered if r.kind in manifests.WORKLOAD_KINDS]
        others = [
            r
            for r in ordered
            if r.kind not in manifests.WORKLOAD_KINDS and r.kind != "Namespace"
        ]
        namespaces = [r for r in ordered if r.kind == "Namespace"]
        selectors = [
            self._delete_workload(cluster, r, grace) for r in workloads
        ]
        cluster.waiter.until_gone(workloads, grace or 0)
        cluster.waiter.until_no_pods(
            [s for s in selectors if s is not None], grace or 0
        )
        for stage in (others, namespaces):
            for ref in stage:
                cluster.kube.delete(ref, grace_period=grace)
            cluster.waiter.until_gone(stage, grace or 0)

    @staticmethod
    def _delete_workload(
        cluster: Cluster, ref: ObjectRef, grace: int | None
    ) -> tuple[str, str] | None:
        """Delete a workload so that its pods get ``grace``: the garbage
        collector would give them their own terminationGracePeriodSeconds
        and a live controller would replace them, so the controllers are
        deleted orphaning their pods, which are then deleted with the
        request's grace period (as ``kubectl drain`` does, pod by pod).
        Returns the (namespace, pod selector) to wait for."""
        if ref.kind == "Pod":
            cluster.kube.delete(ref, grace_period=grace)
            return None
        body = cluster.kube.get(ref)
        if body is None:
            return None
        namespace = ref.namespace or ""
        selector = readiness.selector_string(
            (body.get("spec") or {}).get("selector")
        )
        cluster.kube.delete(ref, propagation="Orphan")
        if ref.kind == "Deployment":  # its ReplicaSets, one by one
            for rs in cluster.kube.list(
                "apps/v1", "ReplicaSet", namespace, label_selector=selector
            ):
                rs_ref = ObjectRef(
                    "apps/v1", "ReplicaSet", rs["metadata"]["name"], namespace
                )
                cluster.kube.delete(rs_ref, propagation="Orphan")
        for pod in cluster.kube.list(
            "v1", "Pod", namespace, label_selector=selector
        ):
            pod_ref = ObjectRef(
                "v1", "Pod", pod["metadata"]["name"], namespace
            )
            cluster.kube.delete(pod_ref, grace_period=grace)
        return namespace, selector

    def _grace(self, request: dict[str, Any]) -> int:
        if request.get("terminationType") == "FORCEFUL":
            return 0
        timeout = request.get("gracefulTerminationTimeout")
        if timeout is None:
            return self.conf.kubernetes.default_grace_period
        return int(timeout)

    def terminate(self, task: base.LcmTask) -> base.LcmResult:
        kept = info.stored(task.instance)
        refs = [ObjectRef.from_dict(r) for r in kept.get(info.OBJECTS) or []]
        before = info.vnfcs_of(task.instance)
        with self.cluster(task) as cluster:
            self.delete_all(cluster, refs, self._grace(task.request))
        return base.LcmResult(
            resource_changes=info.resource_changes(before, [])
        )

    def rollback(self, task: base.LcmTask) -> base.LcmResult:
        """Instantiate: delete what it created. Other operations: see
        :meth:`~.lifecycle.Lifecycle.rollback_lifecycle`."""
        if task.operation != Op.INSTANTIATE:
            return self.rollback_lifecycle(task)
        created = [
            ObjectRef.from_dict(r) for r in task.progress.get("created") or []
        ]
        with self.cluster(task) as cluster:
            self.delete_all(cluster, created, 0)
        task.progress["created"] = []
        task.save_progress()
        return base.LcmResult()
