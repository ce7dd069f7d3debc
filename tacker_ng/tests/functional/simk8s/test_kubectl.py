"""Debian's kubectl (1.20) against simk8s: get, apply, delete, label,
scale, cordon, drain, wait."""

from __future__ import annotations

import json

import pytest

from tacker_ng.tests.functional.fixtures.simk8s import kubectl_path

MANIFEST = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
data:
  mode: blue
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
"""


@pytest.fixture
def ns(simk8s):
    name = "kubectl-" + simk8s.state_dir.name[-6:].lower().replace("_", "x")
    simk8s.kubectl("create", "namespace", name)
    yield name
    simk8s.kubectl("delete", "namespace", name, "--wait=false")


def _json(sim, *args):
    return json.loads(sim.kubectl(*args, "-o", "json").stdout)


def test_kubectl_is_debians_1_20():
    from subprocess import run

    out = run(
        [kubectl_path(), "version", "--client", "--short"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "v1.20." in out


def test_apply_get_wait_label_scale_delete(simk8s, ns):
    applied = simk8s.kubectl("apply", "-n", ns, "-f", "-", stdin=MANIFEST)
    assert applied.stdout.split("\n")[:3] == [
        "configmap/web-config created",
        "deployment.apps/web created",
        "service/web created",
    ]
    simk8s.kubectl(
        "wait",
        "-n",
        ns,
        "--for=condition=Ready",
        "pod",
        "-l",
        "app=web",
        "--timeout=30s",
    )
    pods = _json(simk8s, "get", "pods", "-n", ns, "-l", "app=web")
    assert len(pods["items"]) == 2
    assert all(p["status"]["phase"] == "Running" for p in pods["items"])
    table = simk8s.kubectl("get", "pods", "-n", ns).stdout.splitlines()
    assert table[0].split()[:5] == [
        "NAME",
        "READY",
        "STATUS",
        "RESTARTS",
        "AGE",
    ]
    assert all(" 1/1 " in row and "Running" in row for row in table[1:])
    # a watch answered with server-side printed rows (kubectl get -w)
    watched = simk8s.kubectl(
        "get", "pods", "-n", ns, "-w", "--request-timeout=1s"
    ).stdout.splitlines()
    assert watched[0].split()[:3] == ["NAME", "READY", "STATUS"]
    assert sum(" Running " in row for row in watched[1:]) == 2
    # apply again with a change: a three-way strategic merge patch
    changed = MANIFEST.replace("mode: blue", "mode: green").replace(
        "image: nginx:1.25", "image: nginx:1.26"
    )
    again = simk8s.kubectl("apply", "-n", ns, "-f", "-", stdin=changed)
    assert "deployment.apps/web configured" in again.stdout
    assert "service/web unchanged" in again.stdout
    cm = _json(simk8s, "get", "configmap", "web-config", "-n", ns)
    assert cm["data"] == {"mode": "green"}
    assert (
        "kubectl.kubernetes.io/last-applied-configuration"
        in cm["metadata"]["annotations"]
    )
    simk8s.kubectl(
        "rollout", "status", "-n", ns, "deployment/web", "--timeout=30s"
    )
    rs = _json(simk8s, "get", "rs", "-n", ns)["items"]
    by_image = {
        r["spec"]["template"]["spec"]["containers"][0]["image"]: r["spec"][
            "replicas"
        ]
        for r in rs
    }
    assert by_image == {"nginx:1.25": 0, "nginx:1.26": 2}
    simk8s.kubectl("label", "-n", ns, "deployment/web", "tier=front")
    labels = _json(simk8s, "get", "deploy", "web", "-n", ns)["metadata"][
        "labels"
    ]
    assert labels == {"tier": "front"}
    simk8s.kubectl("scale", "-n", ns, "deployment/web", "--replicas=4")
    simk8s.kubectl(
        "wait",
        "-n",
        ns,
        "--for=condition=Available",
        "deployment/web",
        "--timeout=30s",
    )
    simk8s.kubectl(
        "rollout", "status", "-n", ns, "deployment/web", "--timeout=30s"
    )
    deploy = _json(simk8s, "get", "deploy", "web", "-n", ns)
    assert deploy["status"]["readyReplicas"] == 4
    deleted = simk8s.kubectl("delete", "-n", ns, "-f", "-", stdin=changed)
    assert 'deployment.apps "web" deleted' in deleted.stdout
    left = simk8s.kubectl(
        "get", "deploy,svc,cm", "-n", ns, "-o", "name"
    ).stdout.split()
    assert left == ["configmap/kube-root-ca.crt"]


def test_apply_of_an_invalid_manifest_is_refused(simk8s, ns):
    bad = MANIFEST.replace(
        "labels: {app: web}\n    spec:", "labels: {app: other}\n    spec:"
    )
    proc = simk8s.kubectl("apply", "-n", ns, "-f", "-", stdin=bad, check=False)
    assert proc.returncode != 0
    assert (
        'The Deployment "web" is invalid: spec.template.metadata.'
        "labels: Invalid value" in proc.stderr
    )


def test_get_missing_is_not_found(simk8s, ns):
    proc = simk8s.kubectl("get", "deploy", "nope", "-n", ns, check=False)
    assert proc.returncode == 1
    assert 'deployments.apps "nope" not found' in proc.stderr


def test_cordon_drain_ignore_daemonsets(simk8s_factory):
    sim = simk8s_factory("--nodes", "2")
    sim.kubectl(
        "apply",
        "-f",
        "-",
        stdin=MANIFEST.replace("replicas: 2", "replicas: 4"),
    )
    sim.kubectl(
        "apply",
        "-f",
        "-",
        stdin="""\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: agent:1}]
