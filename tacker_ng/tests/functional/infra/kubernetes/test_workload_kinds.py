"""VDUs that are a bare Pod and a StatefulSet (behind a headless
Service), driven through the driver on the simulator: names, heal that
re-creates a bare Pod or gets a StatefulSet pod back under its name,
scale of the StatefulSet, no scale of a Pod, terminate."""

from __future__ import annotations

import pytest

from tacker_ng.infra.kubernetes import errors
from tacker_ng.tests.functional.fixtures import simk8s as sim_fixture
from tacker_ng.tests.functional.infra.kubernetes import cnf, direct

Op = direct.Op
MANIFEST = """\
apiVersion: v1
kind: Pod
metadata:
  name: vdu1
  namespace: cnf-sample
  labels: {app: web}
spec:
  containers:
    - name: web
      image: nginx:1.27
---
apiVersion: v1
kind: Service
metadata:
  name: store
  namespace: cnf-sample
spec:
  clusterIP: None
  selector: {app: store}
  ports:
    - port: 6379
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: vdu2
  namespace: cnf-sample
spec:
  serviceName: store
  replicas: 2
  selector:
    matchLabels: {app: store}
  template:
    metadata:
      labels: {app: store}
    spec:
      containers:
        - name: redis-server
          image: redis:7.2-alpine
"""
VARIANT_ID = "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b33"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kinds")
    marker = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vdu1"
    data = cnf.variant(tmp, VARIANT_ID)
    pkg = direct.extract(data, tmp / "pkg")
    path = pkg.root / "Files/kubernetes/deployment.yaml"
    assert marker in path.read_text()
    path.write_text(MANIFEST)
    return pkg


def pods(sim) -> dict:
    core = cnf.k8s.CoreV1Api(sim.api_client())
    return {
        p.metadata.name: p.metadata.uid
        for p in core.list_namespaced_pod("kinds").items
        if not p.metadata.deletion_timestamp
    }


def test_pod_and_statefulset_vdus(simk8s, package):
    vnf = direct.DriverVnf(simk8s, package)
    request = {
        "flavourId": "simple",
        "additionalParams": {"namespace": "kinds"},
    }
    vnf.run(Op.INSTANTIATE, request)
    kinds = {
        n: v["computeResource"]["vimLevelResourceType"]
        for n, v in vnf.vnfcs().items()
    }
    assert kinds == {
        "vdu1": "Pod",
        "vdu2-0": "StatefulSet",
        "vdu2-1": "StatefulSet",
    }
    refs = vnf.instance["instantiatedVnfInfo"]["metadata"][
        "kubernetesResources"
    ]
    assert [r["kind"] for r in refs] == [
        "Namespace",
        "Service",
        "Pod",
        "StatefulSet",
    ]
    before = pods(simk8s)

    result = vnf.run(Op.HEAL, {"vnfcInstanceId": ["vdu1", "vdu2-0"]})
    changes = {
        (c["id"], c["changeType"])
        for c in result.resource_changes["affectedVnfcs"]
    }
    assert changes == {("vdu1", "MODIFIED"), ("vdu2-0", "MODIFIED")}
    after = pods(simk8s)
    assert set(after) == set(before)
    assert after["vdu1"] != before["vdu1"]
    assert after["vdu2-0"] != before["vdu2-0"]
    assert after["vdu2-1"] == before["vdu2-1"]

    vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})
    assert set(vnf.vnfcs()) == {"vdu1", "vdu2-0", "vdu2-1", "vdu2-2"}
    assert set(pods(simk8s)) == set(vnf.vnfcs())
    with pytest.raises(errors.InvalidManifest, match="is a Pod"):
        vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "vdu1_aspect"})

    result = vnf.run(Op.TERMINATE, {"terminationType": "FORCEFUL"})
    assert len(result.resource_changes["affectedVnfcs"]) == 4
    core = cnf.k8s.CoreV1Api(simk8s.api_client())
    names = {n.metadata.name for n in core.list_namespace().items}
    assert "kinds" not in names


def test_terminate_gives_pods_the_requested_grace(simk8s_factory, tmp_path):
    """Pods here take their grace period to go, at most 10 s; their own is
    30 s. A GRACEFUL terminate with gracefulTerminationTimeout 1 ends
    in well under 10 s: the pods were deleted with 1 s, not by the garbage
    collector with their own (a FORCEFUL one would use 0)."""
    sim = simk8s_factory(*sim_fixture.ZONES, "--terminate-delay", "10")
    package = direct.extract(
        cnf.builder.build_csar_bytes(cnf.SAMPLE), tmp_path / "pkg"
    )
    vnf = direct.DriverVnf(sim, package)
    vnf.run(Op.INSTANTIATE, {"flavourId": "simple"})
    assert len(vnf.vnfcs()) == 3
    vnf.run(
        Op.TERMINATE,
        {"terminationType": "GRACEFUL", "gracefulTerminationTimeout": 1},
    )
    timing = vnf.driver.last_timing
    assert 1.0 <= timing["total_s"] < 7.0, timing
    core = cnf.k8s.CoreV1Api(sim.api_client())
    assert not core.list_pod_for_all_namespaces(label_selector="app").items


def test_deleted_objects_come_back_with_a_heal(simk8s, package):
    """The headless Service, the StatefulSet (scaled out to 3) and the
    bare Pod deleted behind the VNFM's back: a heal of one StatefulSet
    VNFC re-creates all three from the package, the StatefulSet at its
    3 replicas; its pods come back under their names (MODIFIED)."""
    vnf = direct.DriverVnf(simk8s, package)
    namespace = "kinds-gone"
    request = {
        "flavourId": "simple",
        "additionalParams": {"namespace": namespace},
    }
    vnf.run(Op.INSTANTIATE, request)
    vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})
    names = {"vdu1", "vdu2-0", "vdu2-1", "vdu2-2"}
    assert set(vnf.vnfcs()) == names
    core = cnf.k8s.CoreV1Api(simk8s.api_client())
    apps = cnf.k8s.AppsV1Api(simk8s.api_client())
    service = core.read_namespaced_service("store", namespace)
    for kind, name in (
        ("service", "store"),
        ("statefulset", "vdu2"),
        ("pod", "vdu1"),
    ):
        simk8s.kubectl("delete", kind, name, "-n", namespace)
    with pytest.raises(errors.WorkloadGone, match="heal the VNF first"):
        # What an operation other than heal meets: a 409 saying so.
        vnf.run(Op.SCALE, {"type": "SCALE_IN", "aspectId": "vdu2_aspect"})

    result = vnf.run(Op.HEAL, {"vnfcInstanceId": ["vdu2-0"]})
    assert {
        (c["id"], c["changeType"])
        for c in result.resource_changes["affectedVnfcs"]
    } == {(n, "MODIFIED") for n in names}
    assert set(vnf.vnfcs()) == names
    again = core.read_namespaced_service("store", namespace)
    assert again.metadata.uid != service.metadata.uid
    assert again.spec.selector == service.spec.selector
    assert again.spec.cluster_ip == "None"
    assert (
        apps.read_namespaced_stateful_set("vdu2", namespace).spec.replicas == 3
    )
    live = {
        p.metadata.name
        for p in core.list_namespaced_pod(namespace).items
        if not p.metadata.deletion_timestamp
    }
    assert live == names
    progress = vnf.last.progress["recreated"]
    assert [(r["kind"], r["name"]) for r in progress] == [
        ("Service", "store"),
        ("Pod", "vdu1"),
        ("StatefulSet", "vdu2"),
    ]
    vnf.run(Op.TERMINATE, {"terminationType": "FORCEFUL"})
