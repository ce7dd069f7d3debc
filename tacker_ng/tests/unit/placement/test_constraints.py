"""Zone assignment of the local NFVO under (anti-)affinity constraints."""

import itertools

import pytest

from tacker_ng.placement import constraints as pc

ZONES = ["az-1", "az-2", "az-3"]


def con(kind, ids, old=(), fallback=False, scope="ZONE"):
    res = [{"idType": "GRANT", "resourceId": i} for i in ids]
    res += [{"idType": "RES_MGMT", "resourceId": o} for o in old]
    return {
        "affinityOrAntiAffinity": kind,
        "scope": scope,
        "resource": res,
        "fallbackBestEffort": fallback,
    }


def test_no_constraints_take_the_first_zone():
    assert pc.assign_zones(["a", "b"], [], ZONES) == {"a": "az-1", "b": "az-1"}


def test_empty_request():
    assert pc.assign_zones([], [], []) == {}


def test_no_zones_cannot_place():
    with pytest.raises(pc.CannotPlace):
        pc.assign_zones(["a"], [], [])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_anti_affinity_distinct_zones(n):
    ids = [f"r{i}" for i in range(n)]
    got = pc.assign_zones(ids, [con("ANTI_AFFINITY", ids)], ZONES)
    assert len(set(got.values())) == n
    assert list(got.values()) == ZONES[:n]


def test_anti_affinity_more_members_than_zones_strict_fails():
    ids = ["a", "b", "c", "d"]
    with pytest.raises(pc.CannotPlace):
        pc.assign_zones(ids, [con("ANTI_AFFINITY", ids)], ZONES)


def test_anti_affinity_more_members_than_zones_best_effort():
    ids = ["a", "b", "c", "d"]
    got = pc.assign_zones(
        ids, [con("ANTI_AFFINITY", ids, fallback=True)], ZONES
    )
    assert set(got.values()) == set(ZONES)
    assert sorted(got.values()).count("az-1") == 2


def test_anti_affinity_avoids_existing_members():
    got = pc.assign_zones(
        ["new"],
        [con("ANTI_AFFINITY", ["new"], old=["srv-1", "srv-2"])],
        ZONES,
        {"srv-1": "az-1", "srv-2": "az-2"},
    )
    assert got == {"new": "az-3"}


def test_affinity_shares_a_zone_and_follows_existing():
    got = pc.assign_zones(
        ["a", "b"],
        [con("AFFINITY", ["a", "b"], old=["srv-1"])],
        ZONES,
        {"srv-1": "az-3"},
    )
    assert got == {"a": "az-3", "b": "az-3"}


def test_affinity_groups_and_anti_affinity_between_groups():
    constraints = [
        con("AFFINITY", ["a1", "a2"]),
        con("AFFINITY", ["b1", "b2"]),
        con("ANTI_AFFINITY", ["a1", "b1"]),
    ]
    got = pc.assign_zones(["a1", "a2", "b1", "b2"], constraints, ZONES)
    assert got["a1"] == got["a2"]
    assert got["b1"] == got["b2"]
    assert got["a1"] != got["b1"]


def test_pinned_affinity_conflicting_with_anti_affinity():
    constraints = [
        con("AFFINITY", ["a"], old=["srv-1"]),
        con("ANTI_AFFINITY", ["a"], old=["srv-2"]),
    ]
    existing = {"srv-1": "az-1", "srv-2": "az-1"}
    with pytest.raises(pc.CannotPlace):
        pc.assign_zones(["a"], constraints, ZONES, existing)
    constraints[1]["fallbackBestEffort"] = True
    assert pc.assign_zones(["a"], constraints, ZONES, existing) == {
        "a": "az-1"
    }


def test_non_zone_scopes_do_not_constrain_zones():
    ids = ["a", "b", "c", "d"]
    got = pc.assign_zones(
        ids, [con("ANTI_AFFINITY", ids, scope="NFVI_NODE")], ZONES
    )
    assert set(got.values()) == {"az-1"}


@pytest.mark.parametrize("zones", list(itertools.permutations(ZONES)))
def test_zone_preference_order_is_respected(zones):
    got = pc.assign_zones(["x"], [], list(zones))
    assert got["x"] == zones[0]


