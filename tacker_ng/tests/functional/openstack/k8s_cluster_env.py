"""The k8s_cluster sample and its MgmtDriver on minicloud, simk8s, VMs.

Each operation runs like the conductor's flow: grant, ``<op>_start`` hook,
the real OpenStack driver on real Heat/Nova, then - the servers "boot":
every ACTIVE server gets its body (tools/testvms/bodies.py: netns with the
fixed IP, real sshd with the host key from its user data, kubeadm
stand-in) - and the ``<op>_end`` hook on the instance the driver left.
The hooks are the installed MgmtDriver's (entry point), unchanged; what
they return for the conductor to record (the cluster VIM) is kept in
``hook_results``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tacker_ng.infra import base
from tacker_ng.mgmt import base as mgmt
from tacker_ng.tests.functional.fixtures import simk8s as simk8s_fx
from tacker_ng.tests.functional.openstack import env, k8s_env
from tools.testvms import bodies as vm_bodies

DRIVER = "kubernetes_cluster_mgmt"


@dataclasses.dataclass
class Login:
    username: str
    private_key: str
    public_key: str

    def params(self, **extra: Any) -> dict[str, Any]:
        return {
            "k8sCluster": {
                "ssh": {
                    "username": self.username,
                    "privateKey": self.private_key,
                },
                **extra,
            }
        }


def new_login() -> Login:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "k"
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
            check=True,
        )
        return Login(
            "tngssh",
            path.read_text(),
            path.with_suffix(".pub").read_text().strip(),
        )


@contextlib.contextmanager
def k8s_world(login: Login) -> Iterator[tuple[Any, vm_bodies.Bodies]]:
    """simk8s (no nodes) on an address the VM bodies reach, and the bodies."""
    api = vm_bodies.ApiAddress.create()
    try:
        with simk8s_fx.running("--nodes", "0", "--bind", api.address) as sim:
            kubeconfig = vm_bodies.vm_kubeconfig(
                Path(sim.kubeconfig).read_text(), sim.ca_path, sim.endpoint
            )
            bodies = vm_bodies.Bodies(api, kubeconfig, login.public_key)
            try:
                yield sim, bodies
            finally:
                bodies.destroy()
    finally:
        api.destroy()


class ClusterVnf(k8s_env.ZonelessVnf):
    """A VNF of the sample whose VIM user sees servers' compute hosts
    (admin: ``OS-EXT-SRV-ATTR:host`` is admin-only in Nova's policy)."""

    def __init__(self, cloud, package, bodies: vm_bodies.Bodies) -> None:
        super().__init__(cloud, package)
        auth = cloud.admin_auth
        vim = self.instance["vimConnectionInfo"]["vim1"]
        vim["accessInfo"].update(
            username=auth["username"],
            password=auth["password"],
            project=auth["project_name"],
            projectDomain=auth["project_domain_name"],
            userDomain=auth["user_domain_name"],
        )
        self.bodies = bodies
        self.progress: dict[str, Any] = {}
        #: Hook name -> the HookResult it returned in the last operation.
        self.hook_results: dict[str, mgmt.HookResult | None] = {}
        #: Called between the ``<op>_start`` hook and the infra driver (a
        #: test looks at what the start hook left).
        self.after_start: Callable[[], None] | None = None

    def hook(self, task: base.LcmTask, suffix: str) -> None:
        prefix = mgmt.HOOK_PREFIX[str(task.operation)]
        name = f"{prefix}_{suffix}"
        hooks = task.vnfd.flavour(task.flavour_id).lcm_operations
        if name in hooks:
            driver = mgmt.get_driver(mgmt.driver_name(hooks[name].artifact))
            self.hook_results[name] = driver.run_hook(
                name, task, hooks[name].artifact
            )

    def boot(self) -> None:
        """Give every ACTIVE server of this VNF a body (and drop the
        bodies of servers that are gone)."""
        nova = self.cloud.nova(admin=True)
        ids = {
            v["computeResource"]["resourceId"] for v in self.vnfcs().values()
        }
        servers = [nova.servers.get(i) for i in ids]
        self.bodies.sync(servers)

    def lcm(self, op: env.Op, request: dict[str, Any]) -> base.LcmResult:
        task = self.task(op, request)
        self.progress = task.progress
        self.hook_results = {}
        self.last = {"task": task, "progress": task.progress}
        self.hook(task, "start")
        if self.after_start is not None:
            self.after_start()
        result = getattr(self.driver, base.METHODS[op])(task)
        self.last["result"] = result
        if op == env.Op.TERMINATE:
            self.instance.pop("instantiatedVnfInfo", None)
            self.bodies.sync([])
            return result
        if result.instantiated_vnf_info is not None:
            self.instance["instantiatedVnfInfo"] = result.instantiated_vnf_info
            self.instance["instantiationState"] = "INSTANTIATED"
        self.boot()
        instance = dict(task.instance)
        instance["instantiatedVnfInfo"] = self.instance["instantiatedVnfInfo"]
        self.hook(dataclasses.replace(task, instance=instance), "end")
        return result

    def node_of(self, vnfc_name: str) -> str:
        """The node name of a VNFC: its resource name (``workerNode-1``),
        lowercased (server names repeat: every worker is "workerNode")."""
        return vnfc_name.lower().replace("_", "-")

    def host_of(self, vnfc_name: str) -> str:
        nova = self.cloud.nova(admin=True)
        vnfc = self.vnfcs()[vnfc_name]
        server = nova.servers.get(vnfc["computeResource"]["resourceId"])
        return getattr(server, "OS-EXT-SRV-ATTR:host")
