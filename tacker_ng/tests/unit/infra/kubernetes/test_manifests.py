"""Which objects, in which namespace and order; VDU -> workload."""

import pytest

from tacker_ng.infra.kubernetes import errors, manifests

FILES = "lcm-kubernetes-def-files"


def test_default_files_own_namespace_and_order(cnf, flavour):
    got = manifests.load(cnf.root, {}, flavour)
    assert got.namespace == "cnf-sample"
    assert got.files == [
        "Files/kubernetes/namespace.yaml",
        "Files/kubernetes/deployment.yaml",
    ]
    assert [str(r) for r in got.refs()] == [
        "Namespace cnf-sample",
        "Deployment cnf-sample/vdu1",
        "Deployment cnf-sample/vdu2",
    ]
    assert {k: w["metadata"]["name"] for k, w in got.vdus.items()} == {
        "VDU1": "vdu1",
        "VDU2": "vdu2",
    }


def test_requested_namespace_moves_the_cnf_and_its_namespace(cnf, flavour):
    got = manifests.load(
        cnf.root, {"additionalParams": {"namespace": "blue"}}, flavour
    )
    assert got.namespace == "blue"
    assert [str(r) for r in got.refs()] == [
        "Namespace blue",
        "Deployment blue/vdu1",
        "Deployment blue/vdu2",
    ]


def test_explicit_namespace_wins_over_request(cnf, flavour):
    request = {"additionalParams": {"namespace": "blue"}}
    got = manifests.load(cnf.root, request, flavour, namespace="kept")
    assert got.namespace == "kept"


def test_dependency_order(root, flavour):
    (root / "all.yaml").write_text(
        "\n---\n".join(
            f"apiVersion: v1\nkind: {kind}\nmetadata: {{name: {name}}}"
            for kind, name in [
                ("Deployment", "vdu1"),
                ("Service", "svc"),
                ("Deployment", "vdu2"),
                ("ConfigMap", "cm"),
                ("Widget", "custom"),
                ("Secret", "s"),
                ("Namespace", "ns"),
                ("RoleBinding", "rb"),
                ("ResourceQuota", "q"),
            ]
        )
    )
    got = manifests.load(
        root, {"additionalParams": {FILES: ["all.yaml"]}}, flavour
    )
    kinds = [r.kind for r in got.refs()]
    assert kinds == [
        "Namespace",
        "ResourceQuota",
        "RoleBinding",
        "Secret",
        "ConfigMap",
        "Service",
        "Widget",
        "Deployment",
        "Deployment",
    ]
    assert got.namespace == "default"
    assert {r.namespace for r in got.refs() if r.kind != "Namespace"} == {
        "default"
    }
    assert manifests.rank("Namespace") < manifests.rank("Deployment")


@pytest.mark.parametrize(
    "files,reason",
    [
        (["../../etc/passwd"], "is not in the package"),
        (["Files/kubernetes/none.yaml"], "is not in the package"),
        ([""], "is not a file path"),
        ([], "must list"),
        ("Files/kubernetes/deployment.yaml", "must list"),
        (["Files/kubernetes/namespace.yaml"], "no workload named vdu1"),
    ],
)
def test_bad_file_lists_are_422(cnf, flavour, files, reason):
    with pytest.raises(errors.InvalidManifest, match=reason) as exc:
        manifests.load(cnf.root, {"additionalParams": {FILES: files}}, flavour)
    assert exc.value.status == 422


def test_several_namespaces_refused(root, flavour):
    text = (root / "Files/kubernetes/deployment.yaml").read_text()
    path = root / "Files/kubernetes/deployment.yaml"
    path.write_text(text.replace("namespace: cnf-sample", "namespace: a", 1))
    with pytest.raises(errors.InvalidManifest, match="several namespaces"):
        manifests.load(root, {}, flavour)


@pytest.mark.parametrize(
    "text,reason",
    [
        ("kind: Pod\nmetadata: {name: p}", "needs apiVersion"),
        ("apiVersion: v1\nkind: Pod\nmetadata: {}", "needs apiVersion"),
        ("- a list", "needs apiVersion"),
        ("a: [unclosed", "bad.yaml"),
    ],
)
def test_malformed_manifest(root, flavour, text, reason):
    (root / "bad.yaml").write_text(text)
    request = {"additionalParams": {FILES: ["bad.yaml"]}}
    with pytest.raises(errors.InvalidManifest, match=reason):
        manifests.load(root, request, flavour)


def test_namespace_param_must_be_a_name(cnf, flavour):
    with pytest.raises(errors.InvalidManifest, match="must be a name"):
        manifests.load(
            cnf.root, {"additionalParams": {"namespace": 3}}, flavour
        )


def test_replicas():
    deployment = {"kind": "Deployment", "spec": {}}
    manifests.set_replicas(deployment, 4)
    assert manifests.replicas_of(deployment) == 4
    pod = {"kind": "Pod"}
    manifests.set_replicas(pod, 4)
    assert pod == {"kind": "Pod"}
    assert manifests.replicas_of(pod) == 1
    assert manifests.replicas_of({"kind": "DaemonSet"}) is None
    assert manifests.replicas_of({"kind": "StatefulSet", "spec": {}}) == 1
