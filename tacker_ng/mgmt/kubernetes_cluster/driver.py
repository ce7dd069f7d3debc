"""The Kubernetes-cluster MgmtDriver's hooks (kubeadm over SSH).

instantiate_end installs the first master (``kubeadm init``, a new etcd
cluster of its member), joins the other masters as control plane (each
etcd member added on the first master, then started with TLS
certificates from the etcd CA the first master made), puts HAProxy with
every master as backend on each master, joins the workers, labels every
worker with its compute host and returns the cluster as a Kubernetes VIM
for the conductor to register (vimId derived from the instance, so stable
across a whole-cluster heal); scale_start drains and deletes the workers
being removed, scale_end joins and labels the new ones; heal_start removes
the healed nodes from the cluster (a master's etcd member and HAProxy
backends too), heal_end joins their replacements (etcd member, control
plane, HAProxy on every master); without vnfcInstanceId (SOL003
whole-cluster heal) heal_start withdraws the VIM like a terminate_end and
heal_end rebuilds like instantiate_end, registering the new endpoint and
credentials under the same vimId. Every step is a script of the VNF
package run over SSH (host key pinned from the VNFC's metadata), arguments
quoted by the executor, secrets on the script's stdin.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from oslo_log import log as logging

from tacker_ng.infra.base import LcmTask
from tacker_ng.mgmt import base, ssh, ssh_errors, ssh_scripts
from tacker_ng.mgmt.kubernetes_cluster import (
    commands,
    etcd,
    haproxy,
    kube,
    params,
    vms,
)
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError
from tacker_ng.objects.vnfd import Artifact

LOG = logging.getLogger(__name__)


def vim_id_of(instance_id: str) -> str:
    """The vimId the cluster of VNF instance ``instance_id`` is known by
    (the same after a whole-cluster heal, so CNFs keep referring to it)."""
    return f"kubernetes-{instance_id}"


class Cluster:
    """One hook's view of the cluster: its VMs and how to reach them."""

    def __init__(self, task: LcmTask) -> None:
        self.task = task
        self.params = params.from_request(task.request)
        self.vms = vms.cluster_vms(task.instance)

    @property
    def masters(self) -> list[vms.ClusterVm]:
        return [v for v in self.vms if v.vdu_id == self.params.master_vdu]

    @property
    def workers(self) -> list[vms.ClusterVm]:
        return [v for v in self.vms if v.vdu_id == self.params.worker_vdu]

    def script(self, name: str) -> bytes:
        path = Path(self.task.package_root) / name
        try:
            return path.read_bytes()
        except OSError:
            raise ClusterError(
                reason=f"the VNF package has no {name}"
            ) from None

    def run(
        self,
        vm: vms.ClusterVm,
        script: str,
        args: list[str],
        *,
        join: commands.JoinData | None = None,
        log_output: bool = True,
    ) -> ssh.Result:
        """Run a package script on ``vm`` (join secrets on its stdin)."""
        with ssh.SshExecutor(
            vm.address, self.params.credentials, host_key=vm.host_key
        ) as executor:
            return ssh_scripts.run_script(
                executor,
                self.script(script),
                args,
                name=script.rsplit("/", 1)[-1],
                stdin=join.stdin() if join else None,
                secrets=join.secrets() if join else (),
                log_output=log_output,
            )

    def join_data(
        self, master: vms.ClusterVm, control_plane: bool
    ) -> commands.JoinData:
        """A fresh bootstrap token (and certificate key) from ``master``."""
        token = commands.new_token()
        key = commands.new_certificate_key() if control_plane else None
        stdin_join = commands.JoinData("", "", token, key)
        out = self.run(
            master,
            commands.JOIN_COMMAND,
            ["--control-plane"] if control_plane else [],
            join=stdin_join,
        )
        endpoint, ca_hash = commands.parse_join(out.stdout, token)
        return commands.JoinData(endpoint, ca_hash, token, key)

    def vim(self, master: vms.ClusterVm) -> dict[str, Any]:
        """The cluster's VimConnectionInfo from ``master``'s admin
        kubeconfig (read without logging it: it holds credentials)."""
        out = self.run(master, commands.READ_KUBECONFIG, [], log_output=False)
        return commands.vim_from_kubeconfig(
            out.stdout, vim_id_of(self.task.instance["id"])
        )

    def join_worker(
        self, master: vms.ClusterVm, vim: dict[str, Any], vm: vms.ClusterVm
    ) -> None:
        join = self.join_data(master, control_plane=False)
        self.run(vm, commands.INSTALL_WORKER,
                 commands.install_worker(join, vm.node_name),
                 join=join)  # fmt: skip
        kube.label_zone(vim, vm.node_name, vm.compute_host)
        LOG.info(
            "Kubernetes cluster of %s: worker %s joined, zone %s",
            self.task.instance["id"],
            vm.node_name,
            vm.compute_host,
        )

    def join_master(self, master: vms.ClusterVm, vm: vms.ClusterVm) -> None:
        """Add ``vm``'s etcd member on ``master`` (unless there already:
        a resumed hook), then install ``vm`` as a control-plane node."""
        join = self.join_data(master, control_plane=True)
        # The etcd CA, read without logging it (it holds the CA's key).
        ca = self.run(master, etcd.READ_ETCD_CA, [], log_output=False)
        join = dataclasses.replace(join, etcd_ca=etcd.ca_bundle(ca.stdout))
        out = self.run(master, etcd.ETCD_MEMBER,
                       etcd.member_add(vm.node_name, vm.address))  # fmt: skip
        initial = etcd.initial_cluster(out.stdout, vm.node_name, vm.address)
        self.run(vm, commands.INSTALL_MASTER,
                 commands.install_master_join(
                     join, vm.node_name, vm.address, initial),
                 join=join)  # fmt: skip

    def remove_etcd_member(
        self, master: vms.ClusterVm, vm: vms.ClusterVm
    ) -> None:
        """On ``master``, remove ``vm``'s etcd member (none: nothing)."""
        self.run(master, etcd.ETCD_MEMBER, etcd.member_remove(vm.node_name))

    def set_backends(
        self, on: list[vms.ClusterVm], masters: list[vms.ClusterVm]
    ) -> None:
        """HAProxy of each of ``on`` in front of exactly ``masters``."""
        args = haproxy.backends((m.node_name, m.address) for m in masters)
        for vm in on:
            self.run(vm, haproxy.HAPROXY_BACKENDS, args)

    def remove(self, master: vms.ClusterVm, vm: vms.ClusterVm) -> None:
        """Drain ``vm``'s node (pods evicted elsewhere) and delete it."""
        self.run(master, commands.REMOVE_NODE, [vm.node_name])

    def provided(self, vim: dict[str, Any]) -> base.HookResult:
        """The cluster VIM for the conductor to register (hooks do not
        write the database)."""
        return base.HookResult(provided_vims={vim["vimId"]: vim})


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
        first = masters[0]
        control_plane = commands.endpoint(
            cluster.params.control_plane_address or first.address
        )
        cluster.run(first, commands.INSTALL_MASTER,
                    commands.install_master_init(
                        control_plane, cluster.params.pod_cidr,
                        first.node_name, first.address))  # fmt: skip
        for vm in masters[1:]:
            cluster.join_master(first, vm)
        cluster.set_backends(masters, masters)
        vim = cluster.vim(first)
        for vm in cluster.workers:
            cluster.join_worker(first, vim, vm)
        return cluster.provided(vim)

    def scale_start(self, task: LcmTask, artifact: Artifact) -> None:
        removed = {
            r["id"]
            for r in task.grant_request.get("removeResources") or []
            if r.get("type") == "COMPUTE"
        }
        if not removed:
            return
        cluster = Cluster(task)
        master = _surviving_master(cluster, removed)
        for vm in cluster.workers:
            if vm.vnfc_id in removed:
                cluster.remove(master, vm)

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
            cluster.set_backends(staying, staying)
        for vm in cluster.vms:
            if vm.vnfc_id in healed:
                cluster.remove(master, vm)
        return None

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
            cluster.set_backends(cluster.masters, cluster.masters)
        return None

    @staticmethod
    def _join_missing(cluster: Cluster) -> list[vms.ClusterVm]:
        """Join every VM whose node the cluster does not have (new or
        rebuilt VMs: found from the stack's resources and the API's
        node list, so a resumed hook does not join a node twice)."""
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
        joined = [vm for vm in cluster.masters if vm.node_name not in nodes]
        for vm in joined:
            cluster.join_master(first, vm)
        for vm in cluster.workers:
            if vm.node_name not in nodes:
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
