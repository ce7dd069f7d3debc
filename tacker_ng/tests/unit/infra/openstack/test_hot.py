"""StandardUserData: BaseHOT expansion per VNFC and the ``nfv`` parameter."""

import dataclasses

import pytest
import yaml

from tacker_ng.infra.openstack import errors, hot
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects.vnfd import UserData


def vnfc(vdu, index, zone="AZ-1", flavor="m1.tiny"):
    return Vnfc(f"id-{vdu}-{index}", vdu, index, zone, flavor, "img")


VNFCS = [
    vnfc("VDU1", 0, "AZ-4"),
    vnfc("VDU1", 1, "AZ-4"),
    vnfc("VDU2", 0, "AZ-5", "m1.small"),
    vnfc("VDU2", 1, "AZ-3", "m1.small"),
]


def test_sample_expands_each_autoscaling_group_per_vnfc(sample, simple):
    top, files = hot.load(sample.root, simple)
    assert set(files) == {"VDU1.yaml", "VDU2.yaml"}
    out = hot.expand(top, simple, VNFCS)
    assert set(out["resources"]) == {"VDU1-0", "VDU1-1", "VDU2-0", "VDU2-1"}
    assert out["resources"]["VDU1-1"] == {
        "type": "VDU1.yaml",
        "properties": {
            "flavor": {
                "get_param": ["nfv", "VDU", "VDU1-1", "computeFlavourId"]
            },
            "image": {"get_param": ["nfv", "VDU", "VDU1-1", "vcImageId"]},
            "zone": {
                "get_param": ["nfv", "VDU", "VDU1-1", "locationConstraints"]
            },
            "net1": {"get_param": ["nfv", "CP", "VDU1_CP1-1", "network"]},
        },
    }
    # The package's own template is left alone.
    assert top["resources"]["VDU1"]["type"] == "OS::Heat::AutoScalingGroup"


def test_internal_vl_flavour_keeps_depends_on_and_other_resources(sample):
    flavour = sample.vnfd.flavour("internal_vl")
    top, _ = hot.load(sample.root, flavour)
    out = hot.expand(top, flavour, VNFCS)
    res = out["resources"]
    assert {"internalVL1", "internalVL1_subnet"} <= set(res)
    assert res["VDU2-1"]["depends_on"] == ["internalVL1_subnet"]
    assert res["VDU2-1"]["properties"]["net2"] == {
        "get_resource": "internalVL1"
    }


def test_no_vnfcs_of_a_vdu_means_no_resource(sample, simple):
    top, _ = hot.load(sample.root, simple)
    out = hot.expand(top, simple, VNFCS[:2])
    assert set(out["resources"]) == {"VDU1-0", "VDU1-1"}


def test_nfv_parameter_per_vnfc(sample, simple):
    top, _ = hot.load(sample.root, simple)
    out = hot.expand(top, simple, VNFCS)
    nfv = hot.nfv_parameter(
        simple, VNFCS, {"VDU1_CP1": "net-a", "VDU2_CP1": "net-b"}, out
    )
    assert nfv["VDU"]["VDU1-0"] == {
        "computeFlavourId": "m1.tiny",
        "vcImageId": "img",
        "locationConstraints": "AZ-4",
    }
    assert nfv["VDU"]["VDU2-1"]["locationConstraints"] == "AZ-3"
    assert nfv["VDU"]["VDU2"]["desired_capacity"] == 2
    assert "locationConstraints" not in nfv["VDU"]["VDU2"]
    assert nfv["CP"]["VDU2_CP1-1"] == {"network": "net-b"}
    assert nfv["CP"]["VDU1_CP1"] == {"network": "net-a"}


def test_vnfc_without_zone_has_no_location_constraint(sample, simple):
    top, _ = hot.load(sample.root, simple)
    lone = [vnfc("VDU1", 0, None)]
    nfv = hot.nfv_parameter(
        simple, lone, {"VDU1_CP1": "n"}, hot.expand(top, simple, lone)
    )
    assert "locationConstraints" not in nfv["VDU"]["VDU1-0"]


def test_missing_cp_network_is_a_422(sample, simple):
    top, _ = hot.load(sample.root, simple)
    out = hot.expand(top, simple, VNFCS)
    with pytest.raises(errors.InvalidRequest, match="VDU2_CP1-0") as exc:
        hot.nfv_parameter(simple, VNFCS, {"VDU1_CP1": "net-a"}, out)
    assert exc.value.status == 422


