"""Per-flavour artifacts: BaseHOT, user data, Kubernetes manifests."""

import shutil

import pytest
import yaml

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.parser import load_vnfd
from tacker_ng.tests.unit.packages import helpers

HEAT = "heat_vdu_affinity"
HEAT_DF = "Definitions/heat_vdu_affinity_df_simple.yaml"
HEAT_ENTRY = "Definitions/heat_vdu_affinity_top.vnfd.yaml"
CNF = "cnf_deployment"
CNF_ENTRY = "Definitions/cnf_deployment.vnfd.yaml"


@pytest.fixture
def copy_sample(tmp_path):
    def _copy(name):
        root = tmp_path / name
        shutil.copytree(helpers.SAMPLES / name, root)
        return root

    return _copy


def edit_yaml(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data))


def vnf_params(data):
    vnf = data["topology_template"]["node_templates"]["VNF"]
    instantiate = vnf["interfaces"]["Vnflcm"]["instantiate"]
    return instantiate["inputs"]["additional_parameters"]


def refuse(root, entry):
    with pytest.raises(InvalidVnfd) as info:
        load_vnfd(root, entry)
    return info.value


def test_missing_nested_template(copy_sample):
    root = copy_sample(HEAT)
    (root / "BaseHOT/simple/nested/VDU2.yaml").unlink()
    error = refuse(root, HEAT_ENTRY)
    assert error.file == "BaseHOT/simple/heat_vdu_affinity.hot.yaml"
    assert error.node == "VDU2"
    assert error.problem == (
        "nested template VDU2.yaml is not in BaseHOT/simple/nested/"
    )


def test_two_top_templates(copy_sample):
    root = copy_sample(HEAT)
    shutil.copy(
        root / "BaseHOT/simple/heat_vdu_affinity.hot.yaml",
        root / "BaseHOT/simple/other.yaml",
    )
    error = refuse(root, HEAT_ENTRY)
    assert "BaseHOT/simple/ has several top templates" in error.problem


def test_top_template_that_is_not_heat(copy_sample):
    root = copy_sample(HEAT)
    (root / "BaseHOT/simple/heat_vdu_affinity.hot.yaml").write_text("a: 1\n")
    error = refuse(root, HEAT_ENTRY)
    assert error.file == "BaseHOT/simple/heat_vdu_affinity.hot.yaml"
    assert "not a Heat template" in error.problem


def test_standard_user_data_needs_a_resource_per_vdu(copy_sample):
    root = copy_sample(HEAT)
    hot = root / "BaseHOT/simple/heat_vdu_affinity.hot.yaml"
    edit_yaml(hot, lambda data: data["resources"].pop("VDU2"))
    error = refuse(root, HEAT_ENTRY)
    assert (error.file, error.node) == (HEAT_DF, "VDU2")
    assert "no resource named VDU2" in error.problem


def test_user_data_class_must_exist(copy_sample):
    root = copy_sample(HEAT)
    edit_yaml(
        root / HEAT_DF,
        lambda d: vnf_params(d).update(
            {"lcm-operation-user-data-class": "FancyUserData"}
        ),
    )
    error = refuse(root, HEAT_ENTRY)
    assert error.file == "UserData/userdata_standard.py"
    assert error.problem == (
        "no class FancyUserData in UserData/userdata_standard.py"
    )


def test_user_data_file_must_exist(copy_sample):
    root = copy_sample(HEAT)
    edit_yaml(
        root / HEAT_DF,
        lambda d: vnf_params(d).update(
            {"lcm-operation-user-data": "./UserData/gone.py"}
        ),
    )
    error = refuse(root, HEAT_ENTRY)
    assert error.file == HEAT_DF
    assert "./UserData/gone.py is not in the package" in error.problem


def test_user_data_outside_package(copy_sample):
    root = copy_sample(HEAT)
    edit_yaml(
        root / HEAT_DF,
        lambda d: vnf_params(d).update(
            {"lcm-operation-user-data": "../../evil.py"}
        ),
    )
    assert "outside the package" in refuse(root, HEAT_ENTRY).problem


def test_user_data_needs_both_keys(copy_sample):
    root = copy_sample(HEAT)
    edit_yaml(
        root / HEAT_DF,
        lambda d: vnf_params(d).pop("lcm-operation-user-data-class"),
    )
    assert "go together" in refuse(root, HEAT_ENTRY).problem


def test_user_data_not_python(copy_sample):
    root = copy_sample(HEAT)
    (root / "UserData/userdata_standard.py").write_text("class (:\n")
    error = refuse(root, HEAT_ENTRY)
    assert error.file == "UserData/userdata_standard.py"
    assert "not valid Python" in error.problem


def test_cnf_vdu_without_workload(copy_sample):
    root = copy_sample(CNF)
    edit_yaml(
        root / CNF_ENTRY,
        lambda d: d["topology_template"]["node_templates"]["VDU2"][
            "properties"
        ].update(name="vdu3"),
    )
    error = refuse(root, CNF_ENTRY)
    assert (error.file, error.node) == (CNF_ENTRY, "VDU2")
    assert "VDU name 'vdu3' matches no Kubernetes workload" in error.problem


def test_cnf_declared_manifest_missing(copy_sample):
    root = copy_sample(CNF)
    (root / "Files/kubernetes/namespace.yaml").unlink()
    error = refuse(root, CNF_ENTRY)
    assert "Files/kubernetes/namespace.yaml is not in the package" in (
        error.problem
    )


def test_cnf_manifest_object_without_name(copy_sample):
    root = copy_sample(CNF)
    (root / "Files/kubernetes/namespace.yaml").write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {}\n"
    )
    error = refuse(root, CNF_ENTRY)
    assert error.file == "Files/kubernetes/namespace.yaml"
    assert "without kind or metadata.name" in error.problem


def test_cnf_manifests_default_to_files_kubernetes(copy_sample):
    root = copy_sample(CNF)
    edit_yaml(
        root / CNF_ENTRY,
        lambda d: d["topology_template"]["node_templates"]["VNF"].pop(
            "interfaces"
        ),
    )
    flavour = load_vnfd(root, CNF_ENTRY).flavour("simple")
    assert flavour.kubernetes_manifests == (
        "Files/kubernetes/deployment.yaml",
        "Files/kubernetes/namespace.yaml",
    )
    assert [r.name for r in flavour.kubernetes_resources] == [
        "vdu1",
        "vdu2",
        "cnf-sample",
    ]
