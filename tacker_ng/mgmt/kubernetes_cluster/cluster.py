"""One hook's view of the cluster: its VMs, how to reach them, and the
steps the hooks are made of (each a package script run over SSH).

The hooks (:mod:`.driver`) decide the order; every step here is safe to
run again (a hook resumed after a conductor died starts over).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from oslo_log import log as logging

from tacker_ng.infra.base import LcmTask
from tacker_ng.mgmt import base, ssh, ssh_scripts
from tacker_ng.mgmt.kubernetes_cluster import (
    commands,
    drain,
    endpoint,
    etcd,
    haproxy,
    kube,
    params,
    vms,
)
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

LOG = logging.getLogger(__name__)


def vim_id_of(instance_id: str) -> str:
    """The vimId the cluster of VNF instance ``instance_id`` is known by
    (the same after a whole-cluster heal, so CNFs keep referring to it)."""
    return f"kubernetes-{instance_id}"


class Cluster:
    """The cluster's VMs (from the stack's resources) and its steps."""

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

    def balancers(self) -> list[vms.ClusterVm]:
        """The VMs running HAProxy in front of the masters: every node
        when the control-plane endpoint is the local one, else the
        masters (behind the operator's address)."""
        if endpoint.local_balancer(self.params):
            return self.masters + self.workers
        return self.masters

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
        """A fresh bootstrap token (and certificate key) from ``master``;
        the endpoint is the cluster's control-plane endpoint it prints."""
        token = commands.new_token()
        key = commands.new_certificate_key() if control_plane else None
        stdin_join = commands.JoinData("", "", token, key)
        out = self.run(
            master,
            commands.JOIN_COMMAND,
            ["--control-plane"] if control_plane else [],
            join=stdin_join,
        )
        where, ca_hash = commands.parse_join(out.stdout, token)
        return commands.JoinData(where, ca_hash, token, key)

    def vim(self, master: vms.ClusterVm) -> dict[str, Any]:
        """The cluster's VimConnectionInfo from ``master``'s admin
        kubeconfig (read without logging it: it holds credentials); a
        loopback server becomes ``master``'s API server."""
        out = self.run(master, commands.READ_KUBECONFIG, [], log_output=False)
        vim = commands.vim_from_kubeconfig(
            out.stdout, vim_id_of(self.task.instance["id"])
        )
        info = vim["interfaceInfo"]
        info["endpoint"] = endpoint.vim_endpoint(
            info["endpoint"], master.address
        )
        return vim

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
        LOG.info(
            "Kubernetes cluster of %s: master %s joined through %s",
            self.task.instance["id"],
            vm.node_name,
            join.endpoint,
        )

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

    def remove(
        self, master: vms.ClusterVm, vm: vms.ClusterVm
    ) -> dict[str, Any] | None:
        """Drain ``vm``'s node (bounded, see :mod:`.drain`) and delete it;
        the VNFC's ``nodeDrain`` metadata (None: it had no node)."""
        timeout = self.params.drain_timeout
        out = self.run(
            master, drain.REMOVE_NODE, drain.remove_args(vm.node_name, timeout)
        )
        done = drain.outcome(out.stdout)
        if done is None:
            return None
        if done.result == "FORCED":
            LOG.warning(
                "Kubernetes cluster of %s: node %s not drained in %ss "
                "(dead kubelet?); force-deleted: %s",
                self.task.instance["id"],
                vm.node_name,
                timeout,
                ", ".join(done.force_deleted) or "nothing",
            )
        return drain.metadata(vm.node_name, timeout, done)

    def provided(self, vim: dict[str, Any]) -> base.HookResult:
        """The cluster VIM for the conductor to register (hooks do not
        write the database)."""
        return base.HookResult(provided_vims={vim["vimId"]: vim})
