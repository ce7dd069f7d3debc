"""Scaling rules: parsing against the VNFD and the measurement table, and
the decision (thresholds, projected scale in, cooldown, levels)."""

import datetime

import pytest

from tacker_ng.objects import vnfd as model
from tacker_ng.pm import measurements
from tacker_ng.pm import scaling_rules as sr

NOW = datetime.datetime(2026, 11, 30, 12, 0, tzinfo=datetime.UTC)
D = sr.Direction


def _vdu(name, deltas=None):
    return model.Vdu(
        node_name=name,
        name=name,
        description="",
        vdu_profile=model.VduProfile(1, 10),
        aspect_deltas=deltas or {},
    )


def flavour():
    """worker_aspect adds 2 VDU1 and 1 VDU2 per step; VDU3 does not
    scale; db_aspect scales nothing."""
    return model.DeploymentFlavour(
        flavour_id="simple",
        flavour_description="",
        file="f.yaml",
        vnf_node_name="VNF",
        vdus={
            "VDU1": _vdu("VDU1", {"worker_aspect": {"delta_1": 2}}),
            "VDU2": _vdu("VDU2", {"worker_aspect": {"delta_1": 1}}),
            "VDU3": _vdu("VDU3"),
        },
        virtual_storages={},
        vdu_cps={},
        virtual_links={},
        scaling_aspects={
            "worker_aspect": model.ScalingAspect(
                "worker_aspect", "w", "", 5, ("delta_1",)
            ),
            "db_aspect": model.ScalingAspect("db_aspect", "d", "", 2, ()),
        },
        instantiation_levels={},
        default_instantiation_level_id=None,
        placement_groups={},
        affinity_rules=(),
        lcm_operations={},
        substitution_requirements={},
        additional_parameters={},
    )


def _raw(**over):
    raw = {
        "metric": "VCpuUsageMeanVnf",
        "aspectId": "worker_aspect",
        "scaleOutThreshold": 70,
        "scaleInThreshold": 30,
    }
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not None}


def _parse(*rules, default_cooldown=300):
    return sr.parse(
        {"scalingRules": list(rules)},
        flavour(),
        measurements.DEFAULTS,
        default_cooldown,
    )


# -- parsing -----------------------------------------------------------


def test_no_rules_is_no_rules():
    assert sr.parse(None, flavour(), measurements.DEFAULTS, 1) == []
    assert sr.parse({"x": 1}, flavour(), measurements.DEFAULTS, 1) == []


def test_defaults_resolved_from_config_and_vnfd():
    (rule,) = _parse(_raw())
    assert rule == sr.ScalingRule(
        index=0,
        metric="VCpuUsageMeanVnf",
        aspect_id="worker_aspect",
        scale_out_threshold=70.0,
        scale_in_threshold=30.0,
        number_of_steps=1,
        cooldown=300,
        min_scale_level=0,
        max_scale_level=5,
        vdu_ids=("VDU1", "VDU2"),
        vnfcs_per_step=3,
    )


def test_explicit_values_and_vdu_ids_limit_the_vnfcs():
    (rule,) = _parse(
        _raw(
            numberOfSteps=2,
            cooldown=0,
            minScaleLevel=1,
            maxScaleLevel=3,
            vduIds=["VDU1", "VDU3", "VDU1"],
        )
    )
    assert (rule.number_of_steps, rule.cooldown) == (2, 0)
    assert (rule.min_scale_level, rule.max_scale_level) == (1, 3)
    assert rule.vdu_ids == ("VDU1", "VDU3")
    assert rule.vnfcs_per_step == 2  # VDU3 does not scale
    assert rule.counts("VDU1") and not rule.counts("VDU2")