def test_other_user_data_class_is_refused_without_running_it(simple):
    other = dataclasses.replace(
        simple, user_data=UserData("UserData/mine.py", "MyUserData")
    )
    with pytest.raises(errors.UnsupportedPackage, match="MyUserData") as exc:
        hot.check_user_data(other)
    assert exc.value.status == 422
    assert "runs no package code" in exc.value.detail


def test_no_user_data_is_standard_user_data(simple):
    hot.check_user_data(dataclasses.replace(simple, user_data=None))


def test_no_base_hot_is_refused(simple):
    with pytest.raises(errors.UnsupportedPackage, match="no BaseHOT"):
        hot.check_user_data(dataclasses.replace(simple, base_hot=None))


def test_vdu_without_resource_is_refused(simple):
    base = dataclasses.replace(simple.base_hot, resources=("VDU1",))
    with pytest.raises(errors.UnsupportedPackage, match="VDU2"):
        hot.check_user_data(dataclasses.replace(simple, base_hot=base))


def _top(resources, outputs=None):
    top = {
        "heat_template_version": "2021-04-16",
        "parameters": {"nfv": {"type": "json"}},
        "resources": resources,
    }
    if outputs is not None:
        top["outputs"] = outputs
    return top


NESTED_VDU1 = {
    "type": "VDU1.yaml",
    "properties": {
        "flavor": {"get_param": ["nfv", "VDU", "VDU1", "computeFlavourId"]},
        "net": {"get_param": ["nfv", "CP", "VDU1_CP1", "network"]},
        "other": {"get_param": ["nfv", "VDU", "VDU2", "vcImageId"]},
        "plain": {"get_param": "something"},
    },
    "depends_on": "net",
}


def test_tacker_style_direct_nested_resource(simple):
    top = _top({"VDU1": NESTED_VDU1, "VDU2": NESTED_VDU1, "net": {}})
    out = hot.expand(top, simple, VNFCS[:1])
    res = out["resources"]["VDU1-0"]
    assert res["depends_on"] == ["net"]
    props = res["properties"]
    assert props["flavor"]["get_param"][2] == "VDU1-0"
    assert props["net"]["get_param"][2] == "VDU1_CP1-0"
    # Only this VDU's own keys are renamed.
    assert props["other"]["get_param"][2] == "VDU2"
    assert props["plain"] == {"get_param": "something"}


def test_resource_group_member_is_expanded(simple):
    group = {
        "type": "OS::Heat::ResourceGroup",
        "properties": {"count": 2, "resource_def": dict(NESTED_VDU1)},
    }
    top = _top({"VDU1": group, "VDU2": NESTED_VDU1})
    out = hot.expand(top, simple, VNFCS[:2])
    assert out["resources"]["VDU1-1"]["type"] == "VDU1.yaml"


def test_group_without_member_is_refused(simple):
    group = {"type": "OS::Heat::AutoScalingGroup", "properties": {}}
    with pytest.raises(errors.UnsupportedPackage, match="member"):
        hot.expand(_top({"VDU1": group, "VDU2": {}}), simple, VNFCS[:1])


def test_depends_on_a_vdu_becomes_its_vnfcs(simple):
    after = {"type": "OS::Heat::None", "depends_on": ["VDU1", "x"]}
    only = {"type": "OS::Heat::None", "depends_on": "VDU2"}
    top = _top({"VDU1": NESTED_VDU1, "VDU2": NESTED_VDU1, "a": after})
    top["resources"]["b"] = only
    out = hot.expand(top, simple, VNFCS[:2])
    assert out["resources"]["a"]["depends_on"] == ["VDU1-0", "VDU1-1", "x"]
    assert "depends_on" not in out["resources"]["b"]


def test_reference_to_a_vdu_resource_is_refused(simple):
    user = {"type": "X", "properties": {"p": {"get_attr": ["VDU1", "ip"]}}}
    top = _top({"VDU1": NESTED_VDU1, "VDU2": NESTED_VDU1, "u": user})
    with pytest.raises(errors.UnsupportedPackage, match="references VDU"):
        hot.expand(top, simple, VNFCS)


