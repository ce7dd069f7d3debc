"""tacker-ng's own ``openstack`` commands against a real API process.

The VNF is made with the SOL003 REST API (fake VIM driver); then the
plugin's commands, run as a user runs them, scale it to a level, change
its flavour, show where its VNFCs are, wait for op occs (on a pipe and
on a terminal) and list the conductor fleet.
"""

import json
import os
import pty
import subprocess

import pytest

from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs


@pytest.fixture(scope="module")
def vnf(dep):
    client = dep.client()
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    inst = resp.json()
    client.run(inst["id"], "instantiate", {"flavourId": "simple"})
    return inst["id"]


def _vnfcs(dep, inst_id) -> list[dict]:
    inst = dep.client().get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return inst["instantiatedVnfInfo"]["vnfcResourceInfo"]


def test_scale_to_level_and_wait(dep, cli, vnf):
    done = cli.run(
        "vnflcm", "scale-to-level", vnf,
        "--instantiation-level-id", "instantiation_level_2",
        "--wait", "--interval", "0.2", "-f", "json",
    )  # fmt: skip
    occ = json.loads(done.stdout)
    assert occ["Operation"] == "SCALE_TO_LEVEL"
    assert occ["Operation State"] == "COMPLETED"
    # Not a terminal: one plain line per state, last the final one.
    lines = done.stderr.strip().splitlines()
    assert lines[-1].endswith(f"SCALE_TO_LEVEL {occ['ID']} COMPLETED")
    assert "\r" not in done.stderr
    vdus = sorted(v["vduId"] for v in _vnfcs(dep, vnf))
    assert vdus == ["VDU1"] * 3 + ["VDU2"] * 4

    occ_id = cli.run(
        "vnflcm", "scale-to-level", vnf, "--scale-level", "VDU1_scale=0",
        "-f", "value", "-c", "ID",
    ).stdout.strip()  # fmt: skip
    waited = json.loads(
        cli.run("vnflcm", "op", "wait", occ_id, "-f", "json").stdout
    )
    assert waited["Operation State"] == "COMPLETED"
    assert waited["ID"] == occ_id


def test_placement_show_matches_the_instance(dep, cli, vnf):
    rows = cli.json("vnflcm", "placement", "show", vnf)
    expected = sorted(
        (v["vduId"], v["id"], v.get("zoneId") or v["metadata"]["zone"])
        for v in _vnfcs(dep, vnf)
    )
    assert sorted((r["VDU"], r["VNFC"], r["Zone"]) for r in rows) == expected
    assert {r["Zone"] for r in rows} <= set(lcm_fixtures.ZONES)
    note = cli.run("vnflcm", "placement", "show", vnf).stderr
    assert "vnflcm observed show" in note


def test_change_flavour_and_its_errors(dep, cli, vnf):
    occ = cli.json(
        "vnflcm", "change-flavour", vnf, "--flavour-id", "internal_vl",
        "--wait", "--interval", "0.2",
    )  # fmt: skip
    assert occ["Operation"] == "CHANGE_FLAVOUR"
    assert occ["Operation State"] == "COMPLETED"
    inst = dep.client().get(f"/vnflcm/v2/vnf_instances/{vnf}").json()
    assert inst["instantiatedVnfInfo"]["flavourId"] == "internal_vl"

    bad = cli.run(
        "vnflcm", "change-flavour", vnf, "--flavour-id", "no-such",
        check=False,
    )  # fmt: skip
    assert bad.returncode == 1
    assert bad.stderr.strip().splitlines()[-1].startswith("HTTP 422 ")
    assert "Traceback" not in bad.stderr
    missing = cli.run(
        "vnflcm", "scale-to-level", "no-such-vnf", "--scale-level", "a=1",
        check=False,
    )  # fmt: skip
    assert missing.returncode == 1
    assert "HTTP 404 Not Found: VNF instance no-such-vnf does not exist." in (
        missing.stderr
    )


def test_op_wait_shows_a_bar_on_a_terminal(dep, cli, vnf):
    occ_id = cli.run(
        "vnflcm", "scale-to-level", vnf, "--scale-level", "VDU1_scale=1",
        "-f", "value", "-c", "ID",
    ).stdout.strip()  # fmt: skip
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [*cli.base, "vnflcm", "op", "wait", occ_id, "-f", "value",
             "-c", "Operation State", "--interval", "0.2"],
            stdout=subprocess.PIPE,
            stderr=follower,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )  # fmt: skip
        os.close(follower)
        follower = -1
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower >= 0:
            os.close(follower)
        os.close(leader)
    tty = b"".join(chunks).decode()
    assert done.returncode == 0, tty
    assert done.stdout.decode().strip() == "COMPLETED"
    assert "\r[" + "#" * 24 + "] COMPLETED" in tty


def test_conductor_list(dep, cli):
    rows = cli.json("tacker-ng", "conductor", "list")
    assert {r["Hostname"]: r["Alive"] for r in rows} == {
        "cond-a": True,
        "cond-b": True,
    }


def test_wrong_credentials_are_one_line(dep, cli):
    done = subprocess.run(
        [*cli.base[:-1], "wrong", "tacker-ng", "conductor", "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "HTTP 401" in done.stderr
    assert "Traceback" not in done.stderr


def test_noauth_form(tmp_path):
    """``[api] auth_strategy = noauth``: ``--os-auth-type none``."""
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp_path,
            sql_url,
            conductors=("cond-n",),
            extra={"api": {"auth_strategy": "noauth"}},
            api_workers=1,
        ) as dep,
    ):
        done = subprocess.run(
            [
                procs.script("openstack"),
                "--os-auth-type", "none",
                "--os-endpoint", dep.url,
                "tacker-ng", "conductor", "list", "-f", "json",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [c["Hostname"] for c in json.loads(done.stdout)] == ["cond-n"]
