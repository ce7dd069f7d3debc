"""The VNFD model of each sample package, asserted field by field."""

import io

import pytest

from tacker_ng.objects import vnfd as model
from tacker_ng.packages.csar import extract_csar, load_csar
from tacker_ng.tests.unit.packages import helpers

GiB = 1024**3
MiB = 1024**2


@pytest.fixture(scope="module")
def onboard(tmp_path_factory):
    cache = {}

    def _onboard(name):
        if name not in cache:
            dest = tmp_path_factory.mktemp("store") / name
            data = helpers.sample_csar(name)
            cache[name] = extract_csar(io.BytesIO(data), dest)
        return cache[name]

    return _onboard


# -- heat_vdu_affinity ----------------------------------------------------


def test_heat_package_contents(onboard):
    contents = onboard("heat_vdu_affinity")
    assert contents.entry_definitions == (
        "Definitions/heat_vdu_affinity_top.vnfd.yaml"
    )
    assert contents.tosca_meta.entry_manifest == "heat_vdu_affinity.mf"
    assert contents.manifest.metadata["vnf_product_name"] == (
        "Heat VDU affinity sample"
    )
    hashed = {e.source for e in contents.manifest.entries}
    assert hashed == set(contents.files) - {"heat_vdu_affinity.mf"}
    assert all(e.algorithm == "SHA-256" for e in contents.manifest.entries)


def test_heat_vnfd_product(onboard):
    vnfd = onboard("heat_vdu_affinity").vnfd
    assert vnfd.descriptor_id == "6a6a3d4e-58b3-4f0c-9a0e-0e2a7f1f0a01"
    assert vnfd.descriptor_version == "1.0.0"
    assert vnfd.provider == "tacker-ng"
    assert vnfd.product_name == "Heat VDU affinity sample"
    assert vnfd.software_version == "1.0.0"
    assert vnfd.vnfm_info == ("Tacker",)
    assert vnfd.vnf_node_type == "tacker_ng.samples.HeatVduAffinityVnf"
    assert vnfd.definitions_files == (
        "Definitions/heat_vdu_affinity_types.yaml",
        "Definitions/heat_vdu_affinity_df_simple.yaml",
        "Definitions/heat_vdu_affinity_df_internal_vl.yaml",
        "Definitions/heat_vdu_affinity_top.vnfd.yaml",
    )
    assert sorted(vnfd.flavours) == ["internal_vl", "simple"]


def test_heat_simple_flavour(onboard):
    flavour = onboard("heat_vdu_affinity").vnfd.flavour("simple")
    assert flavour.flavour_id == "simple"
    assert flavour.flavour_description == (
        "VDU1 with zone affinity, VDU2 with zone anti-affinity"
    )
    assert flavour.file == "Definitions/heat_vdu_affinity_df_simple.yaml"
    assert flavour.vnf_node_name == "VNF"
    assert sorted(flavour.vdus) == ["VDU1", "VDU2"]
    assert sorted(flavour.vdu_cps) == ["VDU1_CP1", "VDU2_CP1"]
    assert flavour.virtual_links == {}
    assert flavour.virtual_storages == {}
    assert flavour.lcm_operations == {}
    assert flavour.mgmt_driver_artifacts == ()
    assert flavour.substitution_requirements == {
        "virtual_link_external1": ("VDU1_CP1", "virtual_link"),
        "virtual_link_external2": ("VDU2_CP1", "virtual_link"),
    }
    assert flavour.additional_parameters == {
        "lcm-operation-user-data": "./UserData/userdata_standard.py",
        "lcm-operation-user-data-class": "StandardUserData",
    }
    assert flavour.user_data == model.UserData(
        file="UserData/userdata_standard.py", class_name="StandardUserData"
    )
    assert flavour.kubernetes_manifests == ()
    assert flavour.kubernetes_resources == ()
    assert flavour.other_policies == ()


