"""nfvi_node placement rules as Nova server groups in the stack's HOT."""

import dataclasses
import io

import pytest
import yaml

from tacker_ng.infra.openstack import errors, hot, server_groups
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects import vnfd as model
from tacker_ng.packages import csar
from tacker_ng.tests.unit.packages import helpers

RULE = "policy_antiaffinity_group"
GROUP = f"{RULE}-servergroup"


@pytest.fixture(scope="module")
def k8s(tmp_path_factory):
    """The k8s_cluster sample (masters and workers in one anti-affinity
    PlacementGroup, VNF-A of the hardware-aware pod affinity spec)."""
    data = helpers.sample_csar("k8s_cluster")
    dest = tmp_path_factory.mktemp("k8s") / "pkg"
    return csar.extract_csar(io.BytesIO(data), dest)


@pytest.fixture
def flavour(k8s):
    return k8s.vnfd.flavour("cluster_install")


def cluster(masters=3, workers=3):
    out = []
    for vdu, count in (("masterNode", masters), ("workerNode", workers)):
        out += [
            Vnfc(f"id-{vdu}-{i}", vdu, i, None, "m1.medium", "img")
            for i in range(count)
        ]
    return out


def generated(k8s, flavour, vnfcs, best_effort=False):
    top, files = hot.load(k8s.root, flavour)
    return hot.join_server_groups(
        hot.expand(top, flavour, vnfcs), files, vnfcs, flavour, best_effort
    )


def test_the_sample_rule_is_one_anti_affinity_group_of_every_server(
    k8s, flavour
):
    template, files = generated(k8s, flavour, cluster())
    res = template["resources"]
    assert res[GROUP] == {
        "type": "OS::Nova::ServerGroup",
        "properties": {"name": RULE, "policies": ["anti-affinity"]},
    }
    for vdu in ("masterNode", "workerNode"):
        for i in range(3):
            item = res[f"{vdu}-{i}"]
            # Each VNFC's (scale) nested stack takes the group's id ...
            assert item["type"] == f"{GROUP}/{vdu}.yaml"
            assert item["properties"][server_groups.HINT_PARAM] == {
                "get_resource": GROUP
            }
        # ... and its server boots in it.
        nested = yaml.safe_load(files[f"{GROUP}/{vdu}.yaml"])
        assert nested["parameters"][server_groups.HINT_PARAM]["type"] == (
            "string"
        )
        server = nested["resources"][vdu]
        assert server["properties"]["scheduler_hints"] == {
            "group": {"get_param": server_groups.HINT_PARAM}
        }
        # Ports get no hint; the package's own nested template is unchanged.
        assert (
            "scheduler_hints"
            not in (nested["resources"][f"{vdu}_CP1"]["properties"])
        )
        assert yaml.safe_load(files[f"{vdu}.yaml"])["resources"][vdu][
            "properties"
        ]["scheduler_hints"] == {"group": {"get_param": "srvgroup"}}


def test_scale_out_vnfc_joins_the_same_group(k8s, flavour):
    before, _ = generated(k8s, flavour, cluster(3, 3))
    after, _ = generated(k8s, flavour, cluster(3, 4))
    assert after["resources"][GROUP] == before["resources"][GROUP]
    assert after["resources"]["workerNode-3"]["properties"][
        server_groups.HINT_PARAM
    ] == {"get_resource": GROUP}


def test_best_effort_asks_for_the_soft_policy(k8s, flavour):
    template, _ = generated(k8s, flavour, cluster(), best_effort=True)
    assert template["resources"][GROUP]["properties"]["policies"] == [
        "soft-anti-affinity"
    ]


def _flavour_with(flavour, *rules):
    return dataclasses.replace(flavour, affinity_rules=tuple(rules))


def _rule(name, kind, scope, vdus):
    return model.PlacementRule(name, kind, scope, tuple(vdus), tuple(vdus))


