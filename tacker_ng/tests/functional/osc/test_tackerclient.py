"""python-tackerclient's ``openstack`` commands, unchanged, on tacker-ng.

An NFVO operator who already uses python-tackerclient points it at
tacker-ng (standalone: http_basic + --os-endpoint) and onboards a
package, runs a VNF through its lifecycle, reads its op occs and manages
subscriptions, with the commands and output formats they know.
"""

import json
import time
import uuid

from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.receiver import Receiver


def _file(tmp_path, name: str, body) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(body))
    return str(path)


#: Op occs already returned by _latest_occ (each operation is new once).
_SEEN: set[str] = set()


def _latest_occ(cli, instance_id: str) -> dict:
    """The op occ of the instance's newest operation (op list + show)."""
    occs = cli.lcm_json(
        "vnflcm", "op", "list", "--filter", f"(eq,vnfInstanceId,{instance_id})"
    )
    new = [o["ID"] for o in occs if o["ID"] not in _SEEN]
    assert len(new) == 1, (occs, _SEEN)
    _SEEN.add(new[0])
    return cli.lcm_json("vnflcm", "op", "show", new[0])


def _wait(cli, occ_id: str) -> dict:
    """tacker-ng's own plugin follows the op started by tackerclient."""
    return cli.json("vnflcm", "op", "wait", occ_id, "--interval", "0.3")


def test_package_onboarding_with_tackerclient(cli, tmp_path):
    vnfd_id = str(uuid.uuid4())
    csar = tmp_path / "pkg.zip"
    csar.write_bytes(lcm_packages.build(vnfd_id))
    created = cli.json("vnf", "package", "create")
    assert created["Onboarding State"] == "CREATED"
    out = cli.run(
        "vnf", "package", "upload", "--path", str(csar), created["ID"]
    )
    assert "Upload request for VNF package" in out.stdout
    shown = {}
    for _ in range(100):
        shown = cli.json("vnf", "package", "show", created["ID"])
        if shown["Onboarding State"] != "PROCESSING":
            break
        time.sleep(0.3)
    assert shown["Onboarding State"] == "ONBOARDED", shown
    assert shown["VNFD ID"] == vnfd_id
    listed = cli.json("vnf", "package", "list")
    assert created["ID"] in {p["Id"] for p in listed}


def test_vnf_lifecycle_with_tackerclient(dep, cli, tmp_path):
    created = cli.lcm_json(
        "vnflcm", "create", dep.package["vnfd_id"], "--name", "cli-walk"
    )
    inst_id = created["ID"]
    assert created["Instantiation State"] == "NOT_INSTANTIATED"
    request = {
        "flavourId": "simple",
        "vimConnectionInfo": lcm_fixtures.fake_vim(),
    }
    out = cli.lcm(
        "vnflcm", "instantiate", inst_id, _file(tmp_path, "i.json", request)
    )
    assert f"Instantiate request for VNF Instance {inst_id}" in out.stdout
    occ = _latest_occ(cli, inst_id)
    assert occ["Operation"] == "INSTANTIATE"
    waited = _wait(cli, occ["ID"])
    assert waited["Operation State"] == "COMPLETED"
    # One set of names: each column of our op wait is one of
    # python-tackerclient's op show, with the same value.
    occ = cli.lcm_json("vnflcm", "op", "show", occ["ID"])
    assert {k: occ.get(k) for k in waited} == waited
    shown = cli.lcm_json("vnflcm", "show", inst_id)
    assert shown["Instantiation State"] == "INSTANTIATED"
    # The VIM password given at instantiation is never shown back.
    assert "vim-secret" not in json.dumps(shown)

    cli.lcm(
        "vnflcm", "scale", inst_id, "--type", "SCALE_OUT",
        "--aspect-id", "VDU1_scale",
    )  # fmt: skip
    occ = _latest_occ(cli, inst_id)
    assert occ["Operation"] == "SCALE"
    assert _wait(cli, occ["ID"])["Operation State"] == "COMPLETED"

    vnfc = shown["Instantiated Vnf Info"]["vnfcResourceInfo"][0]["id"]
    cli.lcm("vnflcm", "heal", inst_id, "--vnfc-instance", vnfc)
    occ = _latest_occ(cli, inst_id)
    assert occ["Operation"] == "HEAL"
    assert _wait(cli, occ["ID"])["Operation State"] == "COMPLETED"

    out = cli.lcm("vnflcm", "terminate", inst_id)
    assert f"Terminate request for VNF Instance '{inst_id}'" in out.stdout
    occ = _latest_occ(cli, inst_id)
    assert occ["Operation"] == "TERMINATE"
    assert _wait(cli, occ["ID"])["Operation State"] == "COMPLETED"
    cli.lcm("vnflcm", "delete", inst_id)
    gone = cli.lcm("vnflcm", "show", inst_id, check=False)
    assert gone.returncode != 0
    assert "does not exist" in gone.stderr + gone.stdout


