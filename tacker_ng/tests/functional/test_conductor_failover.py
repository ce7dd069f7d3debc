"""A conductor killed mid-operation: another one finishes the operation.

Two conductors on RabbitMQ and MariaDB or PostgreSQL hand operations to
each other through the Redis jobboard; a real HTTP server plays the NFVO
(remote grants). The conductor running an instantiate or a heal is killed
(SIGKILL) in each phase of the flow: while the NFVO holds its grant
request, while the MgmtDriver's start hook works, while the infra driver
works, while the end hook works. Its job claim expires after
``[conductor] claim_timeout`` and the other conductor resumes the flow at
the interrupted task: the op occ is COMPLETED (not FAILED_TEMP), the
NFVO got STARTING, PROCESSING, COMPLETED once each and in order, every
hook completed exactly once (an interrupted hook runs again from its
start: MgmtDriver hooks are written to be repeatable) and the VNF has the
VNFCs of one operation, not two.
"""

import json
import os
import signal
import time

import pytest
import requests
import sqlalchemy as sa

from tacker_ng.tests.functional import lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.fake_nfvo import FakeNfvo
from tacker_ng.tests.functional.receiver import Receiver

CLAIM_TIMEOUT = 4
REDIS_URL = "redis://127.0.0.1:6379/0"
#: Phases of a flow a conductor is killed in.
PHASES = ("grant", "start_hook", "driver", "end_hook")


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def deployed(request, tmp_path_factory):
    """One deployment per backend for the module (each test works on its
    own VNF instances and op occs)."""
    services.require("redis")
    tmp_path = tmp_path_factory.mktemp(f"failover-{request.param}")
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        FakeNfvo("vnfm", "s3cret", lcm_fixtures.ZONES) as nfvo,
        lcm_fixtures.lcm_deployment(
            tmp_path,
            request.param,
            extra={
                "conductor": {
                    "jobboard_url": REDIS_URL,
                    "claim_timeout": CLAIM_TIMEOUT,
                },
                "nfvo": lcm_fixtures.remote_nfvo(nfvo),
                # A delivery claim of a killed conductor expires after
                # 3 x timeout (the next notifications wait for it).
                "notification": {"timeout": 2},
            },
        ) as dep,
    ):
        client = dep.client()
        lcm_fixtures.subscribe(client, receiver)
        engine = sa.create_engine(dep.sql_url)
        try:
            yield dep, client, receiver, nfvo, engine
        finally:
            engine.dispose()


@pytest.fixture
def env(deployed):
    """The module's deployment with both conductors running (a test before
    killed or stopped one)."""
    deployed[0].revive_conductors()
    return deployed


def _row(engine, occ_id: str) -> dict:
    with engine.connect() as conn:
        row = conn.execute(
            sa.text(
                "SELECT conductor_host, progress FROM vnf_lcm_op_occs "
                "WHERE id = :id"
            ),
            {"id": occ_id},
        ).one()
    progress = row.progress
    if isinstance(progress, str):
        progress = json.loads(progress)
    return {"host": row.conductor_host, "progress": progress or {}}


def _vnfcs(client, inst_id: str) -> list[dict]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return inst["instantiatedVnfInfo"]["vnfcResourceInfo"]


def _hang_at(phase: str, op: str) -> tuple[dict, str]:
    """The request's ``additionalParams`` that make the fake drivers work
    (once) in ``phase`` for far longer than the test, and the name they
    record in ``progress.sleeping`` as they start (None: the grant)."""
    where = {
        "grant": None,
        "start_hook": f"{op}_start",
        "driver": op.upper(),
        "end_hook": f"{op}_end",
    }[phase]
    if where is None:
        return {}, None
    fake = {"sleep": 120, "sleep_at": where, "sleep_times": 1}
    return {"additionalParams": {"fake": fake}}, where


def _in_phase(engine, nfvo, occ_id: str, where: str | None) -> dict | None:
    row = _row(engine, occ_id)
    if not row["host"]:
        return None
    if where is None:
        return row if nfvo.grant_requests(occ_id) else None
    sleeping = row["progress"].get("driver", {}).get("sleeping", [])
    return row if where in sleeping else None


def _kill_owner(env, occ_id: str, where: str | None) -> str:
    """Kill the conductor running ``occ_id`` once it works in ``where``;
    check the other one takes the op over in time. Returns the survivor."""
    dep, client, receiver, nfvo, engine = env
    row = procs.wait_for(
        lambda: _in_phase(engine, nfvo, occ_id, where),
        20,
        f"the op to reach {where or 'the grant'}",
        interval=0.05,
    )
    owner = row["host"]
    survivor = next(h for h in dep.conductors if h != owner)
    os.killpg(dep.conductors[owner].popen.pid, signal.SIGKILL)
    killed = time.monotonic()

    procs.wait_for(
        lambda: _row(engine, occ_id)["host"] == survivor,
        CLAIM_TIMEOUT + 10,
        f"{survivor} to take the op occ over",
        interval=0.1,
    )
    resumed_after = time.monotonic() - killed
    assert resumed_after <= CLAIM_TIMEOUT + 3, resumed_after
    # The fleet view shows the job where it runs now.
    resp = requests.get(
        f"{dep.url}/v1/conductors", headers=dep.auth, timeout=10
    )
    fleet = {c["hostname"]: c for c in resp.json()["conductors"]}
    assert fleet[owner]["claimedOpOccs"] == []
    return survivor


