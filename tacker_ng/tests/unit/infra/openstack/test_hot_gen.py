"""Heat templates generated from the VNFD (a flavour without BaseHOT)."""

import dataclasses
import io

import pytest
import yaml

from tacker_ng.infra.openstack import (
    errors,
    host_keys,
    hot,
    hot_gen,
    server_groups,
)
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects import vnfd as model
from tacker_ng.packages import csar
from tacker_ng.tests.unit.packages import helpers

RULE = "policy_antiaffinity_hosts"
GROUP = f"{RULE}{server_groups.RESOURCE_SUFFIX}"
NET = "net-ext"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The tosca_anti_affinity sample: no BaseHOT, VDU1 + VDU2 under one
    nfvi_node AntiAffinityRule, one external CP each."""
    data = helpers.sample_csar("tosca_anti_affinity")
    dest = tmp_path_factory.mktemp("taa") / "pkg"
    return csar.extract_csar(io.BytesIO(data), dest)


@pytest.fixture
def flavour(package):
    return package.vnfd.flavour("simple")


def vnfcs(vdu1=1, vdu2=2, zone=None):
    out = []
    for vdu, count in (("VDU1", vdu1), ("VDU2", vdu2)):
        out += [
            Vnfc(f"id-{vdu}-{i}", vdu, i, zone, "m1.tiny", "img")
            for i in range(count)
        ]
    return out


def stack(package, flavour, members, best_effort=False):
    """What the driver sends Heat: load, expand, join the groups."""
    top, files = hot.load(package.root, flavour)
    return hot.join_server_groups(
        hot.expand(top, flavour, members),
        files,
        members,
        flavour,
        best_effort,
    )


def nested(files, name):
    return yaml.safe_load(files[name])


def with_nodes(flavour, vdu="VDU1", cps=(), links=(), storages=()):
    """``flavour`` plus CPs, internal VLs and storages on ``vdu``."""
    old = flavour.vdus[vdu]
    new = dataclasses.replace(
        old,
        cps=old.cps + tuple(c.node_name for c in cps),
        virtual_storages=old.virtual_storages
        + tuple(s.node_name for s in storages),
    )
    return dataclasses.replace(
        flavour,
        vdus={**flavour.vdus, vdu: new},
        vdu_cps={**flavour.vdu_cps, **{c.node_name: c for c in cps}},
        virtual_links={
            **flavour.virtual_links,
            **{v.node_name: v for v in links},
        },
        virtual_storages={
            **flavour.virtual_storages,
            **{s.node_name: s for s in storages},
        },
    )


def internal_cp(name="VDU1_CP2", link="internalVL1", vdu="VDU1", order=1):
    return model.VduCp(name, ("ipv4",), vdu, virtual_link=link, order=order)


def link(name="internalVL1", profile=None, protocols=("ipv4",)):
    return model.VnfVirtualLink(name, protocols, vl_profile=profile or {})


def test_sample_flavour_is_generated_in_the_base_hot_shape(package, flavour):
    # Onboarded as an OpenStack flavour: neither BaseHOT nor manifests.
    assert flavour.base_hot is None
    assert flavour.kubernetes_manifests == ()
    hot.check_user_data(flavour)
    top, files = hot.load(package.root, flavour)
    assert top["parameters"] == {"nfv": {"type": "json"}}
    assert set(top["resources"]) == {"VDU1", "VDU2"}
    assert top["resources"]["VDU2"] == {
        "type": "VDU2.yaml",
        "properties": {
            "flavor": {
                "get_param": ["nfv", "VDU", "VDU2", "computeFlavourId"]
            },
            "image": {"get_param": ["nfv", "VDU", "VDU2", "vcImageId"]},
            "zone": {
                "get_param": ["nfv", "VDU", "VDU2", "locationConstraints"]
            },
            "cp0_network": {"get_param": ["nfv", "CP", "VDU2_CP1", "network"]},
        },
    }
    assert set(files) == {"VDU1.yaml", "VDU2.yaml"}
    vdu2 = nested(files, "VDU2.yaml")
    assert set(vdu2["parameters"]) == {
        "flavor",
        "image",
        "zone",
        "cp0_network",
    }
    assert vdu2["resources"]["VDU2"] == {
        "type": "OS::Nova::Server",
        "properties": {
            "name": "VDU2",
            "flavor": {"get_param": "flavor"},
            "image": {"get_param": "image"},
            "availability_zone": {"get_param": "zone"},
            "networks": [{"port": {"get_resource": "VDU2_CP1"}}],
        },
    }
    assert vdu2["resources"]["VDU2_CP1"] == {
        "type": "OS::Neutron::Port",
        "properties": {"network": {"get_param": "cp0_network"}},
    }


def test_expanded_per_vnfc_with_per_vnfc_parameters(package, flavour):
    members = vnfcs(zone="AZ-1")
    top, _ = hot.load(package.root, flavour)
    out = hot.expand(top, flavour, members)
    assert set(out["resources"]) == {"VDU1-0", "VDU2-0", "VDU2-1"}
    props = out["resources"]["VDU2-1"]["properties"]
    assert props["zone"] == {
        "get_param": ["nfv", "VDU", "VDU2-1", "locationConstraints"]
    }
    assert props["cp0_network"] == {
        "get_param": ["nfv", "CP", "VDU2_CP1-1", "network"]
    }
    params = hot.nfv_parameter(
        flavour, members, {"VDU1_CP1": NET, "VDU2_CP1": NET}, out
    )
    assert params["VDU"]["VDU2-1"] == {
        "computeFlavourId": "m1.tiny",
        "vcImageId": "img",
        "locationConstraints": "AZ-1",
    }
    assert params["CP"]["VDU2_CP1-1"] == {"network": NET}
    with pytest.raises(errors.InvalidRequest, match="VDU2_CP1"):
        hot.nfv_parameter(flavour, members, {"VDU1_CP1": NET}, out)


def test_two_anti_affinity_targets_share_one_server_group(package, flavour):
    template, files = stack(package, flavour, vnfcs())
    res = template["resources"]
    groups = [
        n for n, r in res.items() if r["type"] == server_groups.GROUP_TYPE
    ]
    assert groups == [GROUP]
    assert res[GROUP]["properties"] == {
        "name": RULE,
        "policies": ["anti-affinity"],
    }
    for name, vdu in (
        ("VDU1-0", "VDU1"),
        ("VDU2-0", "VDU2"),
        ("VDU2-1", "VDU2"),
    ):
        assert res[name]["type"] == f"{GROUP}/{vdu}.yaml"
        assert res[name]["properties"][server_groups.HINT_PARAM] == {
            "get_resource": GROUP
        }
        copy = nested(files, f"{GROUP}/{vdu}.yaml")
        assert copy["resources"][vdu]["properties"]["scheduler_hints"] == {
            "group": {"get_param": server_groups.HINT_PARAM}
        }
    # A hard policy: Heat creates the members one after the other.
    assert res["VDU2-0"]["depends_on"] == ["VDU1-0"]
    assert res["VDU2-1"]["depends_on"] == ["VDU2-0"]


def test_zone_scope_rule_makes_no_server_group(package, flavour):
    (rule,) = flavour.affinity_rules
    zoned = dataclasses.replace(
        flavour, affinity_rules=(dataclasses.replace(rule, scope="zone"),)
    )
    template, files = stack(package, zoned, vnfcs())
    types = {r["type"] for r in template["resources"].values()}
    assert types == {"VDU1.yaml", "VDU2.yaml"}
    assert set(files) == {"VDU1.yaml", "VDU2.yaml"}
    assert "scheduler_hints" not in files["VDU2.yaml"]


def test_internal_vl_is_a_net_and_subnet_with_ports_on_it(package, flavour):
    profile = {
        "virtual_link_protocol_data": [
            {
                "associated_layer_protocol": "ipv4",
                "l3_protocol_data": {
                    "ip_version": "ipv4",
                    "cidr": "10.20.0.0/24",
                    "gateway_ip": "10.20.0.1",
                    "dhcp_enabled": True,
                    "ip_allocation_pools": [
                        {
                            "start_ip_address": "10.20.0.10",
                            "end_ip_address": "10.20.0.99",
                        }
                    ],
                },
            }
        ]
    }
    flav = with_nodes(
        flavour, cps=[internal_cp()], links=[link(profile=profile)]
    )
    top, files = hot.load(package.root, flav)
    res = top["resources"]
    assert res["internalVL1"] == {"type": "OS::Neutron::Net"}
    assert res["internalVL1_subnet"] == {
        "type": "OS::Neutron::Subnet",
        "properties": {
            "network": {"get_resource": "internalVL1"},
            "ip_version": 4,
            "cidr": "10.20.0.0/24",
            "gateway_ip": "10.20.0.1",
            "enable_dhcp": True,
            "allocation_pools": [{"start": "10.20.0.10", "end": "10.20.0.99"}],
        },
    }
    assert res["VDU1"]["properties"]["cp1_network"] == {
        "get_resource": "internalVL1"
    }
    assert res["VDU1"]["depends_on"] == ["internalVL1_subnet"]
    vdu1 = nested(files, "VDU1.yaml")
    assert vdu1["resources"]["VDU1"]["properties"]["networks"] == [
        {"port": {"get_resource": "VDU1_CP1"}},
        {"port": {"get_resource": "VDU1_CP2"}},
    ]
    assert vdu1["resources"]["VDU1_CP2"]["properties"] == {
        "network": {"get_param": "cp1_network"}
    }
    # Expanded: every VNFC waits for the subnet; the internal CP needs no
    # network from the request.
    members = vnfcs()
    out = hot.expand(top, flav, members)
    assert out["resources"]["VDU1-0"]["depends_on"] == ["internalVL1_subnet"]
    assert hot.cp_params(out) == {"VDU1_CP1-0", "VDU2_CP1-0", "VDU2_CP1-1"}
    hot.nfv_parameter(flav, members, {"VDU1_CP1": NET, "VDU2_CP1": NET}, out)


def test_internal_vl_without_cidr_gets_the_default_ranges(flavour):
    flav = with_nodes(
        flavour,
        cps=[internal_cp(), internal_cp("VDU1_CP3", "vl6", order=2)],
        links=[link(), link("vl6", protocols=("ipv6",))],
    )
    top, _ = hot_gen.generate(flav)
    v4 = top["resources"]["internalVL1_subnet"]["properties"]
    v6 = top["resources"]["vl6_subnet"]["properties"]
    assert (v4["ip_version"], v4["cidr"]) == (4, "192.168.100.0/24")
    assert (v6["ip_version"], v6["cidr"]) == (6, "fd00:0:0:1::/64")
    assert top["resources"]["VDU1"]["depends_on"] == [
        "internalVL1_subnet",
        "vl6_subnet",
    ]


def test_bad_cidr_is_refused(flavour):
    profile = {
        "virtual_link_protocol_data": [{"l3_protocol_data": {"cidr": "x"}}]
    }
    flav = with_nodes(
        flavour, cps=[internal_cp()], links=[link(profile=profile)]
    )
    with pytest.raises(errors.UnsupportedPackage, match="not an IP network"):
        hot_gen.generate(flav)


def test_block_storage_is_a_volume_attached_to_each_vnfc(flavour):
    image = model.SwImageData(
        "data-img", "1", model.Checksum("sha-256", "0"), "bare", "qcow2", 0, 0
    )
    storages = [
        model.VirtualBlockStorage("VirtualStorage", 3 * (1 << 30) + 1),
        model.VirtualBlockStorage("Data", 1000, sw_image_data=image),
    ]
    top, files = hot_gen.generate(with_nodes(flavour, storages=storages))
    vdu1 = nested(files, "VDU1.yaml")["resources"]
    assert vdu1["VirtualStorage"] == {
        "type": "OS::Cinder::Volume",
        "properties": {"size": 4},
    }
    assert vdu1["Data"]["properties"] == {"size": 1, "image": "data-img"}
    assert vdu1["VirtualStorage_attachment"] == {
        "type": "OS::Cinder::VolumeAttachment",
        "properties": {
            "instance_uuid": {"get_resource": "VDU1"},
            "volume_id": {"get_resource": "VirtualStorage"},
        },
    }
    assert "OS::Cinder" not in files["VDU2.yaml"]
    assert set(top["resources"]) == {"VDU1", "VDU2"}


def test_host_keys_go_into_the_generated_server(package, flavour):
    members = vnfcs()
    template, files = stack(package, flavour, members)
    keys = host_keys.assign(members, {"VDU2"}, {v.name for v in members})
    template, files = host_keys.inject(
        template, files, members, {"VDU2"}, keys
    )
    item = template["resources"]["VDU2-1"]
    assert item["type"] == f"hostkey/{GROUP}/VDU2.yaml"
    assert item["properties"][host_keys.USER_DATA_PARAM].startswith(
        "#cloud-config"
    )
    server = nested(files, item["type"])["resources"]["VDU2"]["properties"]
    assert server["user_data"] == {"get_param": host_keys.USER_DATA_PARAM}
    assert server["scheduler_hints"] == {
        "group": {"get_param": server_groups.HINT_PARAM}
    }


@pytest.mark.parametrize(
    "name",
    [
        "VDU/../../etc",
        "a b",
        "-x",
        "x\n",
        "",
        "é",
        "{get_resource: x}",
        "x" * 101,
    ],
)
def test_hostile_node_names_are_refused(flavour, name):
    flav = with_nodes(
        flavour, cps=[internal_cp(link=name)], links=[link(name)]
    )
    with pytest.raises(errors.UnsupportedPackage, match="not a plain name"):
        hot_gen.generate(flav)


@pytest.mark.parametrize(
    ("vl", "why"),
    [
        ("VDU2_CP1_attachment", None),
        ("VDU1-0", "look like a VNFC of VDU1"),
        ("VDU2-12", "look like a VNFC of VDU2"),
    ],
)
def test_names_clashing_with_generated_ones_are_refused(flavour, vl, why):
    storage = model.VirtualBlockStorage("VDU2_CP1", 1)  # -> ..._attachment
    flav = with_nodes(flavour, cps=[internal_cp(link=vl)], links=[link(vl)])
    if why is None:
        flav = dataclasses.replace(
            flav, virtual_storages={"VDU2_CP1": storage}
        )
        why = "names the generator gives"
    with pytest.raises(errors.UnsupportedPackage, match=why):
        hot_gen.generate(flav)


def test_dotted_and_dashed_names_pass_through(flavour):
    flav = with_nodes(
        flavour,
        cps=[internal_cp("cp.2-x", "vl.int-1")],
        links=[link("vl.int-1")],
    )
    top, files = hot_gen.generate(flav)
    assert "vl.int-1_subnet" in top["resources"]
    assert "cp.2-x" in nested(files, "VDU1.yaml")["resources"]


def test_cnf_flavour_is_not_generated(flavour):
    cnf = dataclasses.replace(
        flavour, kubernetes_manifests=("Files/kubernetes/d.yaml",)
    )
    with pytest.raises(errors.UnsupportedPackage, match="CNF flavour"):
        hot.check_user_data(cnf)


def test_flavour_without_vdus_is_refused(flavour):
    with pytest.raises(errors.UnsupportedPackage, match="no VDU"):
        hot_gen.generate(dataclasses.replace(flavour, vdus={}))
