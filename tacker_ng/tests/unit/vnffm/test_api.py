"""``/vnffm/v1``: alarms (list with filters, show, PATCH ackState),
subscriptions through the shared SOL controllers, and the admin
``POST /v1/vnf_instances/{id}/observe``."""

import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm

V = {"Version": "1.3.0"}
MERGE = {"Content-Type": "application/merge-patch+json", **V}


@pytest.fixture
def instance(db):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.insert_instance(
                s,
                {
                    "vnfd_id": "vnfd",
                    "vnf_provider": "p",
                    "vnf_product_name": "n",
                    "vnf_software_version": "1",
                    "vnfd_version": "1",
                    "project_id": "proj",
                },
            )
    return row


def _alarm(instance, vnfc, severity="CRITICAL"):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            return alarms_db.raise_alarm(
                s,
                instance,
                vnfc,
                {"resourceId": f"srv-{vnfc}", "vimConnectionId": "vim1"},
                severity,
                "VNFC server in ERROR",
                "ERROR",
                ["drift: ERROR"],
            )


def test_alarm_list_filter_show_and_ack(api, instance):
    a1 = _alarm(instance, "c1")
    a2 = _alarm(instance, "c2", "MAJOR")
    listed = api.get("/vnffm/v1/alarms", headers=V).json
    assert {a["id"] for a in listed} == {a1["id"], a2["id"]}
    one = api.get(
        "/vnffm/v1/alarms?filter=(eq,perceivedSeverity,MAJOR)", headers=V
    ).json
    assert [a["id"] for a in one] == [a2["id"]]
    by_resource = api.get(
        "/vnffm/v1/alarms?filter=(eq,rootCauseFaultyResource/"
        "faultyResourceType,COMPUTE);(eq,managedObjectId,"
        f"{instance['id']})",
        headers=V,
    ).json
    assert len(by_resource) == 2
    api.get("/vnffm/v1/alarms?filter=(eq,nope,1)", headers=V, status=400)

    shown = api.get(f"/vnffm/v1/alarms/{a1['id']}", headers=V).json
    assert shown["managedObjectId"] == instance["id"]
    assert shown["vnfcInstanceIds"] == ["c1"]
    assert shown["ackState"] == "UNACKNOWLEDGED"
    assert shown["eventType"] == "EQUIPMENT_ALARM"
    assert shown["isRootCause"] is True
    assert shown["rootCauseFaultyResource"]["faultyResourceType"] == "COMPUTE"
    assert shown["_links"]["self"]["href"].endswith(f"/alarms/{a1['id']}")
    assert shown["_links"]["objectInstance"]["href"].endswith(
        f"/vnflcm/v2/vnf_instances/{instance['id']}"
    )
    assert "alarmClearedTime" not in shown

    resp = api.patch(
        f"/vnffm/v1/alarms/{a1['id']}",
        '{"ackState": "ACKNOWLEDGED"}',
        headers=MERGE,
    )
    assert resp.json == {"ackState": "ACKNOWLEDGED"}
    shown = api.get(f"/vnffm/v1/alarms/{a1['id']}", headers=V).json
    assert shown["ackState"] == "ACKNOWLEDGED"
    assert "alarmAcknowledgedTime" in shown
    again = api.patch(
        f"/vnffm/v1/alarms/{a1['id']}",
        '{"ackState": "ACKNOWLEDGED"}',
        headers=MERGE,
        status=409,
    )
    assert again.content_type == "application/problem+json"
    api.patch(
        f"/vnffm/v1/alarms/{a1['id']}",
        '{"ackState": "MAYBE"}',
        headers=MERGE,
        status=400,
    )
    api.get("/vnffm/v1/alarms/nope", headers=V, status=404)
    api.get("/vnffm/v1/alarms", status=400)  # Version header required
    acked = api.get(
        "/vnffm/v1/alarms?filter=(eq,ackState,ACKNOWLEDGED)", headers=V
    ).json
    assert [a["id"] for a in acked] == [a1["id"]]


@pytest.mark.parametrize(
    "content_type",
    ["application/json", "application/json-patch+json", "text/plain"],
)
def test_alarm_patch_needs_merge_patch(api, instance, content_type):
    """SOL003 7.4.3.3.4: AlarmModifications is a JSON merge patch; any
    other Content-Type is 415 and the alarm is left as it was."""
    alarm = _alarm(instance, "c1")
    headers = {**V, "Content-Type": content_type}
    resp = api.patch(
        f"/vnffm/v1/alarms/{alarm['id']}",
        '{"ackState": "ACKNOWLEDGED"}',
        headers=headers,
        status=415,
    )
    assert resp.content_type == "application/problem+json"
    assert resp.json["status"] == 415
    shown = api.get(f"/vnffm/v1/alarms/{alarm['id']}", headers=V).json
    assert shown["ackState"] == "UNACKNOWLEDGED"


