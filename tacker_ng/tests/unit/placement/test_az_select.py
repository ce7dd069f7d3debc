"""Zone reselection rules: every example of the spec, then the edges.

The spec's VNF: VDU1-0/VDU1-1 share a zone (affinity); VDU2 VNFCs and
VDU1 vs VDU2 are in different zones (anti-affinity); zones AZ-1..AZ-5.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tacker_ng.placement import az_select
from tacker_ng.placement.az_select import Member, ZoneRules

ZONES = ["AZ-1", "AZ-2", "AZ-3", "AZ-4", "AZ-5"]
SPEC_RULES = ZoneRules(
    affinity=(frozenset({"VDU1"}),),
    anti_affinity=(frozenset({"VDU1", "VDU2"}),),
)
BASE = {"VDU1-0": "AZ-1", "VDU1-1": "AZ-1", "VDU2-0": "AZ-2", "VDU2-1": "AZ-3"}


def members(assignment, movable):
    return [
        Member(name, name.rsplit("-", 1)[0], name in movable)
        for name in assignment
    ]


def run(assignment, movable, failed_rounds, seed=0, limit=5):
    """Reselect for each round of capacity failures; return assignment
    and every move."""
    state = az_select.Reselection(
        members=members(assignment, movable),
        zones=ZONES,
        rules=SPEC_RULES,
        limit=limit,
        rng=random.Random(seed),
    )
    moves = []
    for failed in failed_rounds:
        assignment, made = state.next(assignment, failed)
        moves += made
    return assignment, moves, state


# -- the spec's examples --------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_spec_instantiate_as_narrated(seed):
    """AZ-1 and AZ-2 full: VDU1-0/1 fail first (-> AZ-4 or AZ-5), then
    VDU2-0 fails (AZ-1/2 failed, AZ-3 VDU2-1, VDU1's zone: the other)."""
    result, moves, state = run(
        dict(BASE), set(BASE), [["VDU1-0"], ["VDU2-0"]], seed
    )
    assert result["VDU1-0"] == result["VDU1-1"] in {"AZ-4", "AZ-5"}
    assert result["VDU2-0"] == ({"AZ-4", "AZ-5"} - {result["VDU1-0"]}).pop()
    assert result["VDU2-1"] == "AZ-3"
    assert moves[0].members == ("VDU1-0", "VDU1-1")
    assert not any(m.anti_affinity_broken for m in moves)
    assert state.failed_zones == {"AZ-1", "AZ-2"}


@pytest.mark.parametrize("seed", range(20))
def test_spec_instantiate_both_failures_in_one_round(seed):
    """Heat reports VDU1-0/1 and VDU2-0 failing in the same attempt: one
    reselection places both groups, keeping anti-affinity between them."""
    result, moves, _ = run(
        dict(BASE), set(BASE), [["VDU1-0", "VDU1-1", "VDU2-0"]], seed
    )
    assert result["VDU1-0"] == result["VDU1-1"]
    assert {result["VDU1-0"], result["VDU2-0"]} == {"AZ-4", "AZ-5"}
    assert result["VDU2-1"] == "AZ-3"
    assert len(moves) == 2


@pytest.mark.parametrize("seed", range(20))
def test_spec_heal_vdu1_1_and_vdu2_0(seed):
    """Only the heal targets move; VDU1-1 leaves its affinity mate."""
    result, moves, _ = run(
        dict(BASE), {"VDU1-1", "VDU2-0"}, [["VDU1-1"], ["VDU2-0"]], seed
    )
    assert result["VDU1-0"] == "AZ-1"
    assert result["VDU1-1"] in {"AZ-4", "AZ-5"}
    # AZ-1 (VDU1-0), AZ-2 (failed), AZ-3 (VDU2-1), VDU1-1's zone excluded.
    assert result["VDU2-0"] == ({"AZ-4", "AZ-5"} - {result["VDU1-1"]}).pop()
    assert result["VDU2-1"] == "AZ-3"
    assert [m.members for m in moves] == [("VDU1-1",), ("VDU2-0",)]


def test_spec_heal_vdu2_0_exact_exclusions():
    result, moves, _ = run(
        {**BASE, "VDU1-1": "AZ-4"}, {"VDU2-0"}, [["VDU2-0"]], seed=3
    )
    assert result["VDU2-0"] == "AZ-5"
    assert moves[0].peer_zones == ("AZ-1", "AZ-3", "AZ-4")


@pytest.mark.parametrize("seed", range(20))
def test_spec_scale_out_vdu1_2_and_vdu1_3(seed):
    """VDU1-3 fails in AZ-1; VDU1-2 (deployed fine) moves with it;
    existing VDU1-0/1 stay in AZ-1."""
    start = {**BASE, "VDU1-2": "AZ-1", "VDU1-3": "AZ-1"}
    result, moves, _ = run(start, {"VDU1-2", "VDU1-3"}, [["VDU1-3"]], seed)
    assert result["VDU1-0"] == result["VDU1-1"] == "AZ-1"
    assert result["VDU1-2"] == result["VDU1-3"] in {"AZ-4", "AZ-5"}
    assert (result["VDU2-0"], result["VDU2-1"]) == ("AZ-2", "AZ-3")
    assert moves[0].members == ("VDU1-2", "VDU1-3")


@pytest.mark.parametrize("seed", range(20))
def test_spec_scale_out_vdu2_3_anti_affinity_exhausted(seed):
    """VDU2-3 fails in AZ-5; every other zone holds a peer: any non-failed
    zone is chosen and the break is reported."""
    start = {**BASE, "VDU2-2": "AZ-4", "VDU2-3": "AZ-5"}
    result, moves, _ = run(start, {"VDU2-2", "VDU2-3"}, [["VDU2-3"]], seed)
    assert result["VDU2-3"] in {"AZ-1", "AZ-2", "AZ-3", "AZ-4"}
    assert result["VDU2-2"] == "AZ-4"
    assert moves[0].anti_affinity_broken
    assert moves[0].peer_zones == ("AZ-1", "AZ-2", "AZ-3", "AZ-4")


def test_spec_scale_out_vdu2_3_reaches_every_allowed_zone():
    seen = {
        run(
            {**BASE, "VDU2-2": "AZ-4", "VDU2-3": "AZ-5"},
            {"VDU2-2", "VDU2-3"},
            [["VDU2-3"]],
            seed,
        )[0]["VDU2-3"]
        for seed in range(60)
    }
    assert seen == {"AZ-1", "AZ-2", "AZ-3", "AZ-4"}


# -- randomness ---------------------------------------------------------------
def test_same_seed_same_choice_and_both_candidates_reachable():
    picks = [
        run(dict(BASE), set(BASE), [["VDU1-0"]], seed)[0]["VDU1-0"]
        for seed in range(40)
    ]
    assert set(picks) == {"AZ-4", "AZ-5"}
    again = [
        run(dict(BASE), set(BASE), [["VDU1-0"]], seed)[0]["VDU1-0"]
        for seed in range(40)
    ]
    assert picks == again


def test_choice_does_not_depend_on_zone_order():
    rng1, rng2 = random.Random(7), random.Random(7)
    args = (("VDU1-0",), members(BASE, set(BASE)), BASE)
    a = az_select.choose_zone(*args, ZONES, {"AZ-1"}, SPEC_RULES, rng1)
    b = az_select.choose_zone(
        *args, list(reversed(ZONES)), {"AZ-1"}, SPEC_RULES, rng2
    )
    assert a.zone == b.zone


# -- exhaustion and cap -------------------------------------------------------
def test_failed_zones_are_never_chosen_again():
    first, _, _ = run(dict(BASE), set(BASE), [["VDU1-0"]], seed=1)
    result, _, state = run(
        dict(BASE), set(BASE), [["VDU1-0"], ["VDU1-0"]], seed=1
    )
    assert state.failed_zones == {"AZ-1", first["VDU1-0"]}
    assert result["VDU1-0"] not in state.failed_zones
    assert result["VDU1-0"] == result["VDU1-1"]


def test_no_zone_left_names_the_zones_tried():
    state = az_select.Reselection(
        members=members({"VDU1-0": "AZ-1"}, {"VDU1-0"}),
        zones=["AZ-1", "AZ-2"],
        rules=ZoneRules(),
        limit=10,
        rng=random.Random(0),
    )
    assignment, _ = state.next({"VDU1-0": "AZ-1"}, ["VDU1-0"])
    assert assignment == {"VDU1-0": "AZ-2"}
    with pytest.raises(az_select.NoZoneLeft, match="AZ-1, AZ-2") as exc:
        state.next(assignment, ["VDU1-0"])
    assert exc.value.members == ("VDU1-0",)


def test_all_zones_full_spec_vnf_ends_with_no_zone():
    assignment = dict(BASE)
    state = az_select.Reselection(
        members(BASE, set(BASE)), ZONES, SPEC_RULES, 5, random.Random(0)
    )
    assignment, _ = state.next(assignment, ["VDU1-0", "VDU2-0", "VDU2-1"])
    assert set(assignment.values()) <= {"AZ-4", "AZ-5"}
    with pytest.raises(az_select.NoZoneLeft) as exc:
        state.next(assignment, list(assignment))
    assert exc.value.failed_zones == tuple(ZONES)
    assert state.count == 2


@pytest.mark.parametrize("cap", [1, 2, 3])
def test_retry_cap_is_honoured(cap):
    state = az_select.Reselection(
        members({"VDU1-0": "AZ-1"}, {"VDU1-0"}),
        ZONES,
        ZoneRules(),
        az_select.reselection_limit(cap, ZONES),
        random.Random(0),
    )
    assignment = {"VDU1-0": "AZ-1"}
    for _ in range(cap):
        assignment, _ = state.next(assignment, ["VDU1-0"])
    with pytest.raises(az_select.RetryLimitReached, match=f"after {cap} "):
        state.next(assignment, ["VDU1-0"])
    assert state.count == cap


def test_cap_zero_means_one_try_per_zone():
    assert az_select.reselection_limit(0, ZONES) == 5
    assert az_select.reselection_limit(2, ZONES) == 2
    assert az_select.reselection_limit(9, ZONES) == 9


def test_unmovable_failure_cannot_move():
    with pytest.raises(az_select.CannotMove, match="VDU1-0"):
        run(dict(BASE), {"VDU2-0"}, [["VDU1-0"]])


def test_incomplete_vnfc_in_a_failed_zone_moves_too():
    """VDU2-1 was cancelled by Heat while in AZ-1, where VDU1 just failed:
    it must not wait for its own failure there."""
    start = {**BASE, "VDU2-1": "AZ-1"}
    state = az_select.Reselection(
        members(start, set(start)), ZONES, SPEC_RULES, 5, random.Random(0)
    )
    result, moves = state.next(start, ["VDU1-0"], incomplete={"VDU2-1"})
    assert result["VDU2-1"] not in {"AZ-1"}
    assert {m.members for m in moves} == {("VDU1-0", "VDU1-1"), ("VDU2-1",)}


def test_incomplete_vnfc_elsewhere_stays():
    state = az_select.Reselection(
        members(BASE, set(BASE)), ZONES, SPEC_RULES, 5, random.Random(0)
    )
    result, _ = state.next(dict(BASE), ["VDU1-0"], incomplete={"VDU2-1"})
    assert result["VDU2-1"] == "AZ-3"


# -- rules --------------------------------------------------------------------
def test_affinity_mates_are_not_anti_affinity_peers():
    assert SPEC_RULES.anti("VDU1", "VDU2")
    assert SPEC_RULES.anti("VDU2", "VDU2")
    assert not SPEC_RULES.anti("VDU1", "VDU1")
    assert SPEC_RULES.affine("VDU1", "VDU1")


def test_groups_follow_affinity_transitively_among_movable():
    rules = ZoneRules(affinity=(frozenset({"A", "B"}), frozenset({"B", "C"})))
    ms = [
        Member("A-0", "A", True),
        Member("B-0", "B", True),
        Member("C-0", "C", True),
        Member("C-1", "C", False),
        Member("D-0", "D", True),
    ]
    assert az_select.groups_to_move(ms, ["A-0"], rules) == [
        ("A-0", "B-0", "C-0")
    ]
    assert az_select.groups_to_move(ms, ["D-0", "C-0"], rules) == [
        ("A-0", "B-0", "C-0"),
        ("D-0",),
    ]
    assert az_select.groups_to_move(ms, ["unknown"], rules) == []


def test_no_rules_any_non_failed_zone():
    ms = [Member("X-0", "X", True), Member("Y-0", "Y", False)]
    move = az_select.choose_zone(
        ["X-0"],
        ms,
        {"X-0": "AZ-1", "Y-0": "AZ-2"},
        ZONES,
        {"AZ-1"},
        ZoneRules(),
        random.Random(0),
    )
    assert move.zone in {"AZ-2", "AZ-3", "AZ-4", "AZ-5"}
    assert not move.anti_affinity_broken


def test_rules_from_flavour_use_zone_scope_only():
    from tacker_ng.objects.vnfd import AFFINITY, ANTI_AFFINITY, PlacementRule

    class Flavour:
        affinity_rules = (
            PlacementRule("a", AFFINITY, "zone", ("VDU1",), ("VDU1",)),
            PlacementRule(
                "b", ANTI_AFFINITY, "nfvi_node", ("VDU2",), ("VDU2",)
            ),
            PlacementRule(
                "c", ANTI_AFFINITY, "zone", ("VDU1", "VDU2"), ("VDU1", "VDU2")
            ),
        )

    rules = ZoneRules.of_flavour(Flavour())
    assert rules.affinity == (frozenset({"VDU1"}),)
    assert rules.anti_affinity == (frozenset({"VDU1", "VDU2"}),)


# -- properties ----------------------------------------------------------
names = st.sampled_from(["VDU1", "VDU2", "VDU3"])


@settings(max_examples=200, deadline=None)
@given(
    vnfcs=st.lists(
        st.tuples(names, st.sampled_from(ZONES), st.booleans()),
        min_size=1,
        max_size=8,
    ),
    failed_zones=st.sets(st.sampled_from(ZONES), max_size=4),
    seed=st.integers(0, 1000),
)
def test_properties(vnfcs, failed_zones, seed):
    """Never a failed zone; anti-affinity kept whenever the move says so;
    affinity groups land together; unmovable VNFCs never move."""
    assignment = {}
    ms = []
    for i, (vdu, zone, movable) in enumerate(vnfcs):
        name = f"{vdu}-{i}"
        assignment[name] = zone
        ms.append(Member(name, vdu, movable))
    failed = [m.name for m in ms if m.movable and assignment[m.name]][:2]
    failed_zones = set(failed_zones) | {assignment[n] for n in failed}
    try:
        result, moves = az_select.reselect(
            ms,
            assignment,
            failed,
            ZONES,
            failed_zones,
            SPEC_RULES,
            random.Random(seed),
        )
    except az_select.NoZoneLeft:
        assert failed_zones == set(ZONES)
        return
    for m in ms:
        if not m.movable:
            assert result[m.name] == assignment[m.name]
    any_broken = any(m.anti_affinity_broken for m in moves)
    for move in moves:
        assert move.zone not in failed_zones
        if not any_broken:
            peers = az_select.peer_zones(move.members, ms, result, SPEC_RULES)
            assert move.zone not in peers
        assert len({result[n] for n in move.members}) == 1
