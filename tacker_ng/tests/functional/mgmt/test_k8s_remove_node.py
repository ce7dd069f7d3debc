"""The k8s_cluster sample's ``remove_node.sh``: a drain in bounded time.

The script runs here as it runs on a master (``sh``, Debian's kubectl)
against simk8s. A node whose kubelet is dead (simk8s fault) never
confirms an eviction: the drain gives up after the eviction timeout, the
pods left on the node are force-deleted and named on stdout (the
MgmtDriver reports them in the op occ), DaemonSet pods are left to the
pod GC, and the node is deleted. A live node is drained without force.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from kubernetes import client

from tacker_ng.mgmt.kubernetes_cluster import drain
from tacker_ng.tests.functional.fixtures.simk8s import kubectl_path
from tacker_ng.tests.functional.simk8s.conftest import (
    deployment,
    pod_ready,
    wait_list,
)

SCRIPT = (
    Path(__file__).resolve().parents[4]
    / "samples/vnf_packages/k8s_cluster/Scripts/remove_node.sh"
)
DAEMONSET = {
    "apiVersion": "apps/v1",
    "kind": "DaemonSet",
    "metadata": {"name": "agent"},
    "spec": {
        "selector": {"matchLabels": {"app": "agent"}},
        "template": {
            "metadata": {"labels": {"app": "agent"}},
            "spec": {"containers": [{"name": "a", "image": "agent:1"}]},
        },
    },
}


def _remove(sim, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run the script like a master does (kubectl with the cluster's
    kubeconfig); (the process, seconds it took)."""
    bin_dir = sim.state_dir / "bin"
    bin_dir.mkdir(exist_ok=True)
    link = bin_dir / "kubectl"
    if not link.exists():
        link.symlink_to(kubectl_path())
    env = dict(
        os.environ,
        KUBECONFIG=sim.kubeconfig,
        HOME=str(sim.state_dir),
        PATH=f"{bin_dir}:/usr/bin:/bin",
    )
    started = time.monotonic()
    proc = subprocess.run(
        ["sh", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    return proc, time.monotonic() - started


def _on(core, node: str) -> set[str]:
    pods = core.list_pod_for_all_namespaces(
        field_selector=f"spec.nodeName={node}"
    ).items
    return {f"{p.metadata.namespace}/{p.metadata.name}" for p in pods}


def _nodes(core) -> set[str]:
    return {n.metadata.name for n in core.list_node().items}


def test_dead_kubelet_drain_is_bounded_then_forced(simk8s_factory):
    sim = simk8s_factory("--nodes", "3")
    with sim.api_client() as api_client:
        core = client.CoreV1Api(api_client)
        apps = client.AppsV1Api(api_client)
        apps.create_namespaced_deployment("default", deployment("web", 6))
        apps.create_namespaced_daemon_set("default", DAEMONSET)
        wait_list(
            core.list_namespaced_pod,
            lambda ps: len(ps) == 9 and all(map(pod_ready, ps)),
            namespace="default",
        )
        agents = {
            f"default/{p.metadata.name}"
            for p in core.list_namespaced_pod(
                "default", label_selector="app=agent"
            ).items
        }

        # A live node: drained (evicted, pods recreated elsewhere), no
        # force.
        proc, took = _remove(sim, "node-2", "30")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert drain.outcome(proc.stdout) == drain.Outcome("EVICTED", ())
        assert "node-2" not in _nodes(core)
        wait_list(
            core.list_namespaced_pod,
            lambda ps: len([p for p in ps if pod_ready(p)]) == 8,
            namespace="default",
        )
        victims = _on(core, "node-0") - agents
        assert victims

        # A dead kubelet: its evicted pods stay Terminating; after the
        # eviction timeout they are force-deleted, the node deleted.
        sim.control.kubelet("node-0", running=False)
        proc, took = _remove(sim, "node-0", "3")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        outcome = drain.outcome(proc.stdout)
        assert outcome.result == "FORCED"
        assert set(outcome.force_deleted) == victims
        assert 3.0 <= took < 15.0, took
        assert not _on(core, "node-0") - agents
        assert "node-0" not in _nodes(core)
        # The Deployment is whole again on the node left.
        pods = wait_list(
            core.list_namespaced_pod,
            lambda ps: len([p for p in ps if pod_ready(p)]) == 7,
            namespace="default",
        )
        assert {p.spec.node_name for p in pods} == {"node-1"}


def test_absent_node_and_bad_timeout(simk8s_factory):
    sim = simk8s_factory("--nodes", "1")
    proc, _ = _remove(sim, "node-9", "5")
    assert proc.returncode == 0, proc.stderr
    assert "nothing to remove" in proc.stdout
    assert drain.outcome(proc.stdout) is None
    proc, _ = _remove(sim, "node-0", "5s")
    assert proc.returncode == 2
    assert "whole number of seconds" in proc.stderr
