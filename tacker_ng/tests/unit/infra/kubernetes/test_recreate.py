"""What a heal re-creates of a CNF: the package's objects the CNF owns,
as instantiate rendered them, at the replica counts the instance records."""

from tacker_ng.infra.kubernetes import info, manifests, recreate
from tacker_ng.infra.kubernetes.kube import ObjectRef
from tacker_ng.infra.kubernetes.state import CnfState

FILES = ["Files/kubernetes/namespace.yaml", "Files/kubernetes/deployment.yaml"]


def _rendered(cnf, flavour, namespace="cnf-blue"):
    request = {"additionalParams": {manifests.FILES_KEY: FILES}}
    return manifests.load(cnf.root, request, flavour, namespace)


def _instance(counts):
    vnfcs = [
        {"id": f"{vdu.lower()}-{i}", "vduId": vdu}
        for vdu, n in counts.items()
        for i in range(n)
    ]
    return {"instantiatedVnfInfo": {"vnfcResourceInfo": vnfcs}}


def test_owned_objects_in_apply_order_at_the_recorded_counts(cnf, flavour):
    manifest = _rendered(cnf, flavour)
    state = CnfState.of(manifest)
    # Scaled out: VDU2 at 3 pods, not the instantiation level's 2.
    counts = recreate.recorded_counts(_instance({"VDU1": 1, "VDU2": 3}))
    assert counts == {"VDU1": 1, "VDU2": 3}
    bodies = recreate.desired_bodies(manifest, state, counts)
    assert [(b["kind"], b["metadata"]["name"]) for b in bodies] == [
        ("Namespace", "cnf-blue"),
        ("Deployment", "vdu1"),
        ("Deployment", "vdu2"),
    ]
    vdu1, vdu2 = bodies[1], bodies[2]
    assert vdu1["spec"]["replicas"] == 1
    assert vdu2["spec"]["replicas"] == 3
    # As instantiate made them: the CNF's namespace, the package's labels.
    assert vdu2["metadata"]["namespace"] == "cnf-blue"
    assert vdu2["spec"]["template"]["metadata"]["labels"] == {"app": "store"}
    # Copies: the rendered manifest is not changed.
    assert manifest.vdus["VDU2"]["spec"]["replicas"] == 2


def test_objects_the_cnf_does_not_own_are_not_recreated(cnf, flavour):
    manifest = _rendered(cnf, flavour)
    state = CnfState.of(manifest)
    # The namespace existed before instantiate: used, never owned.
    state.objects = [r for r in state.objects if r.kind != "Namespace"]
    bodies = recreate.desired_bodies(manifest, state, {"VDU1": 2})
    assert [b["kind"] for b in bodies] == ["Deployment", "Deployment"]
    # A VDU with no recorded VNFC gets no pod (as instantiate would).
    assert [b["spec"]["replicas"] for b in bodies] == [2, 0]


def test_recreated_vdus_from_the_progress(cnf, flavour):
    state = CnfState.of(_rendered(cnf, flavour))
    assert recreate.recreated_vdus(state, {}) == set()
    progress = {
        recreate.PROGRESS_KEY: [
            ObjectRef("v1", "Namespace", "cnf-blue").to_dict(),
            state.vdus["VDU2"].to_dict(),
        ]
    }
    assert recreate.recreated_vdus(state, progress) == {"VDU2"}


def test_recorded_counts_of_an_instance_without_vnfcs():
    assert recreate.recorded_counts({}) == {}
    assert info.vnfcs_of({"instantiatedVnfInfo": None}) == []