""",
    )
    sim.kubectl(
        "wait", "--for=condition=Ready", "pod", "--all", "--timeout=30s"
    )
    sim.kubectl("cordon", "node-0")
    node = _json(sim, "get", "node", "node-0")
    assert node["spec"]["unschedulable"] is True
    assert "SchedulingDisabled" in sim.kubectl("get", "node", "node-0").stdout
    on_node_1 = [
        p
        for p in _json(sim, "get", "pods", "-l", "app=web")["items"]
        if p["spec"]["nodeName"] == "node-1"
    ]
    assert on_node_1, "the scheduler spreads a Deployment's pods"
    drained = sim.kubectl(
        "drain", "node-1", "--ignore-daemonsets", "--timeout=60s"
    )
    # kubectl 1.20 ends a drain with "node/<name> evicted"
    assert drained.stdout.splitlines()[-1] == "node/node-1 evicted"
    assert drained.stdout.count(" evicted\n") == len(on_node_1) + 1
    assert "ignoring DaemonSet-managed Pods: default/agent-" in drained.stderr
    # the web pods left node-1 and found no room but node-0: cordoned too
    pods = _json(sim, "get", "pods", "-l", "app=web")["items"]
    assert all(p["spec"].get("nodeName") != "node-1" for p in pods)
    pending = [p for p in pods if p["status"]["phase"] == "Pending"]
    assert pending, "evicted pods must wait for an uncordoned node"
    cond = next(
        c
        for c in pending[0]["status"]["conditions"]
        if c["type"] == "PodScheduled"
    )
    assert cond["reason"] == "Unschedulable"
    assert cond["message"].startswith(
        "0/2 nodes are available: 2 node(s) were unschedulable."
    )
    agents = _json(sim, "get", "pods", "-l", "app=agent")["items"]
    assert sorted(p["spec"]["nodeName"] for p in agents) == [
        "node-0",
        "node-1",
    ]
    sim.kubectl("uncordon", "node-0")
    sim.kubectl(
        "wait",
        "--for=condition=Ready",
        "pod",
        "-l",
        "app=web",
        "--timeout=30s",
    )
    pods = _json(sim, "get", "pods", "-l", "app=web")["items"]
    assert {p["spec"]["nodeName"] for p in pods} == {"node-0"}


STORED_KINDS = """\
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {pods: "10", requests.cpu: "4"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec: {limits: [{type: Container, default: {cpu: 500m}}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: default}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny}
spec: {podSelector: {}, policyTypes: [Ingress]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
"""


def test_stored_kinds_for_cnf_manifests(simk8s, ns):
    out = simk8s.kubectl("apply", "-n", ns, "-f", "-", stdin=STORED_KINDS)
    assert out.stdout.split() == [
        "resourcequota/q",
        "created",
        "limitrange/lr",
        "created",
        "role.rbac.authorization.k8s.io/reader",
        "created",
        "rolebinding.rbac.authorization.k8s.io/reader",
        "created",
        "networkpolicy.networking.k8s.io/deny",
        "created",
        "poddisruptionbudget.policy/pdb",
        "created",
    ]
    quota = _json(simk8s, "get", "quota", "q", "-n", ns)
    assert quota["status"]["hard"] == {"pods": "10", "requests.cpu": "4"}
    bad = STORED_KINDS.split("---")[3].replace("roleRef", "roleRefs")
    proc = simk8s.kubectl(
        "create",
        "-n",
        ns,
        "-f",
        "-",
        "--save-config",
        stdin=bad.replace("name: reader}", "name: r2}", 1),
        check=False,
    )
    assert proc.returncode != 0
    assert "roleRef: Required value" in proc.stderr
