"""Scale, heal and change_vnfpkg of a CNF, and their rollbacks.

A mixin of :class:`~tacker_ng.infra.kubernetes.driver.KubernetesDriver`
(it uses the driver's ``cluster``, ``describe`` and ``conf``). Scale sets
each VDU's ``spec.replicas`` to the count the grant request implies;
heal first re-creates from the package whatever of the CNF is gone from
the cluster (:mod:`.recreate`), then, of chosen VNFCs, deletes those pods
and waits for their replacements (a bare Pod is re-created from the
package), or, of the whole VNF, re-creates every other VDU workload;
change_vnfpkg rolls the objects to the new package's manifests. Whatever
an operation overwrites is kept in the op occ's progress first, so that
its rollback can put it back.
"""

import abc
import contextlib
import copy
from typing import Any

from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import errors, info, manifests, recreate
from tacker_ng.infra.kubernetes.kube import ObjectRef
from tacker_ng.infra.kubernetes.state import (
    OWNER,
    Cluster,
    CnfState,
    owned,
    target_counts,
)
from tacker_ng.objects import lcm

LOG = logging.getLogger(__name__)
Op = lcm.Operation
#: Metadata a stored copy keeps (the rest belongs to the API server).
_KEPT_METADATA = ("name", "namespace", "labels", "annotations")


def key(ref: ObjectRef) -> str:
    """A progress dict key for an object."""
    return f"{ref.api_version}|{ref.kind}|{ref.namespace or ''}|{ref.name}"