def test_outputs_about_vdus_are_dropped(simple):
    outputs = {
        "ip": {"value": {"get_attr": ["VDU1", "ip"]}},
        "keep": {"value": {"get_param": "x"}},
    }
    top = _top({"VDU1": NESTED_VDU1, "VDU2": NESTED_VDU1}, outputs)
    out = hot.expand(top, simple, VNFCS)
    assert set(out["outputs"]) == {"keep"}


def test_cp_params_found_anywhere():
    template = _top(
        {
            "a": {
                "properties": {
                    "x": [{"get_param": ["nfv", "CP", "C-0", "network"]}]
                }
            }
        }
    )
    assert hot.cp_params(template) == {"C-0"}


def test_package_server_group_is_shared_by_every_vnfc(simple):
    """A BaseHOT's own OS::Nova::ServerGroup (e.g. for nfvi_node rules)
    stays one resource; every VNFC's member keeps the reference."""
    member = {
        "type": "VDU1.yaml",
        "properties": {"group": {"get_resource": "srvgroup"}},
    }
    group = {
        "type": "OS::Nova::ServerGroup",
        "properties": {"policies": ["anti-affinity"]},
    }
    top = _top({"VDU1": member, "VDU2": member, "srvgroup": group})
    out = hot.expand(top, simple, VNFCS)
    assert out["resources"]["srvgroup"] == group
    assert {
        out["resources"][n]["properties"]["group"]["get_resource"]
        for n in ("VDU1-0", "VDU1-1", "VDU2-0", "VDU2-1")
    } == {"srvgroup"}


def test_reserved_vnfcs_boot_in_the_server_group_via_a_nested_copy(
    sample, simple
):
    top, files = hot.load(sample.root, simple)
    vnfcs = [
        dataclasses.replace(VNFCS[0], server_group="sg-1"),
        VNFCS[1],
        dataclasses.replace(VNFCS[2], server_group="sg-1"),
    ]
    template, out = hot.join_server_groups(
        hot.expand(top, simple, vnfcs), files, vnfcs
    )
    res = template["resources"]
    assert res["VDU1-0"]["type"] == "sg-1/VDU1.yaml"
    assert res["VDU1-1"]["type"] == "VDU1.yaml"
    assert res["VDU2-0"]["type"] == "sg-1/VDU2.yaml"
    assert set(out) == {
        "VDU1.yaml",
        "VDU2.yaml",
        "sg-1/VDU1.yaml",
        "sg-1/VDU2.yaml",
    }
    nested = yaml.safe_load(out["sg-1/VDU1.yaml"])["resources"]
    assert nested["VDU1"]["properties"]["scheduler_hints"] == {"group": "sg-1"}
    assert "scheduler_hints" not in nested["VDU1_CP1"]["properties"]
    # The package's own nested template is untouched.
    assert out["VDU1.yaml"] == files["VDU1.yaml"]
    assert "scheduler_hints" not in out["VDU1.yaml"]


def test_server_group_replaces_the_templates_group_on_a_plain_server():
    template = {
        "resources": {
            "VDU1-0": {
                "type": "OS::Nova::Server",
                "properties": {"scheduler_hints": {"group": "mine", "x": 1}},
            }
        }
    }
    one = dataclasses.replace(vnfc("VDU1", 0), server_group="sg-9")
    out, files = hot.join_server_groups(template, {}, [one])
    assert out["resources"]["VDU1-0"]["properties"]["scheduler_hints"] == {
        "group": "sg-9",
        "x": 1,
    }
    assert files == {}
    assert template["resources"]["VDU1-0"]["properties"][
        "scheduler_hints"
    ] == {"group": "mine", "x": 1}


def test_server_group_needs_a_server_to_put_in_it():
    template = {"resources": {"VDU1-0": {"type": "VDU1.yaml"}}}
    files = {"VDU1.yaml": "resources:\n  port:\n    type: OS::Neutron::Port\n"}
    one = dataclasses.replace(vnfc("VDU1", 0), server_group="sg-1")
    with pytest.raises(errors.UnsupportedPackage, match="no OS::Nova::Server"):
        hot.join_server_groups(template, files, [one])
    template = {"resources": {"VDU1-0": {"type": "https://x/VDU1.yaml"}}}
    with pytest.raises(errors.UnsupportedPackage, match="neither a server"):
        hot.join_server_groups(template, {}, [one])
