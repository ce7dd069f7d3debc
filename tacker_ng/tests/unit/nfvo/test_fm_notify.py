"""FmNotificationsFilter matching and the Alarm representation."""

import datetime

import pytest

from tacker_ng.nfvo import fm_notify

NOW = datetime.datetime(2026, 11, 25, 12, 0, tzinfo=datetime.UTC)
ALARM = {
    "id": "a1",
    "managed_object_id": "i1",
    "vnfc_instance_ids": ["c1"],
    "root_cause_faulty_resource": {
        "faultyResource": {"resourceId": "s1"},
        "faultyResourceType": "COMPUTE",
    },
    "alarm_raised_time": NOW,
    "alarm_changed_time": None,
    "alarm_cleared_time": None,
    "alarm_acknowledged_time": None,
    "ack_state": "UNACKNOWLEDGED",
    "perceived_severity": "CRITICAL",
    "event_time": NOW,
    "event_type": "EQUIPMENT_ALARM",
    "fault_type": "ERROR",
    "probable_cause": "VNFC server in ERROR",
    "is_root_cause": True,
    "fault_details": ["drift: ERROR"],
    "project_id": "p",
}
INSTANCE = {
    "id": "i1",
    "vnfd_id": "d1",
    "vnf_provider": "acme",
    "vnf_product_name": "fw",
    "vnf_software_version": "1",
    "vnfd_version": "1",
    "vnf_instance_name": "fw-1",
}


@pytest.mark.parametrize(
    ("flt", "kind", "selected"),
    [
        (None, fm_notify.ALARM_NOTIFICATION, True),
        ({}, fm_notify.ALARM_CLEARED_NOTIFICATION, True),
        (
            {"notificationTypes": ["AlarmClearedNotification"]},
            fm_notify.ALARM_NOTIFICATION,
            False,
        ),
        ({"perceivedSeverities": ["MAJOR", "CRITICAL"]}, "x", True),
        ({"perceivedSeverities": ["MAJOR"]}, "x", False),
        ({"eventTypes": ["QOS_ALARM"]}, "x", False),
        ({"faultyResourceTypes": ["COMPUTE"]}, "x", True),
        ({"faultyResourceTypes": ["NETWORK"]}, "x", False),
        ({"probableCauses": ["VNFC server in ERROR"]}, "x", True),
        (
            {"vnfInstanceSubscriptionFilter": {"vnfInstanceIds": ["i2"]}},
            "x",
            False,
        ),
        (
            {
                "vnfInstanceSubscriptionFilter": {"vnfdIds": ["d1"]},
                "eventTypes": ["EQUIPMENT_ALARM"],
            },
            "x",
            True,
        ),
    ],
)
def test_filter(flt, kind, selected):
    assert fm_notify.matches(flt, kind, ALARM, INSTANCE) is selected


def test_alarm_view_fields_and_links():
    body = fm_notify.alarm_view("http://vnfm", ALARM)
    assert body["alarmRaisedTime"] == "2026-11-25T12:00:00Z"
    assert body["managedObjectId"] == "i1"
    assert "alarmClearedTime" not in body and "project_id" not in body
    assert body["_links"] == {
        "self": {"href": "http://vnfm/vnffm/v1/alarms/a1"},
        "objectInstance": {"href": "http://vnfm/vnflcm/v2/vnf_instances/i1"},
    }
    assert set(body) <= {
        "id",
        "managedObjectId",
        "vnfcInstanceIds",
        "rootCauseFaultyResource",
        "alarmRaisedTime",
        "alarmChangedTime",
        "alarmClearedTime",
        "alarmAcknowledgedTime",
        "ackState",
        "perceivedSeverity",
        "eventTime",
        "eventType",
        "faultType",
        "probableCause",
        "isRootCause",
        "correlatedAlarmIds",
        "faultDetails",
        "_links",
    }
