"""Two NFVO tenants measuring their own VNFs with python-tackerclient's
``openstack vnfpm`` commands (http_basic users in their own projects):
neither can measure the other's VNF, nor list, read, change or delete
the other's PM jobs and thresholds."""

import json

import bcrypt
import pytest

from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.auth import nfvo
from tacker_ng.tests.functional.osc.cli import Cli
from tacker_ng.tests.functional.receiver import Receiver


@pytest.fixture(scope="module")
def tenants(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pm-projects")
    extra = {"api": {"http_basic_user_projects": "alice:proj-a,bob:proj-b"}}
    with (
        Receiver() as receiver,
        services.scratch_database("postgresql") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra, api_workers=1
        ) as dep,
    ):
        digest = bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)).decode()
        with open(tmp / "htpasswd", "a") as htpasswd:
            htpasswd.write(f"alice:{digest}\nbob:{digest}\n")
        package = nfvo.onboard(dep, "proj-a")
        alice = deployment.SolClient(
            dep.url, deployment.basic_auth("alice", "pw")
        )
        resp = alice.post(
            "/vnflcm/v2/vnf_instances",
            {
                "vnfdId": package["vnfd_id"],
                "vimConnectionInfo": lcm_fixtures.fake_vim(),
            },
        )
        assert resp.status_code == 201, resp.text
        inst = resp.json()["id"]
        occ = alice.start(inst, "instantiate", {"flavourId": "simple"})
        assert alice.wait(occ, ("COMPLETED",))["operationState"] == (
            "COMPLETED"
        )
        yield (
            inst,
            Cli(dep.url, "alice", "pw"),
            Cli(dep.url, "bob", "pw"),
            receiver,
        )


def _pm(cli, *args, check=True):
    return cli.run("--os-tacker-api-version", "2", "vnfpm", *args, check=check)


def _json(cli, *args):
    return cli.json("--os-tacker-api-version", "2", "vnfpm", *args)


def _file(tmp_path, name, body) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(body))
    return str(path)


def test_tenants_cannot_measure_or_see_each_others(tenants, tmp_path):
    inst, alice, bob, receiver = tenants
    job_body = {
        "objectType": "Vnf",
        "objectInstanceIds": [inst],
        "criteria": {
            "performanceMetric": ["VMemoryUsageMeanVnf"],
            "collectionPeriod": 60,
            "reportingPeriod": 600,
        },
        "callbackUri": receiver.url,
    }
    th_body = {
        "objectType": "Vnf",
        "objectInstanceId": inst,
        "criteria": {
            "performanceMetric": "VCpuUsageMeanVnf",
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {"thresholdValue": 90, "hysteresis": 2},
        },
        "callbackUri": receiver.url,
    }
    job_file = _file(tmp_path, "job.json", job_body)
    th_file = _file(tmp_path, "th.json", th_body)
    job = _json(alice, "job", "create", job_file)["ID"]
    th = _json(alice, "threshold", "create", th_file)["ID"]

    # Bob cannot measure Alice's VNF: it does not exist for him.
    for kind, path in (("job", job_file), ("threshold", th_file)):
        out = _pm(bob, kind, "create", path, check=False)
        assert out.returncode != 0
        assert f"VNF instance {inst} does not exist" in out.stderr
    # He lists nothing and reaches nothing of hers by id.
    assert _json(bob, "job", "list") == []
    assert _json(bob, "threshold", "list") == []
    update = _file(tmp_path, "u.json", {"callbackUri": receiver.url + "/b"})
    for kind, ident in (("job", job), ("threshold", th)):
        for args in (
            ("show", ident),
            ("update", ident, update),
            ("delete", ident),
        ):
            out = _pm(bob, kind, *args, check=False)
            assert out.returncode != 0, (kind, args, out.stdout)
    out = _pm(bob, "report", "show", job, "any", check=False)
    assert out.returncode != 0

    # Alice's job and threshold are as she left them.
    assert _json(alice, "job", "show", job)["Callback Uri"] == receiver.url
    shown = _json(alice, "threshold", "show", th)
    assert shown["Callback Uri"] == receiver.url
    assert [j["Id"] for j in _json(alice, "job", "list")] == [job]
    assert [t["ID"] for t in _json(alice, "threshold", "list")] == [th]