def test_aspect_without_deltas_counts_every_vnfc():
    (rule,) = _parse(_raw(aspectId="db_aspect"))
    assert rule.vdu_ids == () and rule.vnfcs_per_step == 0
    assert rule.counts("anything") and rule.counts(None)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("x", "scalingRules: a list of rules is required."),
        (["x"], "scalingRules[0]: an object is required."),
        ([_raw(metric="Nope")], "scalingRules[0].metric: 'Nope' is not"),
        ([_raw(metric="ByteIncomingVnfExtCp")], "is not a Vnf or Vnfc"),
        ([_raw(metric=None)], "scalingRules[0].metric: None"),
        ([_raw(aspectId="x")], "scalingRules[0].aspectId: 'x' is not a"),
        (
            [_raw(scaleInThreshold=70)],
            "scalingRules[0].scaleInThreshold: 70 must be below "
            "scaleOutThreshold 70.",
        ),
        ([_raw(scaleInThreshold=80)], "must be below scaleOutThreshold"),
        ([_raw(scaleOutThreshold="70")], "scaleOutThreshold: a number"),
        ([_raw(scaleOutThreshold=True)], "scaleOutThreshold: a number"),
        ([_raw(scaleInThreshold=None)], "scaleInThreshold: a number"),
        ([_raw(numberOfSteps=0)], "numberOfSteps: 0 is below 1."),
        ([_raw(numberOfSteps=1.5)], "numberOfSteps: an integer"),
        ([_raw(cooldown=-1)], "cooldown: -1 is below 0."),
        ([_raw(minScaleLevel=-1)], "minScaleLevel: -1 is below 0."),
        (
            [_raw(maxScaleLevel=6)],
            "maxScaleLevel: 6 exceeds the max_scale_level 5 of aspect "
            "'worker_aspect'.",
        ),
        (
            [_raw(minScaleLevel=3, maxScaleLevel=3)],
            "minScaleLevel: 3 must be below maxScaleLevel 3.",
        ),
        ([_raw(minScaleLevel=6)], "minScaleLevel: 6 must be below"),
        ([_raw(vduIds="VDU1")], "vduIds: a list of VDU ids"),
        ([_raw(vduIds=["VDU9"])], "vduIds: VDU9 not a VDU of flavour"),
        ([_raw(scaleOutThresold=1)], "scalingRules[0].scaleOutThresold: "),
        ([_raw(), _raw(aspectId="y")], "scalingRules[1].aspectId"),
    ],
)
def test_invalid_rules_are_422_naming_the_attribute(rules, message):
    with pytest.raises(sr.InvalidScalingRule) as err:
        sr.parse(
            {"scalingRules": rules}, flavour(), measurements.DEFAULTS, 300
        )
    assert err.value.status == 422
    assert message in str(err.value)


def test_a_metric_of_the_operators_table_is_accepted():
    table = measurements.parse(
        {"AppLoad": {"query": "x", "objectTypes": ["Vnfc"]}}
    )
    (rule,) = sr.parse(
        {"scalingRules": [_raw(metric="AppLoad")]}, flavour(), table, 1
    )
    assert rule.metric == "AppLoad"


# -- deciding ----------------------------------------------------------


def _rule(**over):
    (rule,) = _parse(_raw(**over))
    return rule


def _decide(rule, values, level=1, n=None, ended=None):
    return sr.decide(
        rule, values, level, len(values) if n is None else n, ended, NOW
    )


def test_scale_out_at_and_above_the_threshold():
    rule = _rule(numberOfSteps=2)
    for values in ([70, 70], [90, 60]):
        d = _decide(rule, values)
        assert (d.direction, d.steps) == (D.SCALE_OUT, 2)
        assert "scaleOutThreshold 70" in d.reason and d.rule is rule


def test_scale_out_steps_capped_by_max_level_and_none_at_max():
    rule = _rule(numberOfSteps=3, maxScaleLevel=4)
    assert _decide(rule, [95], level=2).steps == 2
    d = _decide(rule, [95], level=4)
    assert d.direction is D.NONE and "at maxScaleLevel 4" in d.reason


def test_between_thresholds_nothing():
    for values in ([69.9], [30.1], [50, 50]):
        assert _decide(_rule(), values).direction is D.NONE


def test_scale_in_at_and_below_the_threshold_when_projection_is_low():
    # 6 VNFCs at 30 %, one step removes 3: 60 % on the 3 left < 70.
    d = _decide(_rule(), [30] * 6, level=1)
    assert (d.direction, d.steps) == (D.SCALE_IN, 1)
    assert "60 projected on 3 VNFCs" in d.reason


def test_scale_in_refused_when_the_projection_reaches_scale_out():
    # The anti-flapping rule: 6 VNFCs at 30 %, out at 55: 60 >= 55.
    d = _decide(_rule(scaleOutThreshold=55), [30] * 6, level=1)
    assert d.direction is D.NONE
    assert "scaling in would bring it to scaleOutThreshold 55" in d.reason
    # exactly at the scale-out threshold after: refused too.
    assert _decide(_rule(scaleOutThreshold=60), [30] * 6).direction is D.NONE


def test_scale_in_takes_fewer_steps_when_more_would_flap():
    # 9 VNFCs at 20 %: 2 steps leave 3 (60 % >= 50), 1 step leaves 6 (30).
    rule = _rule(scaleOutThreshold=50, numberOfSteps=2)
    d = _decide(rule, [20] * 9, level=3)
    assert (d.direction, d.steps) == (D.SCALE_IN, 1)


