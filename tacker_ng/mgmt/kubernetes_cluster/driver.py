"""The Kubernetes-cluster MgmtDriver's hooks (kubeadm over SSH).

instantiate_end first puts HAProxy in front of every master on each VM
that reaches the control plane through it (see :mod:`.endpoint`: every
node, unless the request names a control-plane address), installs the
first master (``kubeadm init``, a new etcd cluster of its member), joins
the other masters as control plane (each etcd member added on the first
master, then started with TLS certificates from the etcd CA the first
master made), joins the workers, labels every worker with its compute
host and returns the cluster as a Kubernetes VIM for the conductor to
register (vimId derived from the instance, so stable across a
whole-cluster heal); scale_start drains (bounded, :mod:`.drain`) and
deletes the workers being removed, scale_end joins and labels the new
ones; heal_start removes the healed nodes from the cluster (a master's
etcd member and HAProxy backends too) and, when a master goes, hands the
VIM over to a master that stays; heal_end joins the replacements (HAProxy
first, through which they join; etcd member, control plane) and sets the
backends everywhere again. Any master heals, the first one included: no
step depends on one particular master. Without vnfcInstanceId (SOL003
whole-cluster heal) heal_start withdraws the VIM like a terminate_end and
heal_end rebuilds like instantiate_end, registering the new endpoint and
credentials under the same vimId. Drains that had to force-delete pods
are reported in the op occ (the VNFC's ``nodeDrain`` metadata). Every
step is a script of the VNF package run over SSH (host key pinned from
the VNFC's metadata), arguments quoted by the executor, secrets on the
script's stdin.
"""

from __future__ import annotations

from typing import Any

from tacker_ng.infra.base import LcmTask
from tacker_ng.mgmt import base, ssh_errors
from tacker_ng.mgmt.kubernetes_cluster import commands, endpoint, kube, vms
from tacker_ng.mgmt.kubernetes_cluster.cluster import Cluster, vim_id_of
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError
from tacker_ng.objects.vnfd import Artifact

__all__ = ["KubernetesClusterDriver", "vim_id_of"]


def _healed_ids(task: LcmTask) -> list[str]:
    ids = task.request.get("vnfcInstanceId") or []
    return [ids] if isinstance(ids, str) else list(ids)


