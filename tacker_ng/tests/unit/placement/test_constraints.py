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
