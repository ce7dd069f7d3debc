"""The reselection loop with scripted stack attempts (no services).

Each scripted attempt answers like the driver's attempt function: ok, or
the failures Heat reported. The loop must call the pure rules, honour
the options and stop with the right ProblemDetails.
"""

import logging
import random

import pytest
from oslo_config import cfg

from tacker_ng.conf import openstack as openstack_conf
from tacker_ng.conf import placement as placement_conf
from tacker_ng.infra.openstack import az_reselect, errors
from tacker_ng.placement import az_errors, az_select

ZONES = ["AZ-1", "AZ-2", "AZ-3", "AZ-4", "AZ-5"]
RULES = az_select.ZoneRules(
    affinity=(frozenset({"VDU1"}),),
    anti_affinity=(frozenset({"VDU1", "VDU2"}),),
)
START = {
    "VDU1-0": "AZ-1",
    "VDU1-1": "AZ-1",
    "VDU2-0": "AZ-2",
    "VDU2-1": "AZ-3",
}
MEMBERS = [az_select.Member(n, n[:4], True) for n in START]
NVH = (
    "Resource CREATE failed: ResourceInError: resources.{}.resources.X: "
    'Went to status ERROR due to "Message: No valid host was found. , '
    'Code: 500"'
)


@pytest.fixture
def conf():
    c = cfg.ConfigOpts()
    placement_conf.register_opts(c)
    openstack_conf.register_opts(c)
    c([], project="t")
    c.set_override("fallback_best_effort", True, group="placement")
    return c


class Cloud:
    """Zones in ``full`` refuse every VNFC; records each attempt."""

    def __init__(self, full):
        self.full = set(full)
        self.attempts = []

    def attempt(self, zones):
        self.attempts.append(dict(zones))
        failed = [n for n, z in zones.items() if z in self.full]
        if not failed:
            return az_reselect.Outcome(ok=True)
        found = az_errors.failures(
            [
                {
                    "resource_name": "stack",
                    "resource_status": "CREATE_FAILED",
                    "resource_status_reason": NVH.format(n),
                }
                for n in failed
            ],
            set(zones),
            placement_conf.DEFAULT_AZ_RESOURCE_ERROR_REGEX,
        )
        return az_reselect.Outcome(False, found, set(failed), "failed")


def run(conf, cloud, seed=0, start=START, members=MEMBERS):
    saved = []
    result = az_reselect.run(
        attempt=cloud.attempt,
        assignment=dict(start),
        members=members,
        rules=RULES,
        list_zones=lambda: list(ZONES),
        on_change=saved.append,
        stack="vnf-x",
        action="CREATE",
        conf=conf,
        rng=random.Random(seed),
    )
    return result, saved


@pytest.mark.parametrize("seed", range(10))
def test_spec_instantiate_two_attempts(conf, seed):
    cloud = Cloud({"AZ-1", "AZ-2"})
    result, saved = run(conf, cloud, seed)
    assert len(cloud.attempts) == 2
    assert cloud.attempts[0] == START
    assert result["VDU1-0"] == result["VDU1-1"]
    assert {result["VDU1-0"], result["VDU2-0"]} == {"AZ-4", "AZ-5"}
    assert saved == [result]


def test_four_full_zones_stay_within_full_plus_one(conf, caplog):
    caplog.set_level(logging.WARNING)
    for seed in range(20):
        cloud = Cloud({"AZ-1", "AZ-2", "AZ-3", "AZ-4"})
        result, _ = run(conf, cloud, seed)
        assert len(cloud.attempts) <= 5
        assert set(result.values()) == {"AZ-5"}
    assert "anti-affinity is broken" in caplog.text


def test_fallback_off_fails_at_once(conf):
    conf.set_override("fallback_best_effort", False, group="placement")
    cloud = Cloud({"AZ-1"})
    with pytest.raises(errors.InsufficientCapacity) as exc:
        run(conf, cloud)
    assert len(cloud.attempts) == 1
    assert "fallback_best_effort is false" in exc.value.detail
    assert exc.value.status == 409


def test_non_capacity_failure_fails_at_once(conf):
    def attempt(zones):
        found = az_errors.failures(
            [
                {
                    "resource_name": "VDU2-0",
                    "resource_status": "CREATE_FAILED",
                    "resource_status_reason": "Forbidden: Quota exceeded",
                }
            ],
            set(zones),
            placement_conf.DEFAULT_AZ_RESOURCE_ERROR_REGEX,
        )
        return az_reselect.Outcome(False, found, {"VDU2-0"}, "x")

    with pytest.raises(errors.StackFailed, match="Quota exceeded") as exc:
        az_reselect.run(
            attempt=attempt,
            assignment=dict(START),
            members=MEMBERS,
            rules=RULES,
            list_zones=lambda: pytest.fail("zones are not needed"),
            on_change=lambda z: pytest.fail("nothing to reselect"),
            stack="s",
            action="CREATE",
            conf=conf,
        )
    assert exc.value.status == 502


