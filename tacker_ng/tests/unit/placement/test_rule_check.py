"""Zone anti-affinity evaluated over where VNFCs run (rule_check)."""

import itertools

import pytest

from tacker_ng.objects.vnfd import AFFINITY, ANTI_AFFINITY, PlacementRule
from tacker_ng.placement import rule_check as rc

P = rc.PlacedVnfc


def rule(name, vdus, kind=ANTI_AFFINITY, scope="zone") -> PlacementRule:
    return PlacementRule(
        name=name, type=kind, scope=scope, targets=vdus, vdus=vdus
    )


#: The spec's VNF: VDU1 together, VDU2 apart, VDU1 apart from VDU2.
SPEC_ANTI = (rule("anti_all", ("VDU1", "VDU2")),)
SPEC_AFFINITY = (frozenset({"VDU1"}),)


def test_spec_prerequisite_keeps_the_rules():
    vnfcs = [
        P("1-0", "VDU1", "AZ-1"),
        P("1-1", "VDU1", "AZ-1"),
        P("2-0", "VDU2", "AZ-2"),
        P("2-1", "VDU2", "AZ-3"),
    ]
    assert rc.breaks(vnfcs, SPEC_ANTI, SPEC_AFFINITY) == {}


def test_spec_scale_out_vdu2_3_into_az1_breaks_with_vdu1():
    """Spec "Scale out (VDU2-2/VDU2-3)": VDU2-3 reselected into AZ-1,
    which holds VDU1-0/VDU1-1: all three break the rule, VDU1-0/1 are
    not each other's peers (affinity)."""
    vnfcs = [
        P("1-0", "VDU1", "AZ-1"),
        P("1-1", "VDU1", "AZ-1"),
        P("2-0", "VDU2", "AZ-2"),
        P("2-1", "VDU2", "AZ-3"),
        P("2-2", "VDU2", "AZ-4"),
        P("2-3", "VDU2", "AZ-1"),
    ]
    found = rc.breaks(vnfcs, SPEC_ANTI, SPEC_AFFINITY)
    assert set(found) == {"1-0", "1-1", "2-3"}
    assert found["2-3"] == rc.Break(
        vnfc_id="2-3",
        vdu_id="VDU2",
        zone="AZ-1",
        peers=("1-0", "1-1"),
        rules=("anti_all",),
    )
    assert found["1-0"].peers == ("2-3",)
    assert found["1-1"].peers == ("2-3",)


def test_vnfcs_of_one_vdu_apart():
    anti = (rule("vdu2_apart", ("VDU2",)),)
    vnfcs = [
        P("a", "VDU2", "z1"),
        P("b", "VDU2", "z1"),
        P("c", "VDU2", "z2"),
        P("d", "VDU1", "z1"),
    ]
    found = rc.breaks(vnfcs, anti)
    assert set(found) == {"a", "b"}
    assert found["a"].peers == ("b",)
    assert found["a"].rules == ("vdu2_apart",)


def test_unknown_zone_never_breaks():
    anti = (rule("r", ("VDU2",)),)
    vnfcs = [P("a", "VDU2", None), P("b", "VDU2", None)]
    assert rc.breaks(vnfcs, anti) == {}


def test_several_rules_named():
    anti = (rule("r1", ("VDU1", "VDU2")), rule("r2", ("VDU2", "VDU3")))
    vnfcs = [
        P("a", "VDU2", "z"),
        P("b", "VDU1", "z"),
        P("c", "VDU3", "z"),
    ]
    found = rc.breaks(vnfcs, anti)
    assert found["a"].rules == ("r1", "r2")
    assert found["a"].peers == ("b", "c")
    # VDU1 and VDU3 share no rule: each other's peer only through VDU2.
    assert found["b"].peers == ("a",)
    assert found["c"].peers == ("a",)