def _failing_instantiate(dep, cli, tmp_path, fake: dict) -> str:
    """A VNF whose instantiation fails; its op occ id once FAILED_TEMP."""
    inst_id = cli.lcm_json("vnflcm", "create", dep.package["vnfd_id"])["ID"]
    request = {
        "flavourId": "simple",
        "vimConnectionInfo": lcm_fixtures.fake_vim(),
        "additionalParams": {"fake": {"fail_at": "INSTANTIATE", **fake}},
    }
    cli.lcm(
        "vnflcm", "instantiate", inst_id, _file(tmp_path, "f.json", request)
    )
    occ_id = _latest_occ(cli, inst_id)["ID"]
    waited = cli.run("vnflcm", "op", "wait", occ_id, check=False)
    assert waited.returncode == 1, waited.stdout + waited.stderr
    assert (
        "Operation INSTANTIATE ("
        f"{occ_id}) ended FAILED_TEMP: VIM Error: Simulated VIM failure"
    ) in waited.stderr
    return occ_id


def test_failed_op_retry_with_tackerclient(dep, cli, tmp_path):
    occ_id = _failing_instantiate(dep, cli, tmp_path, {"fail_times": 1})
    out = cli.lcm("vnflcm", "op", "retry", occ_id)
    assert "Retry request for LCM operation" in out.stdout
    assert _wait(cli, occ_id)["Operation State"] == "COMPLETED"


def test_failed_op_rollback_with_tackerclient(dep, cli, tmp_path):
    occ_id = _failing_instantiate(dep, cli, tmp_path, {})
    cli.lcm("vnflcm", "op", "rollback", occ_id)
    waited = cli.run("vnflcm", "op", "wait", occ_id, check=False)
    assert waited.returncode == 1
    assert "ended ROLLED_BACK" in waited.stderr


def test_failed_op_fail_with_tackerclient(dep, cli, tmp_path):
    occ_id = _failing_instantiate(dep, cli, tmp_path, {})
    failed = cli.lcm_json("vnflcm", "op", "fail", occ_id)
    assert failed["Operation State"] == "FAILED"
    waited = cli.run("vnflcm", "op", "wait", occ_id, check=False)
    assert waited.returncode == 1
    assert "ended FAILED" in waited.stderr


def test_subscriptions_with_tackerclient(cli, tmp_path):
    with Receiver("nfvo", "cb-pass") as receiver:
        request = {
            "callbackUri": receiver.url,
            "authentication": {
                "authType": ["BASIC"],
                "paramsBasic": {"userName": "nfvo", "password": "cb-pass"},
            },
        }
        created = cli.lcm_json(
            "vnflcm", "subsc", "create", _file(tmp_path, "s.json", request)
        )
    assert created["Callback URI"] == receiver.url
    assert "cb-pass" not in json.dumps(created)
    listed = cli.lcm_json("vnflcm", "subsc", "list")
    assert created["ID"] in {s["ID"] for s in listed}
    shown = cli.lcm_json("vnflcm", "subsc", "show", created["ID"])
    assert shown["ID"] == created["ID"]
    cli.lcm("vnflcm", "subsc", "delete", created["ID"])
    assert created["ID"] not in {
        s["ID"] for s in cli.lcm_json("vnflcm", "subsc", "list")
    }
