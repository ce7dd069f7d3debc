"""Formatters of the CLI plugin's output."""

import json

from tacker_ng.osc import views


def test_occ_summary_without_error():
    occ = {
        "id": "o1",
        "operation": "SCALE_TO_LEVEL",
        "operationState": "COMPLETED",
        "vnfInstanceId": "i1",
        "startTime": "2026-01-01T00:00:00Z",
        "stateEnteredTime": "2026-01-01T00:00:09Z",
        "isAutomaticInvocation": False,
        "_links": {},
    }
    columns, values = views.occ_summary(occ)
    assert columns == views.OCC_COLUMNS
    shown = dict(zip(columns, values, strict=True))
    assert shown["Operation"] == "SCALE_TO_LEVEL"
    assert shown["Operation State"] == "COMPLETED"
    assert shown["Error"].human_readable() == ""
    assert "_links" not in columns and "Links" not in columns


def test_occ_summary_shows_the_error_as_json():
    error = {"status": 500, "title": "VIM Error", "detail": "d"}
    columns, values = views.occ_summary(
        {"id": "o1", "operationState": "FAILED_TEMP", "error": error}
    )
    assert columns[-1] == "Error"
    assert values[-1].machine_readable() == error
    assert json.loads(values[-1].human_readable()) == error


def test_placement_rows_prefer_zone_id_and_sort_by_vdu():
    instance = {
        "instantiatedVnfInfo": {
            "vnfcResourceInfo": [
                {
                    "id": "c2",
                    "vduId": "VDU2",
                    "computeResource": {"resourceId": "srv-2"},
                    "metadata": {"zone": "az-planned"},
                },
                {
                    "id": "c1",
                    "vduId": "VDU1",
                    "zoneId": "az-2",
                    "computeResource": {"resourceId": "srv-1"},
                    "metadata": {"zone": "az-1", "serverGroupId": "sg"},
                },
                {"id": "c0", "vduId": "VDU1"},
            ]
        }
    }
    assert views.placement_rows(instance) == [
        ("c0", "VDU1", "-", "-", "-"),
        ("c1", "VDU1", "az-2", "srv-1", "sg"),
        ("c2", "VDU2", "az-planned", "srv-2", "-"),
    ]


def test_placement_rows_of_a_not_instantiated_vnf_are_empty():
    assert views.placement_rows({"instantiationState": "X"}) == []
    assert views.placement_rows({"instantiatedVnfInfo": None}) == []


def test_conductor_rows_follow_the_columns():
    rows = views.conductor_rows(
        [
            {
                "hostname": "c1",
                "alive": True,
                "online": True,
                "rpcVersion": "1.2",
                "startedAt": "s",
                "heartbeatAt": "h",
            }
        ]
    )
    assert rows == [("c1", True, True, "1.2", "s", "h")]
    assert len(rows[0]) == len(views.CONDUCTOR_COLUMNS)


def test_observed_rows_mark_missing_unobserved_down_and_moved():
    body = {
        "vnfcs": [
            {"vnfcId": "a", "vduId": "V", "observed": False},
            {
                "vnfcId": "b",
                "vduId": "V",
                "observed": True,
                "observedStatus": None,
                "drift": "MISSING",
            },
            {
                "vnfcId": "c",
                "vduId": "V",
                "observed": True,
                "observedStatus": "ACTIVE",
                "host": "h1",
                "hostUp": False,
                "zone": "AZ-2",
                "desiredZone": "AZ-1",
                "drift": "HOST_DOWN",
            },
        ]
    }
    rows = views.observed_rows(body)
    assert [r[3] for r in rows] == ["not observed yet", "MISSING", "ACTIVE"]
    assert rows[2][4] == "h1 (down)"
    assert rows[2][5] == "AZ-2 (desired AZ-1)"
    assert [r[0] for r in views.observed_rows(body, drift_only=True)] == [
        "b",
        "c",
    ]


def test_observed_summary_mentions_autoheal_backoff():
    line = views.observed_summary(
        {
            "vnfInstanceId": "i",
            "instantiationState": "INSTANTIATED",
            "isAutohealEnabled": True,
            "autohealFailures": 2,
            "autohealBackoffUntil": "T",
            "vnfcs": [{"drift": "ERROR"}],
        }
    )
    assert "1 VNFC(s), 1 drifted" in line
    assert "last observed never" in line
    assert "auto-heal on" in line
    assert "2 failed auto-heal(s) in a row, back-off until T" in line


def test_occ_columns_are_the_ones_python_tackerclient_shows():
    """``-c 'Operation State'`` selects the same column in
    python-tackerclient's ``vnflcm op show`` and in our ``op wait``,
    ``scale-to-level``, ``change-flavour`` and ``snapshot`` commands."""
    from tackerclient.osc.v1.vnflcm import vnflcm_op_occs

    occ = {name: f"value of {name}" for name, _ in views.OCC_ATTRIBUTES}
    shown, attributes = vnflcm_op_occs._get_columns(occ, action="show")
    theirs = dict(zip(attributes, shown, strict=True))
    assert {name: theirs[name] for name, _ in views.OCC_ATTRIBUTES} == dict(
        views.OCC_ATTRIBUTES
    )


def test_snapshot_list_columns_are_snapshot_show_columns():
    """One ``-c`` name selects the same attribute in list and show."""
    show_columns, _ = views.snapshot_summary({"id": "s1"})
    assert set(views.SNAPSHOT_COLUMNS) <= set(show_columns)
