"""python-tackerclient's ``openstack vnffm alarm`` commands, unchanged, on
tacker-ng's ``/vnffm/v1``, and the plugin's ``vnflcm observed show``.

A VNF runs on the fake VIM (instantiated with python-tackerclient). The
fake VIM has no Nova to observe, so its observation is written the way
the observer writes one (:func:`tacker_ng.db.observed.record` with a
VNFC in ERROR, then :func:`tacker_ng.db.alarms.raise_alarm` as the
converger does when auto-heal is off); everything after that goes
through the real API process and the real ``openstack`` CLI: an operator
lists the alarm, filters, shows and acknowledges it, and sees the drift.
"""

import json

import pytest

from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm
from tacker_ng.tests import fixtures
from tacker_ng.tests.functional import lcm_fixtures


def _fm(cli, *args: str, **kw):
    return cli.run("--os-tacker-api-version", "2", "vnffm", *args, **kw)


def _fm_json(cli, *args: str):
    return cli.json("--os-tacker-api-version", "2", "vnffm", *args)


@pytest.fixture(scope="module")
def drifted(dep, cli, tmp_path_factory):
    """(instance id, VNFC id, alarm id) of a VNF whose VNFC is in ERROR."""
    tmp = tmp_path_factory.mktemp("fm")
    inst_id = cli.lcm_json(
        "vnflcm", "create", dep.package["vnfd_id"], "--name", "fm-vnf"
    )["ID"]
    request = tmp / "i.json"
    vim = lcm_fixtures.fake_vim()
    request.write_text(
        json.dumps({"flavourId": "simple", "vimConnectionInfo": vim})
    )
    cli.lcm("vnflcm", "instantiate", inst_id, str(request))
    occs = cli.lcm_json(
        "vnflcm", "op", "list", "--filter", f"(eq,vnfInstanceId,{inst_id})"
    )
    assert len(occs) == 1, occs
    done = cli.json("vnflcm", "op", "wait", occs[0]["ID"], "--interval", "0.3")
    assert done["Operation State"] == "COMPLETED", done
    with (
        fixtures.config(str(tmp)),
        fixtures.database(dep.sql_url, migrate=False),
    ):
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as s:
                instance = vnf_lcm.get_instance(s, inst_id)
                vnfcs = instance["instantiated_vnf_info"]["vnfcResourceInfo"]
                rows = [
                    {
                        "vnf_instance_id": inst_id,
                        "vnfc_id": v["id"],
                        "vdu_id": v["vduId"],
                        "vim_connection_id": "vim1",
                        "resource_id": v["computeResource"]["resourceId"],
                        "status": "ERROR" if i == 0 else "ACTIVE",
                        "host": f"host-{i}",
                        "host_up": True,
                        "zone": v.get("zoneId"),
                        "drift": "ERROR" if i == 0 else None,
                    }
                    for i, v in enumerate(vnfcs)
                ]
                observed_db.record(s, [inst_id], rows)
                server = vnfcs[0]["computeResource"]["resourceId"]
                alarm = alarms_db.raise_alarm(
                    s,
                    instance,
                    vnfcs[0]["id"],
                    {"resourceId": server, "vimConnectionId": "vim1"},
                    "CRITICAL",
                    "VNFC server in ERROR",
                    "ERROR",
                    ["drift: ERROR"],
                )
    return inst_id, vnfcs[0]["id"], alarm["id"], len(vnfcs)


def test_alarm_list_show_and_acknowledge(cli, drifted):
    inst_id, vnfc_id, alarm_id, _ = drifted
    listed = _fm_json(cli, "alarm", "list")
    mine = [a for a in listed if a["ID"] == alarm_id]
    assert mine == [
        {
            "ID": alarm_id,
            "Managed Object Id": inst_id,
            "Ack State": "UNACKNOWLEDGED",
            "Event Type": "EQUIPMENT_ALARM",
            "Perceived Severity": "CRITICAL",
            "Probable Cause": "VNFC server in ERROR",
        }
    ]
    by_instance = _fm_json(
        cli, "alarm", "list", "--filter", f"(eq,managedObjectId,{inst_id})"
    )
    assert [a["ID"] for a in by_instance] == [alarm_id]
    none = _fm_json(
        cli, "alarm", "list", "--filter", "(eq,perceivedSeverity,MINOR)"
    )
    assert alarm_id not in {a["ID"] for a in none}

    shown = _fm_json(cli, "alarm", "show", alarm_id)
    assert shown["Vnfc Instance Ids"] == [vnfc_id]
    assert shown["Fault Details"] == ["drift: ERROR"]
    assert shown["Root Cause Faulty Resource"]["faultyResourceType"] == (
        "COMPUTE"
    )
    assert shown["Alarm Raised Time"].endswith("Z")

    acked = _fm_json(
        cli, "alarm", "update", alarm_id, "--ack-state", "ACKNOWLEDGED"
    )
    assert acked == {"Ack State": "ACKNOWLEDGED"}
    shown = _fm_json(cli, "alarm", "show", alarm_id)
    assert shown["Ack State"] == "ACKNOWLEDGED"
    assert shown["Alarm Acknowledged Time"].endswith("Z")
    # Acknowledging twice is a conflict (SOL003 7.4.3.3.4: 409).
    again = _fm(
        cli, "alarm", "update", alarm_id, "--ack-state", "ACKNOWLEDGED",
        check=False,
    )  # fmt: skip
    assert again.returncode != 0
    assert "409" in again.stderr + again.stdout or "already" in (
        again.stderr + again.stdout
    )


def test_alarm_show_of_an_unknown_id_fails(cli):
    out = _fm(cli, "alarm", "show", "no-such-alarm", check=False)
    assert out.returncode != 0
    assert "no-such-alarm" in out.stderr + out.stdout


def test_observed_show_with_the_plugin(cli, drifted):
    inst_id, vnfc_id, _, count = drifted
    rows = cli.json("vnflcm", "observed", "show", inst_id)
    assert len(rows) == count
    by_vnfc = {r["VNFC"]: r for r in rows}
    assert by_vnfc[vnfc_id]["Desired"] == "ACTIVE"
    assert by_vnfc[vnfc_id]["Observed"] == "ERROR"
    assert by_vnfc[vnfc_id]["Drift"] == "ERROR"
    assert by_vnfc[vnfc_id]["Host"] == "host-0"
    drift = cli.json("vnflcm", "observed", "show", inst_id, "--drift-only")
    assert [r["VNFC"] for r in drift] == [vnfc_id]
    out = cli.run("vnflcm", "observed", "show", inst_id)
    assert f"{count} VNFC(s), 1 drifted" in out.stderr
