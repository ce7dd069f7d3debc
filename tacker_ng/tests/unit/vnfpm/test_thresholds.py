"""``/vnfpm/v2/thresholds``: create, list with filters, read, modify as a
merge patch, delete; hysteresis and metric rules; ProblemDetails."""

import json

import pytest

from tacker_ng.db import api as db_api
from tacker_ng.db import pm_thresholds
from tacker_ng.pm import crossings
from tacker_ng.tests.unit.vnfpm.conftest import MERGE, V, make_instance

THRESHOLDS = "/vnfpm/v2/thresholds"
PROBLEM = "application/problem+json"


def threshold_request(instance_id, metric="VCpuUsageMeanVnf", **changes):
    body = {
        "objectType": "Vnf",
        "objectInstanceId": instance_id,
        "criteria": {
            "performanceMetric": metric,
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {
                "thresholdValue": 80.0,
                "hysteresis": 5.0,
            },
        },
        "callbackUri": "http://127.0.0.1:9/th",
    }
    body.update(changes)
    return body


def test_create_show_list_modify_delete(api, instance):
    body = threshold_request(
        instance["id"],
        f"VCpuUsageMeanVnf.{instance['id']}",
        subObjectInstanceIds=["c1"],
        authentication={
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "th-secret"},
        },
    )
    resp = api.post_json(THRESHOLDS, body, headers=V)
    assert resp.status_int == 201
    th = resp.json
    assert resp.headers["Location"] == th["_links"]["self"]["href"]
    assert "th-secret" not in resp.text and "authentication" not in th
    assert th["objectInstanceId"] == instance["id"]
    assert th["subObjectInstanceIds"] == ["c1"]
    assert th["criteria"] == body["criteria"]
    assert th["_links"]["object"]["href"].endswith(
        f"/vnflcm/v2/vnf_instances/{instance['id']}"
    )
    assert api.get(f"{THRESHOLDS}/{th['id']}", headers=V).json == th
    assert api.get(THRESHOLDS, headers=V).json == [th]
    with db_api.reader() as s:
        row = pm_thresholds.get(s, th["id"])
        # The collectors evaluate a new threshold at their next pass.
        assert [t["id"] for t in crossings.thresholds_due(s)] == [th["id"]]
    assert row["authentication"]["paramsBasic"]["password"].startswith(
        "fernet:"
    )
    resp = api.patch_json(
        f"{THRESHOLDS}/{th['id']}",
        {"callbackUri": "http://127.0.0.1:9/moved"},
        headers=MERGE,
    )
    assert resp.json == {"callbackUri": "http://127.0.0.1:9/moved"}
    shown = api.get(f"{THRESHOLDS}/{th['id']}", headers=V).json
    assert shown["callbackUri"] == "http://127.0.0.1:9/moved"
    api.patch(
        f"{THRESHOLDS}/{th['id']}",
        '{"callbackUri": "http://127.0.0.1:9/x"}',
        headers={**V, "Content-Type": "application/json"},
        status=415,
    )
    api.delete(f"{THRESHOLDS}/{th['id']}", headers=V, status=204)
    api.get(f"{THRESHOLDS}/{th['id']}", headers=V, status=404)
    api.delete(f"{THRESHOLDS}/{th['id']}", headers=V, status=404)


