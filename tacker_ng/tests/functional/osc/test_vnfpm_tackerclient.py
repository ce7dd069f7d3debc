"""python-tackerclient's ``openstack vnfpm`` commands, unchanged, on
tacker-ng's ``/vnfpm/v2``.

A VNF runs on the fake VIM (instantiated with python-tackerclient). An
NFVO operator creates a PM job and a threshold with the real CLI; their
callbackUri (a receiver with HTTP basic auth) answers the test GET. The
fake VIM has no Prometheus, so the collector's work is done the way the
collector will do it: a report is published with
:func:`tacker_ng.pm.reporting.publish_report` and a value recorded with
:func:`tacker_ng.pm.crossings.record_value` on the deployment's
database; the conductors' outbox delivers the notifications to the
receiver with the job's credentials, and the operator reads the report
with ``openstack vnfpm report show``.
"""

import json
import time

import pytest

from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs, pm_thresholds
from tacker_ng.pm import bodies, crossings, reporting
from tacker_ng.tests import fixtures
from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.receiver import Receiver

BASIC = {
    "authType": ["BASIC"],
    "paramsBasic": {"userName": "nfvo", "password": "pm-pass"},
}


def _pm(cli, *args: str, **kw):
    return cli.run("--os-tacker-api-version", "2", "vnfpm", *args, **kw)


def _pm_json(cli, *args: str):
    return cli.json("--os-tacker-api-version", "2", "vnfpm", *args)


def _file(tmp_path, name: str, body) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(body))
    return str(path)