def test_failure_without_named_resource_uses_the_stack_reason(conf):
    def attempt(zones):
        return az_reselect.Outcome(False, [], set(), "Timed out")

    with pytest.raises(errors.StackFailed, match="Timed out"):
        az_reselect.run(
            attempt=attempt,
            assignment={},
            members=[],
            rules=RULES,
            list_zones=list,
            on_change=lambda z: None,
            stack="s",
            action="UPDATE",
            conf=conf,
        )


def test_all_full_names_zones(conf):
    cloud = Cloud(set(ZONES))
    with pytest.raises(errors.InsufficientCapacity) as exc:
        run(conf, cloud)
    assert "AZ-1, AZ-2, AZ-3, AZ-4, AZ-5" in exc.value.detail
    assert len(cloud.attempts) == 2


def test_cap(conf):
    conf.set_override("az_select_retry", 1, group="placement")
    cloud = Cloud({"AZ-1", "AZ-2", "AZ-3", "AZ-4"})
    with pytest.raises(errors.InsufficientCapacity, match="after 1 "):
        run(conf, cloud, seed=3)
    assert len(cloud.attempts) == 2


def test_seed_from_config_repeats(conf):
    conf.set_override("zone_choice_seed", 5, group="openstack")
    picks = {az_reselect.rng_for(conf).choice(ZONES) for _ in range(10)}
    assert len(picks) == 1


def test_existing_vnfcs_never_move(conf):
    members = [
        az_select.Member(n, n[:4], n in {"VDU2-2", "VDU2-3"})
        for n in [*START, "VDU2-2", "VDU2-3"]
    ]
    start = {**START, "VDU2-2": "AZ-4", "VDU2-3": "AZ-5"}
    cloud = Cloud({"AZ-5"})
    result, _ = run(conf, cloud, 1, start, members)
    assert {n: result[n] for n in START} == START
    assert result["VDU2-3"] in {"AZ-1", "AZ-2", "AZ-3", "AZ-4"}


def test_heat_reasons_are_classified_raw_and_shown_scrubbed(conf, caplog):
    """The capacity regex reads Heat's raw text (reselection happens);
    the ProblemDetails shows the cloud's verdict without the addresses
    Heat put in it (issue #27)."""
    raw = (
        "Resource CREATE failed: ResourceInError: resources.{}.resources.X: "
        'Went to status ERROR due to "Message: No valid host was found. '
        'Unable to reach http://10.0.0.8:8778/placement , Code: 500"'
    )

    def attempt(zones):
        found = az_errors.failures(
            [
                {
                    "resource_name": "stack",
                    "resource_status": "CREATE_FAILED",
                    "resource_status_reason": raw.format(n),
                }
                for n in zones
            ],
            set(zones),
            placement_conf.DEFAULT_AZ_RESOURCE_ERROR_REGEX,
        )
        return az_reselect.Outcome(False, found, set(zones), "failed")

    conf.set_override("az_select_retry", 1, group="placement")
    with pytest.raises(errors.InsufficientCapacity) as exc:
        az_reselect.run(
            attempt=attempt,
            assignment={"VDU1-0": "AZ-1"},
            members=[az_select.Member("VDU1-0", "VDU1", True)],
            rules=az_select.ZoneRules(),
            list_zones=lambda: list(ZONES),
            on_change=lambda z: None,
            stack="s",
            action="CREATE",
            conf=conf,
            rng=random.Random(0),
        )
    detail = exc.value.detail
    assert "No valid host was found" in detail  # reselection was tried
    assert "after 1 " in detail
    assert "10.0.0.8" not in detail and "8778" not in detail
    assert "<URL>" in detail


def test_a_stack_reason_with_an_address_is_scrubbed(conf):
    def attempt(zones):
        return az_reselect.Outcome(
            False, [], set(), "Unable to connect to nova.internal:8774: down"
        )

    with pytest.raises(errors.StackFailed) as exc:
        az_reselect.run(
            attempt=attempt,
            assignment={},
            members=[],
            rules=RULES,
            list_zones=list,
            on_change=lambda z: None,
            stack="s",
            action="UPDATE",
            conf=conf,
        )
    assert exc.value.detail == (
        "Heat stack s UPDATE failed: Unable to connect to <address>: down"
    )