class KubernetesClusterDriver(base.MgmtDriver):
    """Hooks of the k8s_cluster sample (artifact kubernetes_cluster_mgmt)."""

    def instantiate_end(
        self, task: LcmTask, artifact: Artifact
    ) -> base.HookResult:
        cluster = Cluster(task)
        masters = cluster.masters
        if not masters:
            raise ClusterError(
                reason=f"no VM of VDU {cluster.params.master_vdu}"
            )
        # The control-plane endpoint answers before kubeadm needs it.
        cluster.set_backends(cluster.balancers(), masters)
        first = masters[0]
        cluster.run(first, commands.INSTALL_MASTER,
                    commands.install_master_init(
                        endpoint.control_plane(cluster.params),
                        cluster.params.pod_cidr,
                        first.node_name, first.address))  # fmt: skip
        for vm in masters[1:]:
            cluster.join_master(first, vm)
        vim = cluster.vim(first)
        for vm in cluster.workers:
            cluster.join_worker(first, vim, vm)
        return cluster.provided(vim)

    def scale_start(
        self, task: LcmTask, artifact: Artifact
    ) -> base.HookResult | None:
        removed = {
            r["id"]
            for r in task.grant_request.get("removeResources") or []
            if r.get("type") == "COMPUTE"
        }
        if not removed:
            return None
        cluster = Cluster(task)
        master = _surviving_master(cluster, removed)
        notes = {}
        for vm in cluster.workers:
            if vm.vnfc_id in removed:
                note = cluster.remove(master, vm)
                if note:
                    notes[vm.vnfc_id] = note
        return base.HookResult(vnfc_metadata=notes)

    def scale_end(self, task: LcmTask, artifact: Artifact) -> None:
        self._join_missing(Cluster(task))

    def terminate_end(
        self, task: LcmTask, artifact: Artifact
    ) -> base.HookResult:
        """The cluster's VMs are gone: its VIM is withdrawn (the conductor
        also withdraws it on every terminate, hook or not)."""
        return base.HookResult(withdrawn_vims=[vim_id_of(task.instance["id"])])

    def heal_start(
        self, task: LcmTask, artifact: Artifact
    ) -> base.HookResult | None:
        healed = set(_healed_ids(task))
        if not healed:
            # SOL003 whole-cluster heal: like terminate_end (every VM is
            # rebuilt by Heat; no node to drain on a cluster being
            # replaced); heal_end installs and registers it again.
            return self.terminate_end(task, artifact)
        cluster = Cluster(task)
        master = _surviving_master(cluster, healed)
        leaving = [vm for vm in cluster.masters if vm.vnfc_id in healed]
        for vm in leaving:
            cluster.remove_etcd_member(master, vm)
        if leaving:
            staying = [vm for vm in cluster.masters if vm not in leaving]
            cluster.set_backends(
                [vm for vm in cluster.balancers() if vm.vnfc_id not in healed],
                staying,
            )
        result = base.HookResult()
        for vm in cluster.vms:
            if vm.vnfc_id in healed:
                note = cluster.remove(master, vm)
                if note:
                    result.vnfc_metadata[vm.vnfc_id] = note
        if leaving:
            # The VIM may name a master that goes: a staying one's now.
            result.provided_vims = cluster.provided(
                cluster.vim(master)
            ).provided_vims
        return result

    def heal_end(
        self, task: LcmTask, artifact: Artifact
    ) -> base.HookResult | None:
        healed = set(_healed_ids(task))
        if not healed:
            return self.instantiate_end(task, artifact)
        cluster = Cluster(task)
        joined = self._join_missing(cluster)
        # A resumed hook may have joined the master already: the backends
        # are set whenever a master was healed (rewriting them is safe).
        if joined or healed & {vm.vnfc_id for vm in cluster.masters}:
            cluster.set_backends(cluster.balancers(), cluster.masters)
        return None

    @staticmethod
    def _join_missing(cluster: Cluster) -> list[vms.ClusterVm]:
        """Join every VM whose node the cluster does not have (new or
        rebuilt VMs: found from the stack's resources and the API's
        node list, so a resumed hook does not join a node twice). Each
        gets its HAProxy first: it joins through it (:mod:`.endpoint`)."""
        first = cluster.masters[0] if cluster.masters else None
        if first is None:
            raise ClusterError(reason="the cluster has no master VM")
        vim: dict[str, Any] | None = None
        for vm in cluster.masters:
            try:
                vim = cluster.vim(vm)
            except ssh_errors.CommandFailed:
                continue  # a rebuilt master has no kubeconfig yet
            first = vm
            break
        if vim is None:
            raise ClusterError(reason="no master answers for the cluster")
        nodes = kube.node_names(vim)
        balancers = {vm.vnfc_id for vm in cluster.balancers()}
        joined = [vm for vm in cluster.masters if vm.node_name not in nodes]
        for vm in joined:
            cluster.set_backends([vm], cluster.masters)
            cluster.join_master(first, vm)
        for vm in cluster.workers:
            if vm.node_name not in nodes:
                if vm.vnfc_id in balancers:
                    cluster.set_backends([vm], cluster.masters)
                cluster.join_worker(first, vim, vm)
        return joined


def _surviving_master(cluster: Cluster, leaving: set[str]) -> vms.ClusterVm:
    """A master that stays; 422 when every master would go at once."""
    for vm in cluster.masters:
        if vm.vnfc_id not in leaving:
            return vm
    raise ClusterError(
        reason="every master node would be removed at once; heal or "
        "remove masters one at a time so the cluster keeps its etcd quorum"
    )