def restorable(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` as it can be written back: no status, no server metadata."""
    body = {k: v for k, v in obj.items() if k != "status"}
    meta = obj.get("metadata") or {}
    body["metadata"] = {k: meta[k] for k in _KEPT_METADATA if k in meta}
    return body


class Lifecycle(base.InfraDriver):
    """The CNF operations after instantiate (the driver's base class)."""

    conf: Any

    @abc.abstractmethod
    def cluster(
        self, task: base.LcmTask
    ) -> contextlib.AbstractContextManager[Cluster]:
        """Clients of the operation's cluster."""

    @abc.abstractmethod
    def describe(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        state: CnfState,
        ready: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]],
    ) -> dict[str, Any]:
        """instantiatedVnfInfo from the pods now running."""

    # -- helpers ---------------------------------------------------------
    def _current(self, cluster: Cluster, state: CnfState) -> list[dict]:
        found = []
        for vdu_id, ref in state.vdus.items():
            body = cluster.kube.get(ref)
            if body is None:
                raise errors.WorkloadGone(object=str(ref), vdu=vdu_id)
            found.append(body)
        return found

    def _finish(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        state: CnfState,
        replaced: dict[str, str] | None = None,
        fresh: frozenset[str] | set[str] = frozenset(),
    ) -> base.LcmResult:
        """Wait for every VDU workload (without the ``replaced`` pods,
        uid -> name); the new info and the changes. Every pod of a
        ``fresh`` VDU (its workload re-created) is new."""
        replaced = replaced or {}
        ready = cluster.waiter.until_ready(
            self._current(cluster, state), frozenset(replaced)
        )
        new_info = self.describe(task, cluster, state, ready)
        before = info.vnfcs_of(task.instance)
        after = new_info["vnfcResourceInfo"]
        # A replacement with the old name (StatefulSet, bare Pod).
        same = {v["id"] for v in before} & {v["id"] for v in after}
        renewed = set(replaced.values()) & same
        renewed |= {v["id"] for v in before if v["vduId"] in fresh} & same
        return base.LcmResult(
            instantiated_vnf_info=new_info,
            resource_changes=info.resource_changes(before, after, renewed),
        )

    # -- scale -----------------------------------------------------------
    def scale(self, task: base.LcmTask) -> base.LcmResult:
        return self._scale(task)

    def scale_to_level(self, task: base.LcmTask) -> base.LcmResult:
        return self._scale(task)

    def _scale(self, task: base.LcmTask) -> base.LcmResult:
        state = CnfState.stored(task.instance)
        counts = target_counts(task)
        have = {
            vdu: sum(
                1 for v in info.vnfcs_of(task.instance) if v["vduId"] == vdu
            )
            for vdu in state.vdus
        }
        with self.cluster(task) as cluster:
            saved = task.progress.setdefault("replicas", {})
            for vdu_id, ref in state.vdus.items():
                want = counts.get(vdu_id, 0)
                if want == have[vdu_id]:
                    continue
                if ref.kind not in manifests.SCALABLE_KINDS:
                    raise errors.InvalidManifest(
                        reason=f"{vdu_id} is a {ref.kind}, which has no "
                        "replica count"
                    )
                current = cluster.kube.get(ref)
                if current is None:
                    raise errors.WorkloadGone(object=str(ref), vdu=vdu_id)
                saved.setdefault(
                    vdu_id, manifests.replicas_of(current) or have[vdu_id]
                )
                task.save_progress()
                cluster.kube.merge_patch(ref, {"spec": {"replicas": want}})
            return self._finish(task, cluster, state)

    # -- heal ------------------------------------------------------------
    def heal(self, task: base.LcmTask) -> base.LcmResult:
        """What is gone comes back from the package first (its VNFCs are
        new then: nothing more to do for them), then the VNFCs asked for
        (or every other VDU workload) are replaced."""
        state = CnfState.stored(task.instance)
        wanted = task.request.get("vnfcInstanceId")
        with self.cluster(task) as cluster:
            fresh = recreate.recreate_missing(
                task, cluster, state, self._rendered(task, state)
            )
            if wanted:
                replaced = self._heal_vnfcs(
                    task, cluster, state, wanted, fresh
                )
            else:
                replaced = self._heal_all(task, cluster, state, fresh)
            return self._finish(task, cluster, state, replaced, fresh)

    @staticmethod
    def _rendered(task: base.LcmTask, state: CnfState) -> manifests.Manifest:
        """The package's manifests as instantiate rendered them for this
        CNF (its files, its namespace)."""
        flavour = task.vnfd.flavour(task.flavour_id)
        request = {"additionalParams": {manifests.FILES_KEY: state.files}}
        return manifests.load(
            task.package_root, request, flavour, state.namespace
        )

    def _package_workloads(
        self, task: base.LcmTask, state: CnfState
    ) -> dict[str, dict[str, Any]]:
        """VDU id -> its workload as the package's manifests have it."""
        return self._rendered(task, state).vdus

    def _heal_vnfcs(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        state: CnfState,
        wanted: list[str],
        fresh: set[str],
    ) -> dict[str, str]:
        """Delete the pods; a bare Pod is re-created from the package.
        The pods of a ``fresh`` VDU are new already (a StatefulSet's
        bear the old names): left alone."""
        vnfcs = {v["id"]: v for v in info.vnfcs_of(task.instance)}
        grace = self.conf.kubernetes.default_grace_period
        replaced = dict(task.progress.get("replaced") or {})
        bare = []
        for vnfc_id in wanted:
            vdu_id = vnfcs[vnfc_id]["vduId"]
            if vdu_id in fresh:
                continue
            pod_ref = ObjectRef("v1", "Pod", vnfc_id, state.namespace)
            pod = cluster.kube.get(pod_ref)
            if pod is None:
                continue  # gone already: its controller replaces it
            replaced[pod["metadata"]["uid"]] = vnfc_id
            task.progress["replaced"] = replaced
            task.save_progress()
            cluster.kube.delete(pod_ref, grace_period=grace)
            if state.vdus[vdu_id].kind == "Pod":
                bare.append(vdu_id)
        if bare:
            bodies = self._package_workloads(task, state)
            refs = [state.vdus[v] for v in bare]
            cluster.waiter.until_gone(refs, grace)
            for vdu_id in bare:
                cluster.kube.create(owned(bodies[vdu_id], task.instance["id"]))
        return replaced

    def _heal_all(
        self,
        task: base.LcmTask,
        cluster: Cluster,
        state: CnfState,
        fresh: set[str],
    ) -> dict[str, str]:
        """Delete every VDU workload (and its pods), then create it again
        from the package with the replica count it had; those ``fresh``
        (just re-created) are new already."""
        bodies = self._package_workloads(task, state)
        vdus = {v: r for v, r in state.vdus.items() if v not in fresh}
        old = CnfState(state.namespace, state.files, state.objects, vdus)
        current = {ObjectRef.of(w): w for w in self._current(cluster, old)}
        replaced = {
            p["metadata"]["uid"]: p["metadata"]["name"]
            for w in current.values()
            for p in cluster.waiter.pods_of(w)
        }
        refs = list(vdus.values())
        for ref in refs[::-1]:
            cluster.kube.delete(ref, propagation="Foreground")
        cluster.waiter.until_gone(refs)
        for vdu_id, ref in vdus.items():
            body = owned(bodies[vdu_id], task.instance["id"])
            replicas = manifests.replicas_of(current[ref])
            if replicas is not None:
                manifests.set_replicas(body, replicas)
            cluster.kube.create(body)
        return replaced

    # -- change_vnfpkg ---------------------------------------------------
    def change_vnfpkg(self, task: base.LcmTask) -> base.LcmResult:
        """Roll every object to the new package's manifests: replace what
        exists (keeping the VDUs' replica counts), create what is new,
        delete what the new package no longer has."""
        old = CnfState.stored(task.instance)
        flavour = task.vnfd.flavour(task.flavour_id)
        manifest = manifests.load(
            task.package_root, task.request, flavour, old.namespace
        )
        new = CnfState.of(manifest)
        previous = task.progress.setdefault("previous", {})
        created = task.progress.setdefault("created", [])
        mine = set(old.objects)
        with self.cluster(task) as cluster:
            for wanted in manifest.objects:
                ref = ObjectRef.of(wanted)
                current = cluster.kube.get(ref)
                if current is None:
                    if ref.to_dict() not in created:
                        created.append(ref.to_dict())
                        task.save_progress()
                    cluster.kube.create(owned(wanted, task.instance["id"]))
                    continue
                if ref not in mine and not self._ours(task, current):
                    if ref.kind == "Namespace":
                        continue  # used, not owned, as at instantiate
                    raise errors.NotOwned(object=str(ref))
                previous.setdefault(key(ref), restorable(current))
                task.save_progress()
                body = owned(wanted, task.instance["id"])
                replicas = manifests.replicas_of(current)
                if body["kind"] in manifests.SCALABLE_KINDS and replicas:
                    manifests.set_replicas(body, replicas)
                body["metadata"]["resourceVersion"] = current["metadata"][
                    "resourceVersion"
                ]
                cluster.kube.replace(body)
            new.objects = [
                r for r in new.objects if r in mine or r.to_dict() in created
            ]
            result = self._finish(task, cluster, new)
            gone = [r for r in old.objects if r not in set(new.objects)]
            for ref in gone[::-1]:
                current = cluster.kube.get(ref)
                if current is not None:
                    previous.setdefault(key(ref), restorable(current))
                    task.save_progress()
                    cluster.kube.delete(ref, propagation="Foreground")
            cluster.waiter.until_gone(gone)
            return result

    @staticmethod
    def _ours(task: base.LcmTask, obj: dict[str, Any]) -> bool:
        annotations = obj["metadata"].get("annotations") or {}
        return annotations.get(OWNER) == task.instance["id"]

    # -- rollback --------------------------------------------------------
    def rollback_lifecycle(self, task: base.LcmTask) -> base.LcmResult:
        """Scale: the replica counts before. change_vnfpkg: every object
        as it was, objects it created deleted. Heal: nothing to undo (a
        deleted pod cannot come back, a re-created workload is what the
        VNF should have): the cluster is left as the heal left it and the
        instance's record as it was, which the observer then compares
        with the cluster (drift raises an alarm or a new heal)."""
        if task.operation == Op.HEAL:
            return base.LcmResult()
        if task.operation not in (
            Op.SCALE,
            Op.SCALE_TO_LEVEL,
            Op.CHANGE_VNFPKG,
        ):
            raise base.RollbackNotSupported(
                driver=self.name, operation=task.operation
            )
        state = CnfState.stored(task.instance)
        with self.cluster(task) as cluster:
            for vdu_id, replicas in (
                task.progress.get("replicas") or {}
            ).items():
                cluster.kube.merge_patch(
                    state.vdus[vdu_id], {"spec": {"replicas": replicas}}
                )
            self._restore(cluster, task.progress)
            result = self._finish(task, cluster, state)
        return base.LcmResult(
            instantiated_vnf_info=result.instantiated_vnf_info
        )

    @staticmethod
    def _restore(cluster: Cluster, progress: dict[str, Any]) -> None:
        created = [
            ObjectRef.from_dict(r) for r in progress.get("created") or []
        ]
        for ref in created[::-1]:
            cluster.kube.delete(ref, propagation="Foreground")
        cluster.waiter.until_gone(created)
        saved = list((progress.get("previous") or {}).values())
        saved.sort(key=lambda b: manifests.rank(b["kind"]))
        for kept in saved:
            ref = ObjectRef.of(kept)
            current = cluster.kube.get(ref)
            body = copy.deepcopy(kept)
            if current is None:
                cluster.kube.create(body)
                continue
            body["metadata"]["resourceVersion"] = current["metadata"][
                "resourceVersion"
            ]
            cluster.kube.replace(body)