def test_heat_vdu1(onboard):
    vdu = onboard("heat_vdu_affinity").vnfd.flavour("simple").vdus["VDU1"]
    assert vdu.node_name == "VDU1"
    assert vdu.name == "VDU1"
    assert vdu.description == "VDU1 compute node; all VNFCs in one zone"
    assert vdu.vdu_profile == model.VduProfile(1, 3)
    assert vdu.virtual_compute == model.VirtualCompute(
        virtual_cpu=model.VirtualCpu(num_virtual_cpu=1),
        virtual_memory=model.VirtualMemory(virtual_mem_size=512 * MiB),
        virtual_local_storage=(1 * GiB,),
        requested_additional_capabilities={
            "flavour": {
                "requested_additional_capability_name": "m1.tiny",
                "support_mandatory": True,
                "target_performance_parameters": {},
            }
        },
    )
    image = vdu.sw_image_data
    assert image.name == "cirros-0.6.2-x86_64-disk"
    assert image.version == "0.6.2"
    assert image.checksum.algorithm == "sha-256"
    assert len(image.checksum.hash) == 64
    assert (image.container_format, image.disk_format) == ("bare", "qcow2")
    assert (image.min_disk, image.min_ram, image.size) == (
        1 * GiB,
        256 * MiB,
        21 * 1000**2,
    )
    assert image.file is None
    assert vdu.cps == ("VDU1_CP1",)
    assert vdu.virtual_storages == ()
    assert vdu.initial_delta == 1
    assert vdu.aspect_deltas == {"VDU1_scale": {"delta_1": 1}}
    assert vdu.instantiation_levels == {
        "instantiation_level_1": 1,
        "instantiation_level_2": 3,
    }


def test_heat_vdu2_and_cps(onboard):
    flavour = onboard("heat_vdu_affinity").vnfd.flavour("simple")
    vdu = flavour.vdus["VDU2"]
    assert vdu.vdu_profile == model.VduProfile(2, 4)
    assert vdu.virtual_compute.virtual_memory.virtual_mem_size == 2 * GiB
    assert vdu.virtual_compute.virtual_local_storage == (20 * GiB,)
    assert vdu.initial_delta == 2
    assert vdu.aspect_deltas == {"VDU2_scale": {"delta_1": 1}}
    assert vdu.instantiation_levels == {
        "instantiation_level_1": 2,
        "instantiation_level_2": 4,
    }
    cp = flavour.vdu_cps["VDU2_CP1"]
    assert cp == model.VduCp(
        node_name="VDU2_CP1",
        layer_protocols=("ipv4",),
        virtual_binding="VDU2",
        virtual_link=None,
        order=0,
    )


def test_heat_scaling_and_levels(onboard):
    flavour = onboard("heat_vdu_affinity").vnfd.flavour("simple")
    assert flavour.scaling_aspects == {
        "VDU1_scale": model.ScalingAspect(
            "VDU1_scale", "VDU1_scale", "VDU1 scaling aspect", 2, ("delta_1",)
        ),
        "VDU2_scale": model.ScalingAspect(
            "VDU2_scale", "VDU2_scale", "VDU2 scaling aspect", 2, ("delta_1",)
        ),
    }
    assert flavour.instantiation_levels == {
        "instantiation_level_1": model.InstantiationLevel(
            "instantiation_level_1",
            "Smallest size",
            {"VDU1_scale": 0, "VDU2_scale": 0},
        ),
        "instantiation_level_2": model.InstantiationLevel(
            "instantiation_level_2",
            "Largest size",
            {"VDU1_scale": 2, "VDU2_scale": 2},
        ),
    }
    assert flavour.default_instantiation_level_id == "instantiation_level_1"
    assert flavour.vdu_instance_count("VDU1") == 1
    assert flavour.vdu_instance_count("VDU2") == 2
    assert flavour.vdu_instance_count("VDU1", "instantiation_level_2") == 3
    assert flavour.vdu_instance_count("VDU2", "instantiation_level_2") == 4


def test_heat_affinity_rules(onboard):
    flavour = onboard("heat_vdu_affinity").vnfd.flavour("simple")
    affinity, anti = flavour.affinity_rules
    assert affinity == model.PlacementRule(
        name="policy_affinity_vdu1",
        type=model.AFFINITY,
        scope="zone",
        targets=("VDU1",),
        vdus=("VDU1",),
    )
    assert affinity.is_affinity
    assert anti == model.PlacementRule(
        name="policy_antiaffinity_vdu2",
        type=model.ANTI_AFFINITY,
        scope="zone",
        targets=("VDU2",),
        vdus=("VDU2",),
    )
    assert not anti.is_affinity
    assert flavour.rules_for("VDU1") == (affinity,)
    assert flavour.rules_for("VDU2") == (anti,)
    assert flavour.placement_groups == {}


def test_heat_base_hot(onboard):
    vnfd = onboard("heat_vdu_affinity").vnfd
    simple = vnfd.flavour("simple").base_hot
    assert simple == model.BaseHot(
        template="BaseHOT/simple/heat_vdu_affinity.hot.yaml",
        nested={
            "VDU1.yaml": "BaseHOT/simple/nested/VDU1.yaml",
            "VDU2.yaml": "BaseHOT/simple/nested/VDU2.yaml",
        },
        resources=("VDU1", "VDU2"),
    )
    internal = vnfd.flavour("internal_vl").base_hot
    assert (
        internal.template == "BaseHOT/internal_vl/heat_vdu_affinity.hot.yaml"
    )
    assert internal.resources == (
        "VDU1",
        "VDU2",
        "internalVL1",
        "internalVL1_subnet",
    )