@pytest.mark.parametrize("n_zones", [1, 2, 3, 4])
@pytest.mark.parametrize("n_vnfcs", [1, 2, 3, 4])
def test_exhaustive_one_vdu_apart(n_zones, n_vnfcs):
    """Every placement of up to 4 VNFCs of one anti-affinity VDU in up to
    4 zones: a VNFC breaks exactly when another shares its zone."""
    anti = (rule("apart", ("VDU",)),)
    zones = [f"z{i}" for i in range(n_zones)]
    for placement in itertools.product(zones, repeat=n_vnfcs):
        vnfcs = [P(f"v{i}", "VDU", z) for i, z in enumerate(placement)]
        found = rc.breaks(vnfcs, anti)
        for i, zone in enumerate(placement):
            same = {f"v{j}" for j, z in enumerate(placement) if z == zone}
            same.discard(f"v{i}")
            if same:
                assert found[f"v{i}"].peers == tuple(sorted(same))
            else:
                assert f"v{i}" not in found


def test_check_reads_the_flavour_rules_of_zone_scope_only():
    class Flavour:
        affinity_rules = (
            rule("host_apart", ("VDU2",), scope="nfvi_node"),
            rule("together", ("VDU1",), kind=AFFINITY),
            rule("zone_apart", ("VDU1", "VDU2")),
        )

    info = {
        "vnfcResourceInfo": [
            {"id": "a", "vduId": "VDU1", "zoneId": "z"},
            {"id": "b", "vduId": "VDU1", "zoneId": "z"},
            {"id": "c", "vduId": "VDU2", "zoneId": "y"},
            {"id": "d", "vduId": "VDU2", "zoneId": "x"},
        ]
    }
    # VDU1's affinity honoured; the host-scope rule is not the zone's.
    assert rc.check(info, Flavour()) == {}
    # One rule on [VDU1, VDU2] keeps two VDU2 VNFCs apart too.
    info["vnfcResourceInfo"][3]["zoneId"] = "y"
    assert set(rc.check(info, Flavour())) == {"c", "d"}
    info["vnfcResourceInfo"][3]["zoneId"] = "x"
    info["vnfcResourceInfo"][2]["zoneId"] = "z"
    found = rc.check(info, Flavour())
    assert set(found) == {"a", "b", "c"}
    assert rc.check(info, None) == {}


def _brk(vnfc, zone="z", peers=("p",)):
    return rc.Break(vnfc, "VDU2", zone, peers, ("apart",))


def test_mark_sets_and_removes_the_metadata():
    info = {
        "vnfcResourceInfo": [
            {"id": "a", "metadata": {"index": 0}},
            {"id": "b"},
            {
                "id": "c",
                "metadata": {"index": 2, rc.METADATA_KEY: {"zoneId": "old"}},
            },
        ]
    }
    changes = {
        "affectedVnfcs": [
            {"id": "a", "changeType": "ADDED"},
            {"id": "c", "changeType": "MODIFIED", "metadata": {"zone": "y"}},
            {"id": "x", "changeType": "REMOVED", "metadata": {"zone": "z"}},
        ]
    }
    rc.mark(info, changes, {"a": _brk("a"), "x": _brk("x")})
    a, b, c = info["vnfcResourceInfo"]
    assert a["metadata"] == {
        "index": 0,
        rc.METADATA_KEY: {
            "zoneId": "z",
            "peerVnfcIds": ["p"],
            "rules": ["apart"],
        },
    }
    assert "metadata" not in b
    assert c["metadata"] == {"index": 2}
    added, modified, removed = changes["affectedVnfcs"]
    assert added["metadata"] == {
        rc.METADATA_KEY: a["metadata"][rc.METADATA_KEY]
    }
    assert modified["metadata"] == {"zone": "y"}
    # A REMOVED VNFC keeps the metadata it had.
    assert removed["metadata"] == {"zone": "z"}


def test_mark_without_info_or_changes():
    rc.mark(None, None, {"a": _brk("a")})
    info = {"vnfcResourceInfo": [{"id": "a", "metadata": {}}]}
    rc.mark(info, {}, {})
    assert info["vnfcResourceInfo"][0]["metadata"] == {}


def test_describe_one_line_per_zone():
    found = {
        "b": _brk("b", "z2", ("a",)),
        "a": _brk("a", "z2", ("b",)),
        "c": rc.Break("c", "VDU1", "z1", ("d",), ("r1", "r2")),
    }
    assert rc.describe(found) == [
        "zone z1 holds VNFCs that anti-affinity rule(s) r1, r2 keep apart: "
        "c (VDU1)",
        "zone z2 holds VNFCs that anti-affinity rule(s) apart keep apart: "
        "a (VDU2), b (VDU2)",
    ]