def test_filters(api, instance):
    other = make_instance("default")
    made = [
        api.post_json(THRESHOLDS, body, headers=V).json["id"]
        for body in (
            threshold_request(instance["id"]),
            threshold_request(
                other["id"], "VMemoryUsagePeakVnf",
                subObjectInstanceIds=["c2"],
            ),
            threshold_request(
                instance["id"], "ByteIncomingVnfExtCp", objectType="VnfExtCp"
            ),
        )
    ]  # fmt: skip

    def ids(flt):
        resp = api.get(f"{THRESHOLDS}?filter={flt}", headers=V)
        return [t["id"] for t in resp.json]

    assert ids(f"(eq,objectInstanceId,{other['id']})") == [made[1]]
    assert ids("(eq,subObjectInstanceIds,c2)") == [made[1]]
    assert ids("(eq,objectType,VnfExtCp)") == [made[2]]
    assert ids("(cont,criteria/performanceMetric,Memory)") == [made[1]]
    assert ids("(gt,criteria/simpleThresholdDetails/thresholdValue,79)") == (
        made
    )
    assert ids("(eq,criteria/thresholdType,SIMPLE)") == made
    api.get(f"{THRESHOLDS}?filter=(eq,nope,1)", headers=V, status=400)
    # Thresholds take no attribute selectors (SOL003 6.4.5.3.2).
    assert len(api.get(f"{THRESHOLDS}?all_fields", headers=V).json) == 3


@pytest.mark.parametrize(
    ("change", "status", "detail"),
    [
        ({"objectInstanceId": ""}, 400, "objectInstanceId"),
        ({"objectInstanceIds": ["x"]}, 400, "objectInstanceIds"),
        (
            {
                "criteria": {
                    "performanceMetric": "VCpuUsageMeanVnf",
                    "thresholdType": "COMPLEX",
                    "simpleThresholdDetails": {
                        "thresholdValue": 1,
                        "hysteresis": 0,
                    },
                }
            },
            400,
            "thresholdType",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": "VCpuUsageMeanVnf",
                    "thresholdType": "SIMPLE",
                }
            },
            400,
            "simpleThresholdDetails",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": "VCpuUsageMeanVnf",
                    "thresholdType": "SIMPLE",
                    "simpleThresholdDetails": {
                        "thresholdValue": 1,
                        "hysteresis": -1,
                    },
                }
            },
            400,
            "hysteresis",
        ),  # fmt: skip
        ({"objectType": "VnfIntCp"}, 422, "not VnfIntCp"),
        ({"objectInstanceId": "no-such-vnf"}, 422, "does not exist"),
        ({"subObjectInstanceIds": ["ext-cp"]}, 422, "not a VNFC"),
    ],
)
def test_bad_requests_are_problem_details(
    api, instance, change, status, detail
):
    body = threshold_request(instance["id"], **change)
    resp = api.post_json(THRESHOLDS, body, headers=V, status=status)
    assert resp.content_type == PROBLEM
    assert resp.json["status"] == status
    assert detail in resp.json["detail"]
    assert api.get(THRESHOLDS, headers=V).json == []


def test_numbers_beyond_a_double_are_refused(api, instance):
    """JSON's 1e400 is an infinity in Python: 400, never stored."""
    text = json.dumps(threshold_request(instance["id"])).replace(
        '"thresholdValue": 80.0', '"thresholdValue": 1e400'
    )
    assert "1e400" in text
    resp = api.post(
        THRESHOLDS,
        text,
        headers={**V, "Content-Type": "application/json"},
        status=400,
    )
    assert "thresholdValue" in resp.json["detail"]


def test_hysteresis_below_the_configured_minimum(api, instance, pm_conf):
    pm_conf.set_override("min_hysteresis", 10.0, group="pm")
    resp = api.post_json(
        THRESHOLDS, threshold_request(instance["id"]), headers=V, status=422
    )
    assert "below 10.0" in resp.json["detail"]


def test_connection_point_thresholds_name_the_instances_cps(api, instance):
    ok = threshold_request(
        instance["id"], "PacketOutgoingVnfIntCp", objectType="VnfIntCp",
        subObjectInstanceIds=["c1-cp"],
    )  # fmt: skip
    api.post_json(THRESHOLDS, ok, headers=V, status=201)
    bad = dict(ok, subObjectInstanceIds=["ext-cp"])
    resp = api.post_json(THRESHOLDS, bad, headers=V, status=422)
    assert "not a connection point" in resp.json["detail"]