def test_fm_subscriptions(api, conf):
    conf.set_override("test_callback_uri", False, group="notification")
    body = {
        "callbackUri": "http://127.0.0.1:9/fm",
        "filter": {
            "notificationTypes": ["AlarmNotification"],
            "perceivedSeverities": ["CRITICAL"],
        },
        "authentication": {
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "cb-secret"},
        },
    }
    resp = api.post_json("/vnffm/v1/subscriptions", body, headers=V)
    assert resp.status_int == 201
    sub = resp.json
    assert "cb-secret" not in resp.text and "authentication" not in sub
    assert resp.headers["Location"] == sub["_links"]["self"]["href"]
    assert "/vnffm/v1/subscriptions/" in resp.headers["Location"]
    assert (
        api.get(f"/vnffm/v1/subscriptions/{sub['id']}", headers=V).json == sub
    )
    dup = api.post_json("/vnffm/v1/subscriptions", body, headers=V)
    assert dup.status_int == 303
    listed = api.get(
        "/vnffm/v1/subscriptions?filter=(eq,filter/perceivedSeverities,"
        "CRITICAL)",
        headers=V,
    ).json
    assert [s["id"] for s in listed] == [sub["id"]]
    assert (
        api.get("/vnflcm/v2/subscriptions", headers={"Version": "2.0.0"}).json
        == []
    )
    bad = {**body, "filter": {"eventTypes": ["NOT_AN_EVENT"]}}
    api.post_json("/vnffm/v1/subscriptions", bad, headers=V, status=400)
    api.delete(f"/vnffm/v1/subscriptions/{sub['id']}", headers=V, status=204)
    api.get(f"/vnffm/v1/subscriptions/{sub['id']}", headers=V, status=404)


def test_observe_request(api, instance):
    path = f"/v1/vnf_instances/{instance['id']}/observe"
    api.post(path, status=409)  # not instantiated
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.update_instance(
                s, instance["id"], {"instantiation_state": "INSTANTIATED"}
            )
    resp = api.post(path, status=202)
    assert resp.body == b""
    with db_api.reader() as s:
        state = observed_db.autoheal_state(s, instance["id"])
    assert state["observe_requested_at"] is not None
    api.post("/v1/vnf_instances/nope/observe", status=404)
    api.get(path, status=405)


def test_observe_is_admin_only(conf, instance):
    conf.set_override("noauth_roles", ["member", "reader"], group="api")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    app.post(f"/v1/vnf_instances/{instance['id']}/observe", status=403)


def test_observed_state_desired_vs_observed(api, instance):
    path = f"/v1/vnf_instances/{instance['id']}/observed"
    body = api.get(path).json
    assert body["instantiationState"] == "NOT_INSTANTIATED"
    assert body["vnfcs"] == [] and body["lastObservedAt"] is None
    info = {
        "flavourId": "simple",
        "vnfState": "STARTED",
        "vnfcResourceInfo": [
            {
                "id": "c1",
                "vduId": "VDU1",
                "zoneId": "AZ-1",
                "computeResource": {
                    "vimConnectionId": "vim1",
                    "resourceId": "srv-1",
                },
            },
            {
                "id": "c2",
                "vduId": "VDU2",
                "zoneId": "AZ-2",
                "computeResource": {
                    "vimConnectionId": "vim1",
                    "resourceId": "srv-2",
                },
            },
        ],
    }
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.update_instance(
                s,
                instance["id"],
                {
                    "instantiation_state": "INSTANTIATED",
                    "instantiated_vnf_info": info,
                },
            )
            observed_db.record(
                s,
                [instance["id"]],
                [
                    {
                        "vnf_instance_id": instance["id"],
                        "vnfc_id": "c1",
                        "vdu_id": "VDU1",
                        "vim_connection_id": "vim1",
                        "resource_id": "srv-1",
                        "status": "ERROR",
                        "host": "az1-cmp1",
                        "host_up": True,
                        "zone": "AZ-1",
                        "drift": "ERROR",
                    }
                ],
            )
    body = api.get(path).json
    assert body["lastObservedAt"].endswith("Z")
    c1, c2 = body["vnfcs"]
    assert (c1["vnfcId"], c1["desiredStatus"], c1["observedStatus"]) == (
        "c1",
        "ACTIVE",
        "ERROR",
    )
    assert c1["host"] == "az1-cmp1" and c1["zone"] == "AZ-1"
    assert c1["drift"] == "ERROR" and c1["driftSince"].endswith("Z")
    assert c1["lastSeen"] == body["lastObservedAt"]
    # c2 is desired but the observer has not seen it yet.
    assert (c2["vnfcId"], c2["observed"], c2["drift"]) == ("c2", False, None)
    assert c2["desiredZone"] == "AZ-2" and c2["lastSeen"] is None
    api.get("/v1/vnf_instances/nope/observed", status=404)
    api.post(path, status=405)


def test_observed_state_is_admin_only(conf, instance):
    conf.set_override("noauth_roles", ["member", "reader"], group="api")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    app.get(f"/v1/vnf_instances/{instance['id']}/observed", status=403)
