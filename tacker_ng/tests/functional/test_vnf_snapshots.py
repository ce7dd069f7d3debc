"""An NFVO snapshots a VNF and reverts to it through real processes.

API and two conductors on RabbitMQ with MariaDB and with PostgreSQL, the
fake VIM driver, a real HTTP receiver for the notifications. Every
response body is checked against the SOL003 OpenAPI document by the
client (VnfSnapshotInfo, op occs, ProblemDetails); every op occ is
notified STARTING -> PROCESSING -> COMPLETED. The OpenStack driver's
images and rebuilds are tested on minicloud
(openstack/test_snapshots.py).
"""

import json
import time

import pytest
import sqlalchemy as sa

from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.receiver import Receiver

SNAPS = "/vnflcm/v2/vnf_snapshots"
INSTANCES = "/vnflcm/v2/vnf_instances"


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def env(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"snap-{request.param}")
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        lcm_fixtures.lcm_deployment(tmp, request.param) as dep,
    ):
        client = dep.client()
        resp = client.post(
            "/vnflcm/v2/subscriptions",
            {
                "callbackUri": receiver.url,
                "authentication": {
                    "authType": ["BASIC"],
                    "paramsBasic": {"userName": "nfvo", "password": "cb-pass"},
                },
            },
        )
        assert resp.status_code == 201, resp.text
        yield dep, client, receiver


def _notified(receiver, occ_id, final, timeout=20) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = receiver.states(occ_id)
        if states and states[-1] == final:
            return states
        time.sleep(0.1)
    raise AssertionError(
        f"notifications of {occ_id}: {receiver.states(occ_id)}"
    )


