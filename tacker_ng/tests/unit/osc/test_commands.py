"""Each plugin command, run as cliff runs it, on an in-memory client.

The fake client stands for the HTTP client (tested functionally against
a real API); here the commands' wiring is checked: options -> request,
answers -> output and exit code.
"""

import io
import json
import types

import pytest
from osc_lib import exceptions

from tacker_ng.osc import conductors, observed, op_wait, placement, tasks

OCC = {
    "id": "occ-1",
    "operation": "SCALE_TO_LEVEL",
    "vnfInstanceId": "inst-1",
    "startTime": "2026-01-01T00:00:00Z",
    "stateEnteredTime": "2026-01-01T00:00:01Z",
    "isAutomaticInvocation": False,
}


class FakeClient:
    def __init__(self, states=("COMPLETED",), error=None) -> None:
        self.states = list(states)
        self.error = error
        self.started: list[tuple[str, str, dict]] = []

    def start_task(self, instance_id, task, body):
        self.started.append((instance_id, task, body))
        return "occ-1"

    def op_occ(self, op_occ_id):
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        occ = {**OCC, "id": op_occ_id, "operationState": state}
        if state != "COMPLETED" and self.error:
            occ["error"] = self.error
        return occ

    def vnf_instance(self, instance_id):
        return {
            "id": instance_id,
            "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {
                "vnfcResourceInfo": [
                    {
                        "id": "c1",
                        "vduId": "VDU1",
                        "zoneId": "az-2",
                        "computeResource": {"resourceId": "srv-1"},
                        "metadata": {"zone": "az-2"},
                    }
                ]
            },
        }

    def observed(self, instance_id):
        return {
            "vnfInstanceId": instance_id,
            "instantiationState": "INSTANTIATED",
            "isAutohealEnabled": False,
            "lastObservedAt": "2026-01-01T00:00:05Z",
            "autohealFailures": 0,
            "vnfcs": [
                {
                    "vnfcId": "c1",
                    "vduId": "VDU1",
                    "desiredStatus": "ACTIVE",
                    "desiredZone": "az-2",
                    "observed": True,
                    "observedStatus": "ACTIVE",
                    "host": "az2-cmp1",
                    "hostUp": True,
                    "zone": "az-2",
                    "drift": None,
                    "lastSeen": "2026-01-01T00:00:05Z",
                },
                {
                    "vnfcId": "c2",
                    "vduId": "VDU2",
                    "desiredStatus": "ACTIVE",
                    "desiredZone": "az-3",
                    "observed": True,
                    "observedStatus": "ERROR",
                    "host": "az3-cmp1",
                    "hostUp": True,
                    "zone": "az-3",
                    "drift": "ERROR",
                    "driftSince": "2026-01-01T00:00:04Z",
                    "lastSeen": "2026-01-01T00:00:05Z",
                },
            ],
        }

    def conductors(self):
        return [
            {
                "hostname": "cond-a",
                "alive": True,
                "online": True,
                "rpcVersion": "1.2",
                "startedAt": "s",
                "heartbeatAt": "h",
            }
        ]


def run(cls, argv, client):
    app = types.SimpleNamespace(
        client_manager=types.SimpleNamespace(tacker_ng=client),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        options=types.SimpleNamespace(debug=False),
    )
    cmd = cls(app, None)
    args = cmd.get_parser("openstack test").parse_args([*argv, "-f", "json"])
    rc = cmd.run(args)
    out = app.stdout.getvalue()
    return rc, json.loads(out) if out else None, app.stderr.getvalue()


def test_scale_to_level_prints_the_new_op_occ():
    client = FakeClient(states=("STARTING",))
    rc, out, _ = run(
        tasks.ScaleVnfToLevel,
        ["inst-1", "--scale-level", "VDU1_scale=2"],
        client,
    )
    assert rc == 0
    assert client.started == [
        (
            "inst-1",
            "scale_to_level",
            {"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 2}]},
        )
    ]
    assert out["ID"] == "occ-1" and out["Operation State"] == "STARTING"


def test_change_flavour_waits_when_asked():
    client = FakeClient(states=("STARTING", "PROCESSING", "COMPLETED"))
    rc, out, err = run(
        tasks.ChangeVnfFlavour,
        ["inst-1", "--flavour-id", "big", "--wait", "--interval", "0"],
        client,
    )
    assert rc == 0
    assert client.started[0][1:] == ("change_flavour", {"newFlavourId": "big"})
    assert out["Operation State"] == "COMPLETED"
    assert [line.split()[-1] for line in err.splitlines()] == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]