def test_heat_internal_vl_flavour(onboard):
    flavour = onboard("heat_vdu_affinity").vnfd.flavour("internal_vl")
    assert flavour.flavour_description == (
        "As simple, plus the internal virtual link internalVL1"
    )
    link = flavour.virtual_links["internalVL1"]
    assert link.node_name == "internalVL1"
    assert link.layer_protocols == ("ipv4",)
    assert link.description == "Internal virtual link between VDU1 and VDU2"
    assert link.vl_profile["virtual_link_protocol_data"] == [
        {
            "associated_layer_protocol": "ipv4",
            "l3_protocol_data": {
                "ip_version": "ipv4",
                "cidr": "192.168.10.0/24",
            },
        }
    ]
    assert flavour.vdus["VDU1"].cps == ("VDU1_CP1", "VDU1_CP2")
    assert flavour.vdu_cps["VDU1_CP2"].virtual_link == "internalVL1"
    assert flavour.vdu_cps["VDU1_CP2"].order == 1
    assert flavour.vdu_cps["VDU2_CP1"].virtual_link is None


def test_unknown_flavour_names_the_known_ones(onboard):
    vnfd = onboard("heat_vdu_affinity").vnfd
    with pytest.raises(KeyError, match="known: internal_vl, simple"):
        vnfd.flavour("gold")


# -- k8s_cluster ------------------------------------------------------------


def test_k8s_cluster_vnfd(onboard):
    vnfd = onboard("k8s_cluster").vnfd
    assert vnfd.descriptor_id == "4c2d8e7a-1f3b-4a59-8d6e-2b7c9e0f1a02"
    assert vnfd.product_name == "Kubernetes cluster sample"
    assert vnfd.software_version == "1.30"
    assert vnfd.vnf_node_type == "tacker_ng.samples.KubernetesClusterVnf"
    assert list(vnfd.flavours) == ["cluster_install"]


def test_k8s_cluster_vdus(onboard):
    flavour = onboard("k8s_cluster").vnfd.flavour("cluster_install")
    master, worker = flavour.vdus["masterNode"], flavour.vdus["workerNode"]
    assert master.vdu_profile == model.VduProfile(1, 3)
    assert worker.vdu_profile == model.VduProfile(2, 5)
    assert master.description == (
        "Kubernetes control plane node (etcd, kube-apiserver)"
    )
    for vdu in (master, worker):
        assert vdu.virtual_compute.virtual_cpu.num_virtual_cpu == 2
        assert vdu.virtual_compute.virtual_memory.virtual_mem_size == 4 * GiB
        assert vdu.sw_image_data.name == "ubuntu-22.04-server-cloudimg-amd64"
        assert vdu.sw_image_data.checksum.algorithm == "sha-512"
        assert vdu.sw_image_data.operating_system == "ubuntu-22.04"
        assert vdu.sw_image_data.size == 700 * MiB
    assert master.initial_delta == 1
    assert worker.initial_delta == 2
    assert master.aspect_deltas == {"master_instance": {"delta_2": 2}}
    assert worker.aspect_deltas == {"worker_instance": {"delta_1": 1}}
    assert flavour.vdu_instance_count("masterNode") == 1
    assert flavour.vdu_instance_count("workerNode") == 2
    for level, masters, workers in (
        ("instantiation_level_2", 3, 3),
        ("instantiation_level_3", 3, 2),
    ):
        assert flavour.vdu_instance_count("masterNode", level) == masters
        assert flavour.vdu_instance_count("workerNode", level) == workers
    assert flavour.scaling_aspects["worker_instance"].max_scale_level == 3
    assert flavour.substitution_requirements == {
        "virtual_link_external": ("masterNode_CP1", "virtual_link")
    }


def test_k8s_cluster_anti_affinity_group(onboard):
    flavour = onboard("k8s_cluster").vnfd.flavour("cluster_install")
    assert flavour.placement_groups == {
        "antiAffinityGroup": model.PlacementGroup(
            name="antiAffinityGroup",
            description="Masters and workers on different compute hosts",
            members=("masterNode", "workerNode"),
        )
    }
    (rule,) = flavour.affinity_rules
    assert rule == model.PlacementRule(
        name="policy_antiaffinity_group",
        type=model.ANTI_AFFINITY,
        scope="nfvi_node",
        targets=("antiAffinityGroup",),
        vdus=("masterNode", "workerNode"),
    )
    assert flavour.rules_for("workerNode") == (rule,)


