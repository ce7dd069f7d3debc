"""The rules of PM job and threshold requests beyond their schemas: known
metrics of the object type, sane periods, instances the caller sees and
their own sub-objects. Every violation is a 422 naming the attribute."""

import datetime

import pytest

from tacker_ng.pm import measurements, rules

NOW = datetime.datetime(2026, 11, 29, 8, 0, tzinfo=datetime.UTC)
TABLE = measurements.DEFAULTS
LIMITS = {
    "min_collection_period": 10,
    "max_reporting_period": 86400,
    "now": NOW,
}


def _job(**changes):
    body = {
        "objectType": "Vnf",
        "objectInstanceIds": ["i1"],
        "criteria": {
            "performanceMetric": ["VCpuUsageMeanVnf"],
            "collectionPeriod": 60,
            "reportingPeriod": 300,
        },
        "callbackUri": "http://nfvo/cb",
    }
    criteria = changes.pop("criteria", {})
    body.update(changes)
    body["criteria"] = {**body["criteria"], **criteria}
    return {k: v for k, v in body.items() if v is not None}


def _refused(fn, *args, match, **kwargs):
    with pytest.raises(rules.InvalidPmRequest, match=match) as info:
        fn(*args, **kwargs)
    assert info.value.status == 422
    return info.value


def test_a_plain_job_passes():
    assert rules.check_pm_job(_job(), TABLE, **LIMITS) is None


@pytest.mark.parametrize(
    "metric",
    ["VCpuUsageMeanVnf", "VMemoryUsagePeakVnf", "VDiskUsageMeanVnf.i1"],
)
def test_compute_metrics_of_vnf_and_vnfc_jobs(metric):
    for object_type in ("Vnf", "Vnfc"):
        body = _job(
            objectType=object_type, criteria={"performanceMetric": [metric]}
        )
        rules.check_pm_job(body, TABLE, **LIMITS)


@pytest.mark.parametrize(
    ("object_type", "metric", "match"),
    [
        ("Vnf", "VCpuUsageAverageVnf", "not a performance metric"),
        ("Vnf", "ByteIncomingVnfExtCp", "not Vnf"),
        ("VnfExtCp", "ByteIncomingVnfIntCp", "not VnfExtCp"),
        ("VnfIntCp", "VCpuUsageMeanVnf", "not VnfIntCp"),
        ("Vnf", "VCpuUsageMeanVnf.other", "not an object instance"),
    ],
)
def test_unknown_or_misplaced_metrics(object_type, metric, match):
    body = _job(
        objectType=object_type, criteria={"performanceMetric": [metric]}
    )
    err = _refused(rules.check_pm_job, body, TABLE, **LIMITS, match=match)
    assert "criteria.performanceMetric" in err.detail


def test_groups_of_the_object_type():
    for object_type, group in (
        ("Vnfc", "VirtualisedComputeResource"),
        ("VnfIntCp", "VnfInternalCp"),
        ("VnfExtCp", "VnfExternalCp"),
    ):
        body = _job(
            objectType=object_type,
            criteria={
                "performanceMetric": None,
                "performanceMetricGroup": [group],
            },
        )
        body["criteria"].pop("performanceMetric")
        rules.check_pm_job(body, TABLE, **LIMITS)
    body = _job(criteria={"performanceMetricGroup": ["VnfExternalCp"]})
    _refused(
        rules.check_pm_job, body, TABLE, **LIMITS,
        match="VirtualisedComputeResource",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("criteria", "match"),
    [
        ({"collectionPeriod": 5, "reportingPeriod": 5}, "shorter than 10"),
        ({"collectionPeriod": 60, "reportingPeriod": 90}, "not a multiple"),
        ({"collectionPeriod": 60, "reportingPeriod": 30}, "not a multiple"),
        (
            {"collectionPeriod": 60, "reportingPeriod": 86460},
            "longer than 86400",
        ),
        ({"reportingBoundary": "2026-11-29T07:59:59Z"}, "not in the future"),
        ({"reportingBoundary": "2026-12-01T00:00:00"}, "time zone"),
        ({"reportingBoundary": "tomorrow"}, "time zone"),
    ],
)
def test_periods_and_boundary(criteria, match):
    _refused(
        rules.check_pm_job, _job(criteria=criteria), TABLE, **LIMITS,
        match=match,
    )  # fmt: skip