# -- a reservation's slots per zone (capacity) ------------------------------

SAMPLE = [
    con("AFFINITY", ["vdu1-0"]),
    con("ANTI_AFFINITY", ["vdu2-0", "vdu2-1"]),
]


def test_capacity_one_slot_per_zone_spreads_the_stock_sample():
    """The demo's lease (one host per zone): first-fit put vdu1-0 and
    vdu2-0 in az-1, which has room for one."""
    ids = ["vdu1-0", "vdu2-0", "vdu2-1"]
    got = pc.assign_zones(ids, SAMPLE, ZONES, {}, dict.fromkeys(ZONES, 1))
    assert sorted(got.values()) == ZONES
    # Without capacity, first-fit is kept (the preferred zone first).
    assert pc.assign_zones(ids, SAMPLE, ZONES)["vdu2-0"] == "az-1"


def test_capacity_places_the_bigger_affinity_group_first():
    ids = ["a1", "a2", "b1"]
    constraints = [con("AFFINITY", ["a1", "a2"])]
    got = pc.assign_zones(ids, constraints, ZONES, {}, {"az-1": 1, "az-2": 2})
    assert got == {"a1": "az-2", "a2": "az-2", "b1": "az-1"}


def test_capacity_backtracks_over_anti_affinity():
    ids = ["a", "b", "c"]
    constraints = [con("ANTI_AFFINITY", ["a", "b"])]
    capacity = {"az-1": 2, "az-2": 1}
    got = pc.assign_zones(ids, constraints, ZONES, {}, capacity)
    assert got["a"] != got["b"]
    assert sum(1 for z in got.values() if z == "az-2") <= 1


def test_capacity_too_small_says_how_many_slots():
    with pytest.raises(pc.CannotPlace) as exc:
        pc.assign_zones(["a", "b", "c"], [], ZONES, {}, {"az-1": 1, "az-2": 1})
    assert "2 free instance slot(s) (az-1: 1, az-2: 1, az-3: 0)" in str(
        exc.value
    )
    assert "3 new VNFC(s)" in str(exc.value)


def test_capacity_enough_slots_but_not_under_the_rules():
    """Two anti-affine VNFCs and slots in one zone only."""
    ids = ["a", "b"]
    with pytest.raises(pc.CannotPlace) as exc:
        pc.assign_zones(
            ids, [con("ANTI_AFFINITY", ids)], ZONES, {}, {"az-1": 2}
        )
    assert "cannot hold the 2 new VNFC(s)" in str(exc.value)
    # fallbackBestEffort lets them share the zone.
    got = pc.assign_zones(
        ids,
        [con("ANTI_AFFINITY", ids, fallback=True)],
        ZONES,
        {},
        {"az-1": 2},
    )
    assert got == {"a": "az-1", "b": "az-1"}


def test_capacity_pinned_affinity_needs_room_in_its_zone():
    constraints = [con("AFFINITY", ["a"], old=["old-1"])]
    existing = {"old-1": "az-3"}
    assert pc.assign_zones(
        ["a"], constraints, ZONES, existing, {"az-3": 1}
    ) == {"a": "az-3"}
    with pytest.raises(pc.CannotPlace):
        pc.assign_zones(["a"], constraints, ZONES, existing, {"az-1": 1})


@pytest.mark.parametrize("slots", list(itertools.product([0, 1, 2], repeat=3)))
def test_capacity_never_exceeded(slots):
    ids = ["vdu1-0", "vdu2-0", "vdu2-1"]
    capacity = dict(zip(ZONES, slots, strict=True))
    try:
        got = pc.assign_zones(ids, SAMPLE, ZONES, {}, capacity)
    except pc.CannotPlace:
        # Only when no placement exists: fewer slots than VNFCs, or the
        # two anti-affine VNFCs have one zone with room only.
        assert sum(slots) < 3 or sum(1 for n in slots if n) < 2
        return
    for zone in ZONES:
        assert list(got.values()).count(zone) <= capacity[zone]
    assert got["vdu2-0"] != got["vdu2-1"]