def _instance(dep, client, instantiate=True) -> str:
    resp = client.post(
        INSTANCES,
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


def _new_snapshot(client) -> dict:
    resp = client.post(SNAPS, {})
    assert resp.status_code == 201, resp.text
    body = resp.json()
    assert resp.headers["Location"].endswith(f"{SNAPS}/{body['id']}")
    assert set(body) == {"id", "_links"}
    return body


def _info(client, inst_id) -> dict:
    return client.get(f"{INSTANCES}/{inst_id}").json()["instantiatedVnfInfo"]


def _states(client, inst_id) -> set[str]:
    return {v["vnfcState"] for v in _info(client, inst_id)["vnfcInfo"]}


def _problem(resp, status: int, words: str) -> None:
    assert resp.status_code == status, resp.text
    assert resp.headers["Content-Type"].startswith("application/problem+json")
    assert words in resp.json()["detail"], resp.json()


def _patch(client, snap_id: str, body, media="application/merge-patch+json"):
    return client.call(
        "PATCH",
        f"{SNAPS}/{snap_id}",
        data=json.dumps(body),
        headers={"Content-Type": media},
    )


def test_modify_and_state_snapshot(env):
    """PATCH (SOL003 5.4.24.3.4) changes an empty VnfSnapshotInfo only:
    409 while create_snapshot fills it and once it holds a VnfSnapshot;
    the attributes it could set are refused with a 422 naming them, as
    in the POST. vnf_state_snapshot (5.4.25) is a 409: tacker-ng takes
    no VNF state snapshot."""
    dep, client, _ = env
    inst_id = _instance(dep, client)
    snap = _new_snapshot(client)
    path = f"{SNAPS}/{snap['id']}"
    # Nothing to modify on an empty one: merge-patch nulls are no-ops.
    for body in ({}, {"vnfSnapshotPkgId": None, "vnfSnapshot": None}):
        resp = _patch(client, snap["id"], body)
        assert resp.status_code == 200, resp.text
        assert resp.json() == {}
    resp = _patch(client, snap["id"], {}, media="application/json")
    assert resp.status_code == 200, resp.text
    _problem(
        _patch(client, snap["id"], {"vnfSnapshotPkgId": "pkg-1"}),
        422,
        "vnfSnapshotPkgId is not supported",
    )
    _problem(
        _patch(client, snap["id"], {"vnfSnapshot": {"id": "x"}}),
        422,
        "vnfSnapshot is not supported",
    )
    _problem(_patch(client, snap["id"], {"id": "other"}), 400, "id")
    _problem(_patch(client, snap["id"], {"vnfSnapshotPkgId": 5}), 400, "5")
    _problem(_patch(client, "no-such", {}), 404, "no-such")
    assert client.get(path).json() == snap  # unchanged
    # The POST refuses the same attributes, and creates nothing.
    count = len(client.get(SNAPS).json())
    _problem(
        client.post(SNAPS, {"vnfSnapshotPkgId": "pkg-1"}),
        422,
        "vnfSnapshotPkgId is not supported",
    )
    _problem(
        client.post(SNAPS, {"vnfSnapshot": {"id": "x"}}),
        422,
        "vnfSnapshot is not supported",
    )
    assert len(client.get(SNAPS).json()) == count
    # The state snapshot: unknown 404, empty 409.
    state = f"{path}/vnf_state_snapshot"
    _problem(client.get(f"{SNAPS}/no-such/vnf_state_snapshot"), 404, "no-such")
    _problem(client.get(state), 409, "is empty")
    # In use while create_snapshot fills it, then filled: both 409.
    occ_id = client.start(
        inst_id,
        "create_snapshot",
        {
            "vnfSnapshotInfoId": snap["id"],
            "additionalParams": {"fake": {"sleep": 3}},
        },
    )
    _problem(_patch(client, snap["id"], {}), 409, occ_id)
    client.wait(occ_id, ("COMPLETED",))
    _problem(
        _patch(client, snap["id"], {"vnfSnapshotPkgId": "pkg-1"}),
        409,
        "already holds a VnfSnapshot",
    )
    assert "vnfSnapshotPkgId" not in client.get(path).json()
    for headers in ({}, {"Range": "bytes=0-99"}):
        _problem(
            client.get(state, headers=headers),
            409,
            "takes no VNF-specific state snapshot",
        )


def test_snapshot_heal_revert_delete(env):
    dep, client, receiver = env
    inst_id = _instance(dep, client)
    snap = _new_snapshot(client)
    occ = client.run(
        inst_id,
        "create_snapshot",
        {"vnfSnapshotInfoId": snap["id"], "userDefinedData": {"k": "v"}},
    )
    assert occ["operation"] == "CREATE_SNAPSHOT"
    assert _notified(receiver, occ["id"], "COMPLETED") == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    resp = client.get(f"{SNAPS}/{snap['id']}")
    assert resp.status_code == 200
    shown = resp.json()
    assert "vim-secret" not in resp.text
    taken = shown["vnfSnapshot"]
    before = _info(client, inst_id)
    assert taken["vnfInstanceId"] == inst_id
    assert taken["vnfdId"] == dep.package["vnfd_id"]
    assert taken["userDefinedData"] == {"k": "v"}
    assert taken["vnfInstance"]["instantiatedVnfInfo"] == before
    assert sorted(s["vnfcResourceInfoId"] for s in taken["vnfcSnapshots"]) == (
        sorted(v["id"] for v in before["vnfcResourceInfo"])
    )
    assert shown["_links"]["takenFrom"]["href"].endswith(
        f"{INSTANCES}/{inst_id}"
    )
    # The list filters in SQL on the snapshot's body.
    mine = client.get(
        SNAPS, params={"filter": f"(eq,vnfSnapshot/vnfInstanceId,{inst_id})"}
    ).json()
    assert [s["id"] for s in mine] == [snap["id"]]
    assert (
        client.get(
            SNAPS, params={"filter": "(eq,vnfSnapshot/vnfInstanceId,nope)"}
        ).json()
        == []
    )
    # A filled snapshot is not taken again.
    _problem(
        client.post(
            f"{INSTANCES}/{inst_id}/create_snapshot",
            {"vnfSnapshotInfoId": snap["id"]},
        ),
        409,
        "already holds a snapshot",
    )
    # Heal replaces a server; the revert keeps it and restores the rest.
    target = before["vnfcResourceInfo"][0]
    client.run(inst_id, "heal", {"vnfcInstanceId": [target["id"]]})
    healed = _info(client, inst_id)
    assert (
        healed["vnfcResourceInfo"][0]["computeResource"]
        != (target["computeResource"])
    )
    client.run(
        inst_id,
        "operate",
        {"changeStateTo": "STOPPED"},
    )
    assert _states(client, inst_id) == {"STOPPED"}
    occ = client.run(
        inst_id, "revert_to_snapshot", {"vnfSnapshotInfoId": snap["id"]}
    )
    assert occ["operation"] == "REVERT_TO_SNAPSHOT"
    assert _notified(receiver, occ["id"], "COMPLETED") == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    after = _info(client, inst_id)
    assert after["vnfState"] == before["vnfState"] == "STARTED"
    assert _states(client, inst_id) == {"STARTED"}
    assert [v["id"] for v in after["vnfcResourceInfo"]] == [
        v["id"] for v in before["vnfcResourceInfo"]
    ]
    assert [v["computeResource"] for v in after["vnfcResourceInfo"]] == [
        v["computeResource"] for v in healed["vnfcResourceInfo"]
    ]
    # Delete: 204, then gone for good.
    resp = client.call("DELETE", f"{SNAPS}/{snap['id']}")
    assert resp.status_code == 204, resp.text
    _problem(client.get(f"{SNAPS}/{snap['id']}"), 404, snap["id"])
    _problem(client.call("DELETE", f"{SNAPS}/{snap['id']}"), 404, snap["id"])
    _problem(
        client.post(
            f"{INSTANCES}/{inst_id}/revert_to_snapshot",
            {"vnfSnapshotInfoId": snap["id"]},
        ),
        404,
        snap["id"],
    )


def _grant_request(dep, occ_id: str) -> dict:
    """The GrantRequest the conductor sent for ``occ_id`` (as stored)."""
    engine = sa.create_engine(dep.sql_url)
    try:
        with engine.connect() as conn:
            body = conn.execute(
                sa.text(
                    "SELECT grant_request FROM grants "
                    "WHERE vnf_lcm_op_occ_id = :id"
                ),
                {"id": occ_id},
            ).scalar_one()
    finally:
        engine.dispose()
    return json.loads(body) if isinstance(body, str) else body


def test_refusals(env):
    dep, client, _ = env
    first = _instance(dep, client)
    other = _instance(dep, client)
    fresh = _instance(dep, client, instantiate=False)
    snap = _new_snapshot(client)
    empty = _new_snapshot(client)
    client.run(first, "create_snapshot", {"vnfSnapshotInfoId": snap["id"]})
    _problem(
        client.post(
            f"{INSTANCES}/{other}/revert_to_snapshot",
            {"vnfSnapshotInfoId": snap["id"]},
        ),
        409,
        f"taken of VNF instance {first}",
    )
    _problem(
        client.post(
            f"{INSTANCES}/{first}/revert_to_snapshot",
            {"vnfSnapshotInfoId": empty["id"]},
        ),
        409,
        "holds no snapshot yet",
    )
    _problem(
        client.post(
            f"{INSTANCES}/{fresh}/create_snapshot",
            {"vnfSnapshotInfoId": empty["id"]},
        ),
        409,
        "INSTANTIATED",
    )
    _problem(
        client.post(
            f"{INSTANCES}/{first}/create_snapshot",
            {"vnfSnapshotInfoId": "no-such-snapshot"},
        ),
        404,
        "no-such-snapshot",
    )
    resp = client.post(f"{INSTANCES}/{first}/create_snapshot", {})
    assert resp.status_code == 400, resp.text
    # Scaled since the snapshot: the revert brings its VNFCs back (the
    # fake driver keeps no scaleStatus; the OpenStack driver's stack update
    # and scaleStatus are tested on minicloud, openstack/test_snapshots.py).
    then = _info(client, first)
    client.run(first, "scale", {"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
    scaled = _info(client, first)
    assert len(scaled["vnfcResourceInfo"]) > len(then["vnfcResourceInfo"])
    occ = client.run(
        first, "revert_to_snapshot", {"vnfSnapshotInfoId": snap["id"]}
    )
    after = _info(client, first)
    assert [v["id"] for v in after["vnfcResourceInfo"]] == [
        v["id"] for v in then["vnfcResourceInfo"]
    ]
    changes = occ["resourceChanges"]["affectedVnfcs"]
    removed = {c["id"] for c in changes if c["changeType"] == "REMOVED"}
    assert removed == {v["id"] for v in scaled["vnfcResourceInfo"]} - {
        v["id"] for v in then["vnfcResourceInfo"]
    }
    # The conductor granted the re-scale: the VNFCs it removes, and the
    # ones it rebuilds in place.
    body = _grant_request(dep, occ["id"])
    assert body["operation"] == "REVERT_TO_SNAPSHOT"
    assert "addResources" not in body
    assert {d["id"] for d in body["removeResources"]} == removed
    assert {d["id"] for d in body["updateResources"]} == {
        v["id"] for v in then["vnfcResourceInfo"]
    }
    # A snapshot being taken is in use: no delete, no second use.
    occ_id = client.start(
        other,
        "create_snapshot",
        {
            "vnfSnapshotInfoId": empty["id"],
            "additionalParams": {"fake": {"sleep": 5}},
        },
    )
    _problem(client.call("DELETE", f"{SNAPS}/{empty['id']}"), 409, occ_id)
    _problem(
        client.post(
            f"{INSTANCES}/{first}/create_snapshot",
            {"vnfSnapshotInfoId": empty["id"]},
        ),
        409,
        occ_id,
    )
    client.wait(occ_id, ("COMPLETED",))
    assert client.call("DELETE", f"{SNAPS}/{empty['id']}").status_code == 204
