"""PmJob, Threshold, PerformanceReport and the two PM notifications as
SOL003 v3.3.1 clause 6 shapes them; authentication never shows."""

import datetime

from tacker_ng.pm import bodies

BASE = "https://vnfm.example"
T = datetime.datetime(2026, 11, 29, 8, 5, tzinfo=datetime.UTC)
JOB = {
    "id": "job1",
    "object_type": "Vnfc",
    "object_instance_ids": ["i1"],
    "sub_object_instance_ids": ["c1"],
    "criteria": {
        "performanceMetric": ["VCpuUsageMeanVnf"],
        "collectionPeriod": 60,
        "reportingPeriod": 300,
    },
    "callback_uri": "http://nfvo/cb",
    "authentication": {"authType": ["BASIC"], "paramsBasic": {}},
    "project_id": "p",
}
THRESHOLD = {
    "id": "th1",
    "object_type": "Vnf",
    "object_instance_id": "i1",
    "sub_object_instance_ids": None,
    "criteria": {
        "performanceMetric": "VCpuUsageMeanVnf",
        "thresholdType": "SIMPLE",
        "simpleThresholdDetails": {"thresholdValue": 80, "hysteresis": 5},
    },
    "callback_uri": "http://nfvo/th",
    "authentication": {"authType": ["BASIC"]},
}


def test_pm_job_view():
    report = {
        "id": "r1",
        "job_id": "job1",
        "ready_time": T,
        "expiry_time": None,
    }
    view = bodies.pm_job_view(BASE, JOB, [report])
    assert view == {
        "id": "job1",
        "objectType": "Vnfc",
        "objectInstanceIds": ["i1"],
        "subObjectInstanceIds": ["c1"],
        "criteria": JOB["criteria"],
        "callbackUri": "http://nfvo/cb",
        "reports": [
            {
                "href": f"{BASE}/vnfpm/v2/pm_jobs/job1/reports/r1",
                "readyTime": "2026-11-29T08:05:00Z",
            }
        ],
        "_links": {
            "self": {"href": f"{BASE}/vnfpm/v2/pm_jobs/job1"},
            "objects": [{"href": f"{BASE}/vnflcm/v2/vnf_instances/i1"}],
        },
    }
    assert "reports" not in bodies.pm_job_view(BASE, JOB, None)


def test_threshold_view():
    view = bodies.threshold_view(BASE, THRESHOLD)
    assert "authentication" not in view and "subObjectInstanceIds" not in view
    assert view["objectInstanceId"] == "i1"
    assert view["_links"] == {
        "self": {"href": f"{BASE}/vnfpm/v2/thresholds/th1"},
        "object": {"href": f"{BASE}/vnflcm/v2/vnf_instances/i1"},
    }


def test_report_entries_and_view():
    entry = bodies.report_entry(
        "Vnfc", "i1", "c1", "VCpuUsageMeanVnf",
        [{"timeStamp": T, "value": 12.5, "context": {"q": "x"}}],
    )  # fmt: skip
    assert entry == {
        "objectType": "Vnfc",
        "objectInstanceId": "i1",
        "subObjectInstanceId": "c1",
        "performanceMetric": "VCpuUsageMeanVnf",
        "performanceValues": [
            {
                "timeStamp": "2026-11-29T08:05:00Z",
                "value": 12.5,
                "context": {"q": "x"},
            }
        ],
    }
    row = {
        "object_type": "Vnf",
        "object_instance_id": "i1",
        "sub_object_instance_id": None,
        "performance_metric": "VMemoryUsageMeanVnf",
        "performance_values": [
            {"timeStamp": "2026-11-29T08:05:00Z", "value": 3}
        ],
    }
    assert bodies.performance_report_view([row]) == {
        "entries": [
            {
                "objectType": "Vnf",
                "objectInstanceId": "i1",
                "performanceMetric": "VMemoryUsageMeanVnf",
                "performanceValues": [
                    {"timeStamp": "2026-11-29T08:05:00Z", "value": 3}
                ],
            }
        ]
    }


def test_performance_information_available_notification():
    body = bodies.performance_information_available(
        BASE, JOB, "r1", "i1", ["c1"], T
    )
    assert body.pop("id")
    assert body == {
        "notificationType": "PerformanceInformationAvailableNotification",
        "timeStamp": "2026-11-29T08:05:00Z",
        "pmJobId": "job1",
        "objectType": "Vnfc",
        "objectInstanceId": "i1",
        "subObjectInstanceIds": ["c1"],
        "_links": {
            "objectInstance": {"href": f"{BASE}/vnflcm/v2/vnf_instances/i1"},
            "pmJob": {"href": f"{BASE}/vnfpm/v2/pm_jobs/job1"},
            "performanceReport": {
                "href": f"{BASE}/vnfpm/v2/pm_jobs/job1/reports/r1"
            },
        },
    }
    bare = bodies.performance_information_available(
        BASE, JOB, "r1", "i1", [], T
    )
    assert "subObjectInstanceIds" not in bare


def test_threshold_crossed_notification():
    body = bodies.threshold_crossed(BASE, THRESHOLD, "UP", "c2", 91.5, None, T)
    assert body.pop("id")
    assert body == {
        "notificationType": "ThresholdCrossedNotification",
        "timeStamp": "2026-11-29T08:05:00Z",
        "thresholdId": "th1",
        "crossingDirection": "UP",
        "objectType": "Vnf",
        "objectInstanceId": "i1",
        "subObjectInstanceId": "c2",
        "performanceMetric": "VCpuUsageMeanVnf",
        "performanceValue": 91.5,
        "_links": {
            "objectInstance": {"href": f"{BASE}/vnflcm/v2/vnf_instances/i1"},
            "threshold": {"href": f"{BASE}/vnfpm/v2/thresholds/th1"},
        },
    }


def test_modifications_never_echo_authentication():
    patch = {"callbackUri": "http://x/y", "authentication": {"authType": []}}
    assert bodies.modifications_view(patch) == {"callbackUri": "http://x/y"}
    assert bodies.modifications_view({"authentication": None}) == {}