def test_scale_in_never_removes_every_measured_vnfc():
    d = _decide(_rule(), [10] * 3, level=1)  # 3 - 3 = 0 left
    assert d.direction is D.NONE


def test_scale_in_projection_counts_vnfcs_without_values():
    # 2 values of 6 VNFCs: the load spreads over all 6.
    d = _decide(_rule(), [20, 20], level=1, n=6)
    assert d.direction is D.SCALE_IN and "40 projected on 3" in d.reason


def test_scale_in_steps_capped_by_min_level_and_none_at_min():
    rule = _rule(numberOfSteps=3, minScaleLevel=1)
    assert _decide(rule, [1] * 30, level=3).steps == 2
    d = _decide(rule, [1] * 30, level=1)
    assert d.direction is D.NONE and "at minScaleLevel 1" in d.reason


def test_aspect_without_deltas_projects_the_same_mean():
    rule = _rule(aspectId="db_aspect")
    assert _decide(rule, [10], level=1).direction is D.SCALE_IN


def test_no_values_no_decision():
    d = _decide(_rule(), [])
    assert d.direction is D.NONE and "no value of VCpuUsageMeanVnf" in d.reason


@pytest.mark.parametrize(
    ("ago", "cooling"), [(0, True), (299, True), (300, False), (301, False)]
)
def test_cooldown_after_the_last_scale(ago, cooling):
    ended = NOW - datetime.timedelta(seconds=ago)
    for values in ([95], [1] * 30):
        d = _decide(_rule(), values, level=2, ended=ended)
        assert (d.direction is D.NONE) is cooling
        if cooling:
            assert d.reason.startswith("cooldown until")


def test_zero_cooldown_and_never_scaled():
    assert _decide(_rule(cooldown=0), [95], ended=NOW).direction is (
        D.SCALE_OUT
    )
    assert _decide(_rule(), [95], ended=None).direction is D.SCALE_OUT


def test_scale_level_from_scale_status():
    info = {"scaleStatus": [{"aspectId": "a", "scaleLevel": 2}]}
    assert sr.scale_level(info, "a") == 2
    assert sr.scale_level(info, "b") == 0
    assert sr.scale_level(None, "a") == 0


def test_values_of_the_rules_vnfcs_only():
    rule = _rule(vduIds=["VDU1"])
    vnfcs = [
        {"id": "c1", "vduId": "VDU1"},
        {"id": "c2", "vduId": "VDU1"},
        {"id": "c3", "vduId": "VDU2"},
    ]
    measured = {
        ("i", "c1"): 10.0,
        ("i", "c3"): 90.0,
        ("i", "gone"): 99.0,
        ("j", "c2"): 50.0,
    }
    assert sr.values_of(rule, "i", vnfcs, measured) == ([10.0], 2)
    # a per-VNF value stands for all of them
    assert sr.values_of(rule, "i", vnfcs, {("i", None): 42.0}) == ([42.0], 2)
    assert sr.values_of(rule, "i", vnfcs, {}) == ([], 2)


def _d(direction, steps, aspect="worker_aspect", index=0):
    rule = _rule(aspectId=aspect)
    rule = sr.ScalingRule(**{**rule.__dict__, "index": index})
    return sr.Decision(direction, steps, "r", rule)


def test_combine_out_on_any_in_on_all():
    out1, out2 = _d(D.SCALE_OUT, 1), _d(D.SCALE_OUT, 2, index=1)
    in1, in2 = _d(D.SCALE_IN, 1), _d(D.SCALE_IN, 2, index=1)
    none = _d(D.NONE, 0, index=2)
    assert sr.combine([out1, none, out2]) is out2
    assert sr.combine([in1, out1]) is out1
    assert sr.combine([in1, in2]) is in1
    assert sr.combine([in1, none]) is None
    assert sr.combine([]) is None
    assert sr.combine([none]) is None
    other_in = _d(D.SCALE_IN, 1, aspect="db_aspect")
    other_out = _d(D.SCALE_OUT, 1, aspect="db_aspect")
    assert sr.combine([other_in, in1, none]) is other_in
    assert sr.combine([in1, other_out]) is other_out


def test_describe_names_the_rule():
    assert _rule().describe() == {
        "index": 0,
        "metric": "VCpuUsageMeanVnf",
        "aspectId": "worker_aspect",
        "scaleOutThreshold": 70.0,
        "scaleInThreshold": 30.0,
    }