def test_k8s_cluster_mgmt_driver_hooks(onboard):
    flavour = onboard("k8s_cluster").vnfd.flavour("cluster_install")
    artifact = model.Artifact(
        name="mgmt-driver-kubernetes",
        type="tosca.artifacts.Implementation.Python",
        file="Scripts/kubernetes_cluster_mgmt.py",
        description="MgmtDriver hooks of the Kubernetes cluster",
    )
    expected = [
        f"{op}_{when}"
        for op in ("instantiate", "heal", "scale", "terminate")
        for when in ("start", "end")
    ]
    assert sorted(flavour.lcm_operations) == sorted(expected)
    for op in expected:
        assert flavour.lcm_operations[op] == model.LcmOperationHook(
            operation=op, artifact=artifact
        )
    assert flavour.mgmt_driver_artifacts == (artifact,)


def test_k8s_cluster_base_hot(onboard):
    contents = onboard("k8s_cluster")
    flavour = contents.vnfd.flavour("cluster_install")
    assert flavour.base_hot == model.BaseHot(
        template="BaseHOT/cluster_install/k8s_cluster.hot.yaml",
        nested={
            f"{vdu}.yaml": f"BaseHOT/cluster_install/nested/{vdu}.yaml"
            for vdu in ("masterNode", "workerNode")
        },
        resources=("srvgroup", "masterNode", "workerNode"),
    )
    assert flavour.user_data.class_name == "StandardUserData"
    assert "Scripts/label_worker_zone.sh" in contents.files


# -- cnf_deployment ---------------------------------------------------------


def test_cnf_vnfd(onboard):
    contents = onboard("cnf_deployment")
    assert contents.manifest is None
    vnfd = contents.vnfd
    assert vnfd.descriptor_id == "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b03"
    assert vnfd.product_name == "CNF Deployment sample"
    assert vnfd.entry_definitions == "Definitions/cnf_deployment.vnfd.yaml"
    assert vnfd.definitions_files == (
        "Definitions/cnf_deployment_types.yaml",
        "Definitions/cnf_deployment.vnfd.yaml",
    )
    flavour = vnfd.flavour("simple")
    assert flavour.file == "Definitions/cnf_deployment.vnfd.yaml"
    assert flavour.flavour_description == (
        "Two Deployments, vdu2 spread over compute hosts"
    )
    assert flavour.base_hot is None
    assert flavour.user_data is None
    assert flavour.lcm_operations == {}


def test_cnf_vdus_and_manifests(onboard):
    flavour = onboard("cnf_deployment").vnfd.flavour("simple")
    vdu1, vdu2 = flavour.vdus["VDU1"], flavour.vdus["VDU2"]
    assert (vdu1.name, vdu2.name) == ("vdu1", "vdu2")
    assert vdu1.virtual_compute is None and vdu1.sw_image_data is None
    assert vdu1.vdu_profile == model.VduProfile(1, 3)
    assert vdu2.vdu_profile == model.VduProfile(2, 4)
    assert flavour.vdu_instance_count("VDU2") == 2
    assert flavour.kubernetes_manifests == (
        "Files/kubernetes/namespace.yaml",
        "Files/kubernetes/deployment.yaml",
    )
    assert flavour.kubernetes_resources == (
        model.KubernetesResource(
            file="Files/kubernetes/namespace.yaml",
            kind="Namespace",
            name="cnf-sample",
            api_version="v1",
        ),
        model.KubernetesResource(
            file="Files/kubernetes/deployment.yaml",
            kind="Deployment",
            name="vdu1",
            namespace="cnf-sample",
            api_version="apps/v1",
        ),
        model.KubernetesResource(
            file="Files/kubernetes/deployment.yaml",
            kind="Deployment",
            name="vdu2",
            namespace="cnf-sample",
            api_version="apps/v1",
        ),
    )


# -- re-reading a stored package ------------------------------------------


@pytest.mark.parametrize(
    "name", ["heat_vdu_affinity", "k8s_cluster", "cnf_deployment"]
)
def test_load_csar_rereads_a_stored_package(onboard, name):
    contents = onboard(name)
    again = load_csar(contents.root)
    assert again.vnfd == contents.vnfd
    assert again.files == contents.files
    assert again.size == contents.size