@pytest.mark.parametrize("final", ["FAILED_TEMP", "FAILED", "ROLLED_BACK"])
def test_op_wait_exits_1_with_the_error_on_failure(final):
    error = {"status": 500, "title": "VIM Error", "detail": "boom"}
    client = FakeClient(states=("PROCESSING", final), error=error)
    rc, out, err = run(op_wait.WaitOpOcc, ["occ-1", "--interval", "0"], client)
    assert rc == 1
    assert out["Operation State"] == final
    assert out["Error"] == error
    assert err.splitlines()[-1] == (
        f"Operation SCALE_TO_LEVEL (occ-1) ended {final}: VIM Error: boom"
    )


def test_op_wait_exits_0_when_completed():
    rc, out, _ = run(
        op_wait.WaitOpOcc, ["occ-1", "--interval", "0"], FakeClient()
    )
    assert rc == 0 and out["Operation State"] == "COMPLETED"


def test_op_wait_timeout_is_a_command_error():
    client = FakeClient(states=("PROCESSING",))
    with pytest.raises(exceptions.CommandError, match="still PROCESSING"):
        run(
            op_wait.WaitOpOcc,
            ["occ-1", "--timeout", "0", "--interval", "0"],
            client,
        )


def test_placement_show_lists_vnfcs_and_says_what_is_missing():
    rc, out, err = run(placement.ShowPlacement, ["inst-1"], FakeClient())
    assert rc == 0
    assert out == [
        {
            "VNFC": "c1",
            "VDU": "VDU1",
            "Zone": "az-2",
            "Server": "srv-1",
            "Server group": "-",
        }
    ]
    assert "vnflcm observed show" in err


def test_conductor_list():
    rc, out, _ = run(conductors.ListConductors, [], FakeClient())
    assert rc == 0
    assert out == [
        {
            "Hostname": "cond-a",
            "Alive": True,
            "Online": True,
            "RPC version": "1.2",
            "Started at": "s",
            "Heartbeat at": "h",
        }
    ]


def test_observed_show_lists_desired_vs_observed():
    rc, rows, err = run(observed.ShowObserved, ["inst-1"], FakeClient())
    assert rc == 0
    assert [(r["VNFC"], r["Observed"], r["Drift"]) for r in rows] == [
        ("c1", "ACTIVE", "-"),
        ("c2", "ERROR", "ERROR"),
    ]
    assert rows[1]["Host"] == "az3-cmp1"
    assert "2 VNFC(s), 1 drifted" in err
    assert "auto-heal off" in err


def test_observed_show_drift_only():
    rc, rows, _ = run(
        observed.ShowObserved, ["inst-1", "--drift-only"], FakeClient()
    )
    assert rc == 0
    assert [r["VNFC"] for r in rows] == ["c2"]


def test_vnfpm_report_list_names_the_report_ids():
    from tacker_ng.osc import pm_reports

    href = "http://vnfm/vnfpm/v2/pm_jobs/job-1/reports"

    class PmClient:
        def pm_job(self, job_id):
            assert job_id == "job-1"
            return {
                "id": job_id,
                "reports": [
                    {
                        "href": f"{href}/r-1",
                        "readyTime": "2026-11-29T08:05:00Z",
                        "expiryTime": "2026-12-06T08:05:00Z",
                    },
                    {
                        "href": f"{href}/r-2",
                        "readyTime": "2026-11-29T08:10:00Z",
                    },
                ],
            }

    rc, out, _ = run(pm_reports.ListReports, ["job-1"], PmClient())
    assert rc == 0
    assert out == [
        {
            "ID": "r-1",
            "Ready Time": "2026-11-29T08:05:00Z",
            "Expiry Time": "2026-12-06T08:05:00Z",
            "Href": f"{href}/r-1",
        },
        {
            "ID": "r-2",
            "Ready Time": "2026-11-29T08:10:00Z",
            "Expiry Time": None,
            "Href": f"{href}/r-2",
        },
    ]