def test_the_boundary_is_returned_in_utc():
    body = _job(criteria={"reportingBoundary": "2026-11-30T10:00:00+02:00"})
    assert rules.check_pm_job(body, TABLE, **LIMITS) == datetime.datetime(
        2026, 11, 30, 8, 0, tzinfo=datetime.UTC
    )


def test_sub_objects_need_exactly_one_object_instance():
    body = _job(objectInstanceIds=["i1", "i2"], subObjectInstanceIds=["c1"])
    _refused(rules.check_pm_job, body, TABLE, **LIMITS, match="exactly one")


def _threshold(metric="VCpuUsageMeanVnf", hysteresis=2.0, **changes):
    return {
        "objectType": "Vnf",
        "objectInstanceId": "i1",
        "criteria": {
            "performanceMetric": metric,
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {
                "thresholdValue": 80.0,
                "hysteresis": hysteresis,
            },
        },
        "callbackUri": "http://nfvo/cb",
        **changes,
    }


def test_thresholds():
    rules.check_threshold(_threshold(), TABLE, min_hysteresis=0.0)
    rules.check_threshold(
        _threshold("VCpuUsageMeanVnf.i1"), TABLE, min_hysteresis=0.0
    )
    _refused(
        rules.check_threshold, _threshold("VCpuUsageMeanVnf.i2"), TABLE,
        min_hysteresis=0.0, match="not an object instance",
    )  # fmt: skip
    _refused(
        rules.check_threshold, _threshold("PacketOutgoingVnfExtCp"), TABLE,
        min_hysteresis=0.0, match="not Vnf",
    )  # fmt: skip
    _refused(
        rules.check_threshold, _threshold(hysteresis=0.5), TABLE,
        min_hysteresis=1.0, match="below 1.0",
    )  # fmt: skip


def _instance(instance_id="i1", state="INSTANTIATED"):
    return {
        "id": instance_id,
        "instantiation_state": state,
        "instantiated_vnf_info": {
            "extCpInfo": [{"id": "ext1"}],
            "vnfcResourceInfo": [
                {"id": "c1", "vnfcCpInfo": [{"id": "c1-cp"}]},
                {"id": "c2"},
            ],
        },
    }


def test_sub_objects_by_object_type():
    inst = _instance()
    assert rules.sub_objects("Vnf", inst) == {"c1", "c2"}
    assert rules.sub_objects("Vnfc", inst) == {"c1", "c2"}
    assert rules.sub_objects("VnfIntCp", inst) == {"c1-cp"}
    assert rules.sub_objects("VnfExtCp", inst) == {"ext1"}
    assert rules.sub_objects("Vnf", {"instantiated_vnf_info": None}) == set()


def test_objects_must_be_visible_instantiated_and_own_their_sub_objects():
    seen = {"i1": _instance(), "i3": _instance("i3", "NOT_INSTANTIATED")}
    rules.check_objects("Vnf", ["i1"], None, seen)
    rules.check_objects("Vnfc", ["i1"], ["c2", "c1"], seen)
    rules.check_objects("VnfExtCp", ["i1"], ["ext1"], seen)
    _refused(
        rules.check_objects, "Vnf", ["i1", "i2"], None, seen,
        match="i2 does not exist",
    )  # fmt: skip
    _refused(
        rules.check_objects, "Vnf", ["i3"], None, seen,
        match="not instantiated",
    )  # fmt: skip
    _refused(
        rules.check_objects, "Vnfc", ["i1"], ["c9"], seen,
        match="'c9' is not a VNFC of VNF instance i1",
    )  # fmt: skip
    _refused(
        rules.check_objects, "VnfExtCp", ["i1"], ["c1"], seen,
        match="not a connection point",
    )  # fmt: skip
    err = _refused(
        rules.check_objects, "Vnf", ["nope"], None, seen,
        where="objectInstanceId", match="does not exist",
    )  # fmt: skip
    assert err.detail.startswith("objectInstanceId:")