def _wait_for(receiver, notification_type, count=1, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        got = [
            n
            for n in list(receiver.notifications)
            if n.get("notificationType") == notification_type
        ]
        if len(got) >= count or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


@pytest.fixture(scope="module")
def nfvo():
    with Receiver("nfvo", "pm-pass") as receiver:
        yield receiver


@pytest.fixture(scope="module")
def vnf(dep, cli, tmp_path_factory):
    """(instance id, its VNFC ids) of a VNF instantiated with the CLI."""
    tmp = tmp_path_factory.mktemp("pm")
    inst_id = cli.lcm_json(
        "vnflcm", "create", dep.package["vnfd_id"], "--name", "pm-vnf"
    )["ID"]
    request = tmp / "i.json"
    request.write_text(
        json.dumps(
            {
                "flavourId": "simple",
                "vimConnectionInfo": lcm_fixtures.fake_vim(),
            }
        )
    )
    cli.lcm("vnflcm", "instantiate", inst_id, str(request))
    occs = cli.lcm_json(
        "vnflcm", "op", "list", "--filter", f"(eq,vnfInstanceId,{inst_id})"
    )
    done = cli.json("vnflcm", "op", "wait", occs[0]["ID"], "--interval", "0.3")
    assert done["Operation State"] == "COMPLETED", done
    shown = cli.lcm_json("vnflcm", "show", inst_id)
    info = shown["Instantiated Vnf Info"]
    return inst_id, [v["id"] for v in info["vnfcResourceInfo"]]


@pytest.fixture(scope="module")
def deployment_db(dep, tmp_path_factory):
    """This process on the deployment's database, with its public
    endpoint for the links of notifications (as the collector has)."""
    tmp = tmp_path_factory.mktemp("pm-db")
    with (
        fixtures.config(str(tmp), api__public_endpoint=dep.url) as conf,
        fixtures.database(dep.sql_url, migrate=False),
    ):
        yield conf


def test_pm_job_commands(cli, dep, vnf, nfvo, deployment_db, tmp_path):
    inst_id, vnfcs = vnf
    request = {
        "objectType": "Vnfc",
        "objectInstanceIds": [inst_id],
        "subObjectInstanceIds": vnfcs[:1],
        "criteria": {
            "performanceMetric": [f"VCpuUsageMeanVnf.{inst_id}"],
            "performanceMetricGroup": ["VirtualisedComputeResource"],
            "collectionPeriod": 30,
            "reportingPeriod": 60,
        },
        "callbackUri": nfvo.url,
        "authentication": BASIC,
    }
    created = _pm_json(
        cli, "job", "create", _file(tmp_path, "j.json", request)
    )
    job_id = created["ID"]
    assert created["Object Type"] == "Vnfc"
    assert created["Object Instance Ids"] == [inst_id]
    assert created["Sub Object Instance Ids"] == vnfcs[:1]
    assert created["Criteria"] == request["criteria"]
    assert created["Callback Uri"] == nfvo.url
    assert created["Reports"] == []
    assert created["Links"]["self"]["href"].endswith(
        f"/vnfpm/v2/pm_jobs/{job_id}"
    )
    assert "pm-pass" not in json.dumps(created)

    listed = _pm_json(cli, "job", "list")
    # python-tackerclient titles its list columns itself ("Id").
    assert {
        "Id": job_id,
        "Object Type": "Vnfc",
        "Links": created["Links"],
    } in (listed)
    mine = _pm_json(
        cli, "job", "list", "--filter", f"(eq,objectInstanceIds,{inst_id})"
    )
    assert [j["Id"] for j in mine] == [job_id]
    none = _pm_json(cli, "job", "list", "--filter", "(eq,objectType,Vnf)")
    assert job_id not in {j["Id"] for j in none}
    full = _pm_json(cli, "job", "list", "--all_fields")
    (row,) = [j for j in full if j["Id"] == job_id]
    assert row["Criteria"] == request["criteria"] and row["Reports"] == []
    assert row["Callback Uri"] == nfvo.url

    shown = _pm_json(cli, "job", "show", job_id)
    assert shown == created

    moved = nfvo.url.replace("/notify", "/pm-moved")
    update = _file(tmp_path, "u.json", {"callbackUri": moved})
    assert _pm_json(cli, "job", "update", job_id, update) == {
        "Callback Uri": moved
    }
    assert _pm_json(cli, "job", "show", job_id)["Callback Uri"] == moved

    # The collector's step: the period ended, its values are published.
    with db_api.reader() as s:
        job = pm_jobs.get(s, job_id)
    entries = [
        bodies.report_entry(
            "Vnfc",
            inst_id,
            vnfcs[0],
            f"VCpuUsageMeanVnf.{inst_id}",
            [{"timeStamp": job["next_report_at"], "value": 37.5}],
        )
    ]
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            report_id = reporting.publish_report(
                s, job, entries, job["next_report_at"]
            )
    assert report_id
    (note,) = _wait_for(nfvo, "PerformanceInformationAvailableNotification")
    assert note["pmJobId"] == job_id
    assert note["objectInstanceId"] == inst_id
    assert note["subObjectInstanceIds"] == vnfcs[:1]
    report_href = note["_links"]["performanceReport"]["href"]
    assert report_href == (
        f"{dep.url}/vnfpm/v2/pm_jobs/{job_id}/reports/{report_id}"
    )
    assert note["_links"]["objectInstance"]["href"].endswith(inst_id)

    # tacker-ng's plugin lists a job's reports with the ids report show
    # takes (python-tackerclient only shows their hrefs).
    (listed_report,) = cli.json("vnfpm", "report", "list", job_id)
    assert listed_report["ID"] == report_id
    assert listed_report["Href"] == report_href
    report = _pm_json(cli, "report", "show", job_id, report_id)
    assert report == {"Entries": entries}
    (ref,) = _pm_json(cli, "job", "show", job_id)["Reports"]
    assert ref["href"] == report_href
    assert ref["readyTime"] == entries[0]["performanceValues"][0]["timeStamp"]
    assert ref["expiryTime"] > ref["readyTime"]

    out = _pm(cli, "job", "delete", job_id)
    assert f"VNF PM job '{job_id}' deleted successfully" in out.stdout
    gone = _pm(cli, "job", "show", job_id, check=False)
    assert gone.returncode != 0
    assert f"PM job {job_id} does not exist" in gone.stderr + gone.stdout
    gone = _pm(cli, "report", "show", job_id, report_id, check=False)
    assert gone.returncode != 0


def test_threshold_commands(cli, vnf, nfvo, deployment_db, tmp_path):
    inst_id, vnfcs = vnf
    request = {
        "objectType": "Vnf",
        "objectInstanceId": inst_id,
        "subObjectInstanceIds": vnfcs[:1],
        "criteria": {
            "performanceMetric": f"VCpuUsageMeanVnf.{inst_id}",
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {
                "thresholdValue": 80.0,
                "hysteresis": 5.0,
            },
        },
        "callbackUri": nfvo.url,
        "authentication": BASIC,
    }
    created = _pm_json(
        cli, "threshold", "create", _file(tmp_path, "t.json", request)
    )
    th_id = created["ID"]
    assert created["Object Type"] == "Vnf"
    assert created["Object Instance Id"] == inst_id
    assert created["Sub Object Instance Ids"] == vnfcs[:1]
    assert created["Criteria"] == request["criteria"]
    assert created["Links"]["object"]["href"].endswith(inst_id)
    listed = _pm_json(cli, "threshold", "list")
    assert {
        "ID": th_id,
        "Object Type": "Vnf",
        "Links": created["Links"],
    } in listed
    assert [
        t["ID"]
        for t in _pm_json(
            cli,
            "threshold",
            "list",
            "--filter",
            f"(eq,objectInstanceId,{inst_id})",
        )
    ] == [th_id]
    assert _pm_json(cli, "threshold", "show", th_id) == created
    update = _file(tmp_path, "tu.json", {"callbackUri": nfvo.url + "/th"})
    assert _pm_json(cli, "threshold", "update", th_id, update) == {
        "Callback Uri": nfvo.url + "/th"
    }

    # The collector's step: a value above thresholdValue + hysteresis.
    with db_api.reader() as s:
        threshold = pm_thresholds.get(s, th_id)
    for value, expected in ((90.0, "UP"), (88.0, None), (70.0, "DOWN")):
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as s:
                crossed = crossings.record_value(
                    s, threshold, inst_id, vnfcs[0], value
                )
        assert crossed == expected
    notes = _wait_for(nfvo, "ThresholdCrossedNotification", count=2)
    assert [
        (n["crossingDirection"], n["performanceValue"]) for n in notes
    ] == [
        ("UP", 90.0),
        ("DOWN", 70.0),
    ]
    assert notes[0]["thresholdId"] == th_id
    assert notes[0]["subObjectInstanceId"] == vnfcs[0]
    assert (
        notes[0]["_links"]["threshold"]["href"]
        == created["Links"]["self"]["href"]
    )

    out = _pm(cli, "threshold", "delete", th_id)
    assert f"VNF PM threshold '{th_id}' deleted successfully" in out.stdout
    assert _pm(cli, "threshold", "show", th_id, check=False).returncode != 0


def test_bad_requests_fail_with_the_reason(cli, vnf, nfvo, tmp_path):
    inst_id, _ = vnf
    unknown_metric = {
        "objectType": "Vnf",
        "objectInstanceIds": [inst_id],
        "criteria": {
            "performanceMetric": ["VCpuUsageAverageVnf"],
            "collectionPeriod": 30,
            "reportingPeriod": 60,
        },
        "callbackUri": nfvo.url,
    }
    out = _pm(
        cli, "job", "create", _file(tmp_path, "bad.json", unknown_metric),
        check=False,
    )  # fmt: skip
    assert out.returncode != 0
    assert "'VCpuUsageAverageVnf' is not a performance metric" in out.stderr
    # python-tackerclient's own sample body: a string period, OAuth2
    # client certificates (SOL013 v3.5.1, not v3.3.1): 400, not 500.
    sample = dict(unknown_metric)
    sample["criteria"] = dict(sample["criteria"], collectionPeriod="500")
    out = _pm(
        cli, "job", "create", _file(tmp_path, "bad2.json", sample),
        check=False,
    )  # fmt: skip
    assert out.returncode != 0 and "collectionPeriod" in out.stderr
    dead = dict(unknown_metric, callbackUri="http://127.0.0.1:9/dead")
    dead["criteria"] = dict(
        unknown_metric["criteria"], performanceMetric=["VCpuUsageMeanVnf"]
    )
    out = _pm(
        cli, "job", "create", _file(tmp_path, "dead.json", dead), check=False
    )
    assert out.returncode != 0 and "test GET" in out.stderr
    assert inst_id not in json.dumps(_pm_json(cli, "job", "list"))


def test_a_terminated_vnf_cannot_be_measured(cli, dep, tmp_path, nfvo):
    inst_id = cli.lcm_json(
        "vnflcm", "create", dep.package["vnfd_id"], "--name", "idle"
    )["ID"]
    body = {
        "objectType": "Vnf",
        "objectInstanceId": inst_id,
        "criteria": {
            "performanceMetric": "VCpuUsageMeanVnf",
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {"thresholdValue": 1, "hysteresis": 0},
        },
        "callbackUri": nfvo.url,
    }
    out = _pm(
        cli, "threshold", "create", _file(tmp_path, "t.json", body),
        check=False,
    )  # fmt: skip
    assert out.returncode != 0 and "not instantiated" in out.stderr