def test_affinity_rule_and_plain_servers():
    flav = _flavour_with(
        _fake_flavour(), _rule("same", model.AFFINITY, "nfvi_node", ["VDU1"])
    )
    template = {
        "resources": {
            "VDU1-0": {"type": "OS::Nova::Server", "properties": {}},
            "VDU2-0": {"type": "OS::Nova::Server", "properties": {}},
        }
    }
    vnfcs = [
        Vnfc("a", "VDU1", 0, None, "f", "i"),
        Vnfc("b", "VDU2", 0, None, "f", "i"),
    ]
    out, files = hot.join_server_groups(template, {}, vnfcs, flav)
    res = out["resources"]
    assert res["same-servergroup"]["properties"]["policies"] == ["affinity"]
    assert res["VDU1-0"]["properties"]["scheduler_hints"] == {
        "group": {"get_resource": "same-servergroup"}
    }
    assert "scheduler_hints" not in res["VDU2-0"]["properties"]
    assert files == {}


def test_zone_scope_rules_make_no_server_group():
    flav = _flavour_with(
        _fake_flavour(),
        _rule("apart", model.ANTI_AFFINITY, "zone", ["VDU1"]),
    )
    template = {"resources": {"VDU1-0": {"type": "OS::Nova::Server"}}}
    vnfcs = [Vnfc("a", "VDU1", 0, None, "f", "i")]
    out, _ = hot.join_server_groups(template, {}, vnfcs, flav)
    assert out == template


def test_reservation_group_wins_over_the_rule():
    flav = _flavour_with(
        _fake_flavour(),
        _rule("apart", model.ANTI_AFFINITY, "nfvi_node", ["VDU1"]),
    )
    template = {"resources": {"VDU1-0": {"type": "OS::Nova::Server"}}}
    vnfcs = [Vnfc("a", "VDU1", 0, None, "f", "i", server_group="sg-1")]
    out, _ = hot.join_server_groups(template, {}, vnfcs, flav)
    assert out["resources"]["VDU1-0"]["properties"]["scheduler_hints"] == {
        "group": "sg-1"
    }
    assert "apart-servergroup" not in out["resources"]


def test_a_vdu_in_two_host_rules_is_refused():
    flav = _flavour_with(
        _fake_flavour(),
        _rule("one", model.ANTI_AFFINITY, "nfvi_node", ["VDU1"]),
        _rule("two", model.AFFINITY, "nfvi_node", ["VDU1", "VDU2"]),
    )
    with pytest.raises(errors.UnsupportedPackage, match="one and two"):
        server_groups.rule_groups(flav)


def test_name_clash_with_the_base_hot_is_refused():
    flav = _flavour_with(
        _fake_flavour(),
        _rule("one", model.ANTI_AFFINITY, "nfvi_node", ["VDU1"]),
    )
    template = {"resources": {"one-servergroup": {"type": "x"}}}
    with pytest.raises(errors.UnsupportedPackage, match="one-servergroup"):
        hot.join_server_groups(template, {}, [], flav)


def _fake_flavour():
    return model.DeploymentFlavour(
        flavour_id="f",
        flavour_description="",
        file="x.yaml",
        vnf_node_name="VNF",
        vdus={},
        virtual_storages={},
        vdu_cps={},
        virtual_links={},
        scaling_aspects={},
        instantiation_levels={},
        default_instantiation_level_id=None,
        placement_groups={},
        affinity_rules=(),
        lcm_operations={},
        substitution_requirements={},
        additional_parameters={},
    )


def test_hard_policy_members_are_created_one_at_a_time(k8s, flavour):
    """Nova's late group check fails concurrent builds of one hard group
    picking the same host: Heat creates them in a chain instead."""
    template, _ = generated(k8s, flavour, cluster(3, 3))
    res = template["resources"]
    chain = [f"masterNode-{i}" for i in range(3)]
    chain += [f"workerNode-{i}" for i in range(3)]
    assert "depends_on" not in res[chain[0]]
    for before, after in zip(chain, chain[1:], strict=False):
        assert res[after]["depends_on"] == [before]
    soft, _ = generated(k8s, flavour, cluster(3, 3), best_effort=True)
    assert not any("depends_on" in soft["resources"][n] for n in chain)
