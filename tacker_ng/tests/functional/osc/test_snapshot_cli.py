"""``openstack vnflcm snapshot ...`` run as a user runs it.

The real API and two conductors on MariaDB with the fake VIM driver, a
page size of 2 so that ``snapshot list`` has to follow the Link header.
The VNFs are made with the SOL003 REST API.
"""

import json

import pytest

from tacker_ng.tests.functional import lcm_fixtures

SNAPS = "/vnflcm/v2/vnf_snapshots"


@pytest.fixture(scope="module")
def dep(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("osc-snap")
    with lcm_fixtures.lcm_deployment(
        tmp, "mariadb", extra={"api": {"max_page_size": 2}}
    ) as deployment:
        yield deployment


def _instance(dep, instantiate: bool = True) -> str:
    client = dep.client()
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    if instantiate:
        client.run(inst_id, "instantiate", {"flavourId": "simple"})
    return inst_id


def _snapshot_ids(dep) -> set[str]:
    """Every VnfSnapshotInfo id, read page by page through the API."""
    ids: set[str] = set()
    url = SNAPS
    client = dep.client()
    while url:
        resp = client.get(url)
        assert resp.status_code == 200, resp.text
        ids |= {s["id"] for s in resp.json()}
        url = resp.links.get("next", {}).get("url", "").replace(dep.url, "")
    return ids


def test_snapshot_create_list_show_revert_delete(dep, cli):
    inst = _instance(dep)
    other = _instance(dep)
    done = cli.run(
        "vnflcm", "snapshot", "create", inst, "--wait", "--interval", "0.2",
        "-f", "json",
    )  # fmt: skip
    occ = json.loads(done.stdout)
    assert occ["Operation"] == "CREATE_SNAPSHOT"
    assert occ["Operation State"] == "COMPLETED"
    assert done.stderr.strip().splitlines()[-1].endswith("COMPLETED")
    snap = occ["VNF Snapshot Info ID"]
    # Without --wait: the op occ and the snapshot id, then op wait.
    started = cli.json("vnflcm", "snapshot", "create", other)
    assert started["Operation"] == "CREATE_SNAPSHOT"
    waited = cli.json("vnflcm", "op", "wait", started["ID"])
    assert waited["Operation State"] == "COMPLETED"

    shown = cli.json("vnflcm", "snapshot", "show", snap)
    assert shown["ID"] == snap
    assert shown["VNF Instance ID"] == inst
    assert shown["VNFD ID"] == dep.package["vnfd_id"]
    assert len(shown["VNFC Snapshots"]) == 3

    # Three more (empty) infos: the list spans three pages of two.
    for _ in range(3):
        assert dep.client().post(SNAPS, {}).status_code == 201
    listed = cli.json("vnflcm", "snapshot", "list")
    assert {r["ID"] for r in listed} == _snapshot_ids(dep)
    assert len(listed) == 5
    mine = cli.json(
        "vnflcm", "snapshot", "list",
        "--filter", f"(eq,vnfSnapshot/vnfInstanceId,{inst})",
    )  # fmt: skip
    assert [(r["ID"], r["VNF Instance ID"]) for r in mine] == [(snap, inst)]

    reverted = cli.json(
        "vnflcm", "snapshot", "revert", inst, snap, "--wait",
        "--interval", "0.2",
    )  # fmt: skip
    assert reverted["Operation"] == "REVERT_TO_SNAPSHOT"
    assert reverted["Operation State"] == "COMPLETED"

    # A snapshot of another instance: refused, one line, exit code 1.
    refused = cli.run("vnflcm", "snapshot", "revert", other, snap, check=False)
    assert refused.returncode == 1
    last = refused.stderr.strip().splitlines()[-1]
    assert last.startswith("HTTP 409 Conflict: ")
    assert f"taken of VNF instance {inst}" in last
    assert "Traceback" not in refused.stderr

    started_snap = started["VNF Snapshot Info ID"]
    cli.run("vnflcm", "snapshot", "delete", snap, started_snap)
    assert snap not in _snapshot_ids(dep)
    gone = cli.run("vnflcm", "snapshot", "show", snap, check=False)
    assert gone.returncode == 1 and "HTTP 404" in gone.stderr
    again = cli.run("vnflcm", "snapshot", "delete", snap, check=False)
    assert again.returncode == 1
    assert "Failed to delete 1 of 1 VNF snapshot(s)." in again.stderr


def test_refused_create_leaves_no_empty_snapshot(dep, cli):
    fresh = _instance(dep, instantiate=False)
    before = _snapshot_ids(dep)
    refused = cli.run("vnflcm", "snapshot", "create", fresh, check=False)
    assert refused.returncode == 1
    last = refused.stderr.strip().splitlines()[-1]
    assert last.startswith("HTTP 409 Conflict: ") and "INSTANTIATED" in last
    assert _snapshot_ids(dep) == before