def _completed_once(env, occ_id: str, op: str, phase: str) -> None:
    """COMPLETED, notified once per state in order; each hook completed
    once, the interrupted one started twice; one grant per run."""
    dep, client, receiver, nfvo, engine = env
    occ = client.wait(occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=60)
    assert occ["operationState"] == "COMPLETED", occ
    assert receiver.settled_states(occ_id, redelivered=True) == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
    progress = _row(engine, occ_id)["progress"]["driver"]
    hooks = [f"{op}_start", f"{op}_end"]
    assert progress["hooks_done"] == hooks
    started = {
        "start_hook": [hooks[0], *hooks],
        "end_hook": [*hooks, hooks[1]],
    }
    assert progress["hooks"] == started.get(phase, hooks)
    # The driver step ran again only when the kill interrupted it.
    assert progress["driver_runs"] == (2 if phase == "driver" else 1)
    # The grant was asked again only when the kill interrupted it.
    assert len(nfvo.grant_requests(occ_id)) == (2 if phase == "grant" else 1)


@pytest.mark.parametrize("phase", PHASES)
def test_killed_conductor_instantiate_completes_on_the_other(env, phase):
    dep, client, receiver, nfvo, engine = env
    reference = lcm_fixtures.create_instance(dep, client)
    client.run(reference, "instantiate", {"flavourId": "simple"})

    inst_id = lcm_fixtures.create_instance(dep, client)
    params, where = _hang_at(phase, "instantiate")
    if phase == "grant":
        nfvo.hold_next(inst_id)
    occ_id = client.start(
        inst_id, "instantiate", {"flavourId": "simple", **params}
    )
    _kill_owner(env, occ_id, where)
    _completed_once(env, occ_id, "instantiate", phase)
    # One instantiation's VNFCs: as many as on the undisturbed instance.
    vnfcs = _vnfcs(client, inst_id)
    assert len(vnfcs) == len(_vnfcs(client, reference))
    assert len({v["id"] for v in vnfcs}) == len(vnfcs)


@pytest.mark.parametrize("phase", PHASES)
def test_killed_conductor_heal_completes_on_the_other(env, phase):
    dep, client, receiver, nfvo, engine = env
    inst_id = lcm_fixtures.create_instance(dep, client)
    client.run(inst_id, "instantiate", {"flavourId": "simple"})
    before = _vnfcs(client, inst_id)
    target = before[0]["id"]

    params, where = _hang_at(phase, "heal")
    if phase == "grant":
        nfvo.hold_next(inst_id)
    occ_id = client.start(
        inst_id, "heal", {"vnfcInstanceId": [target], **params}
    )
    _kill_owner(env, occ_id, where)
    _completed_once(env, occ_id, "heal", phase)
    after = _vnfcs(client, inst_id)
    assert sorted(v["id"] for v in after) == sorted(v["id"] for v in before)
    healed = next(v for v in after if v["id"] == target)
    assert healed["computeResource"] != before[0]["computeResource"]
    untouched = [v for v in after if v["id"] != target]
    assert untouched == [v for v in before if v["id"] != target]


def test_sigterm_hands_a_long_job_back(env):
    """A conductor stopped while its job outlasts the graceful timeout
    hands the job back; the other conductor finishes the op at once (no
    claim_timeout wait)."""
    dep, client, receiver, nfvo, engine = env
    inst_id = lcm_fixtures.create_instance(dep, client)
    occ_id = client.start(
        inst_id,
        "instantiate",
        {"flavourId": "simple", "additionalParams": {"fake": {"sleep": 15}}},
    )
    owner = procs.wait_for(
        lambda: _row(engine, occ_id)["host"], 20, "a conductor to run it"
    )
    survivor = next(h for h in dep.conductors if h != owner)
    assert dep.conductors[owner].stop(signal.SIGTERM, timeout=30) == 0
    # graceful_shutdown_timeout is 10 s in the test deployment.
    assert "Handed back to other conductors" in (
        dep.conductors[owner].log_text()
    )
    # Handed back, not expired: taken over well before claim_timeout.
    procs.wait_for(
        lambda: _row(engine, occ_id)["host"] == survivor,
        2,
        f"{survivor} to take the op occ over",
        interval=0.1,
    )
    occ = client.wait(occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=60)
    assert occ["operationState"] == "COMPLETED", occ
    assert receiver.settled_states(occ_id) == [
        "STARTING",
        "PROCESSING",
        "COMPLETED",
    ]
