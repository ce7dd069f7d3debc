"""An NFVO drives the OpenStack driver through the REST API.

tacker-ng-api + a conductor (real processes, RabbitMQ, MariaDB, local
NFVO), the spec's package onboarded through the package API, and a VNF
instance whose vimConnectionInfo is minicloud's Keystone with project
vnf's member user. Instantiate, heal and scale out each meet a full zone
in Nova's scheduler and complete in another zone; the scale out has to
break anti-affinity, which the op occ, the VNFCs' metadata and a WARNING
FM alarm say until a scale in restores the rule. Every LCM and Grant
response is checked against the SOL003 OpenAPI documents by the client.
"""

from __future__ import annotations

import json
import time

import pytest
import sqlalchemy as sa

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE
from tacker_ng.tests.functional.receiver import Receiver

pytestmark = pytest.mark.minicloud
TIMEOUT = 420
FM = {"Version": "1.3.0"}
#: VNFC metadata key of a VNFC that breaks a zone anti-affinity rule.
BROKEN = "antiAffinityBroken"


@pytest.fixture(scope="module")
def nfvo(cloud, tmp_path_factory):
    """(deployment, SOL003 client, vnfdId) with fallbackBestEffort on."""
    tmp = tmp_path_factory.mktemp("e2e")
    src = env.spec_package_source(tmp / "src", IMAGE)
    extra = {
        "placement": {"fallback_best_effort": True},
        "openstack": {
            "zone_choice_seed": 11,
        },
    }
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            conductors=("cond-a",),
            extra=cloud.tacker_conf(extra),
        ) as dep,
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, builder.build_csar_bytes(src), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        yield dep, dep.client(), pkg["vnfdId"]


def run(client, inst_id: str, task: str, body: dict) -> dict:
    """Start an LCM task and wait (minutes: real Heat) for its end."""
    occ = client.wait(
        client.start(inst_id, task, body),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    return occ


def progress(dep, occ_id: str) -> dict:
    """The op occ's persisted progress (not part of the SOL API)."""
    engine = sa.create_engine(dep.sql_url)
    try:
        with engine.connect() as conn:
            raw = conn.execute(
                sa.text("SELECT progress FROM vnf_lcm_op_occs WHERE id = :i"),
                {"i": occ_id},
            ).scalar_one()
    finally:
        engine.dispose()
    return json.loads(raw) if isinstance(raw, str) else raw


def statuses(dep, occ_id: str) -> list[str]:
    return [a["status"] for a in progress(dep, occ_id)["driver"]["attempts"]]


def attempts(cloud, dep, occ_id: str) -> list[dict]:
    """The driver's stack attempts, their zones by logical name."""
    return [
        {**a, "zones": cloud.logical_map(a["zones"])}
        for a in progress(dep, occ_id)["driver"]["attempts"]
    ]


def vnfcs(client, inst_id: str) -> dict[str, dict]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return {
        v["metadata"]["stackResource"]: v
        for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }


def zones(cloud, client, inst_id: str) -> dict[str, str]:
    """VNFC -> zoneId as the API shows it, by logical name."""
    return {
        n: cloud.logical(v["zoneId"])
        for n, v in vnfcs(client, inst_id).items()
    }


def nova_zones(cloud, client, inst_id: str) -> dict[str, str]:
    nova = cloud.nova(admin=True)
    return {
        n: cloud.logical(
            getattr(
                nova.servers.get(v["computeResource"]["resourceId"]),
                "OS-EXT-AZ:availability_zone",
            )
        )
        for n, v in vnfcs(client, inst_id).items()
    }


def alarms(client, inst_id: str) -> list[dict]:
    resp = client.get(
        f"/vnffm/v1/alarms?filter=(eq,managedObjectId,{inst_id})",
        headers=FM,
        validate=False,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def notified(rx: Receiver, kind: str, alarm_id: str) -> list[dict]:
    """``kind`` FM notifications about ``alarm_id``, waited for (20 s)."""
    deadline = time.monotonic() + 20
    while True:
        got = [
            n
            for n in list(rx.notifications)
            if n["notificationType"] == kind
            and (n.get("alarmId") or n.get("alarm", {}).get("id")) == alarm_id
        ]
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


def test_instantiate_heal_scale_out_through_the_api(cloud, nfvo, capacity):
    dep, client, vnfd_id = nfvo
    with Receiver() as rx:
        resp = client.post(
            "/vnffm/v1/subscriptions",
            {"callbackUri": rx.url},
            headers=FM,
            validate=False,
        )
        assert resp.status_code == 201, resp.text
        story(cloud, dep, client, vnfd_id, rx)


def story(cloud, dep, client, vnfd_id: str, rx: Receiver) -> None:
    """Instantiate, heal and scale out, each meeting a full zone; the
    scale out breaks anti-affinity (visible, alarmed), the scale in
    restores it (cleared)."""
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": vnfd_id,
            "vnfInstanceName": "az-e2e",
            "vimConnectionInfo": env.vim_connection(cloud),
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    assert "password" not in json.dumps(resp.json()["vimConnectionInfo"])

    # Instantiate with AZ-1 and AZ-2 full (the spec's first example).
    cloud.fill_zones(["AZ-1", "AZ-2"])
    occ = run(
        client,
        inst_id,
        "instantiate",
        {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
    )
    env.check_spec_instantiate_attempts(attempts(cloud, dep, occ["id"]))
    got = zones(cloud, client, inst_id)
    assert got["VDU1-0"] == got["VDU1-1"] in {"AZ-4", "AZ-5"}
    assert got["VDU2-0"] == ({"AZ-4", "AZ-5"} - {got["VDU1-0"]}).pop()
    assert got["VDU2-1"] == "AZ-3"
    assert nova_zones(cloud, client, inst_id) == got
    added = occ["resourceChanges"]["affectedVnfcs"]
    assert {cloud.logical(a["zoneId"]) for a in added} == set(got.values())
    assert not any(BROKEN in a["metadata"] for a in added)
    # The grant link resolves (local NFVO); the client checks the Grant.
    grant = client.get(
        occ["_links"]["grant"]["href"][len(dep.url) :],
        headers={"Version": "1.4.0"},
    )
    assert grant.status_code == 200, grant.text
    assert {
        r["resourceDefinitionId"] for r in grant.json()["addResources"]
    } == {a["id"] for a in added}
    cloud.free_all()

    # Heal VDU2-1 with its zone (AZ-3) full: it moves to a zone without
    # a peer (AZ-1 or AZ-2); nothing else moves.
    before = vnfcs(client, inst_id)
    cloud.fill_zone("AZ-3")
    occ = run(
        client, inst_id, "heal", {"vnfcInstanceId": [before["VDU2-1"]["id"]]}
    )
    assert statuses(dep, occ["id"]) == ["UPDATE_FAILED", "UPDATE_COMPLETE"]
    healed = zones(cloud, client, inst_id)
    assert healed["VDU2-1"] in {"AZ-1", "AZ-2"}
    assert {n: healed[n] for n in ("VDU1-0", "VDU1-1", "VDU2-0")} == {
        n: got[n] for n in ("VDU1-0", "VDU1-1", "VDU2-0")
    }
    assert nova_zones(cloud, client, inst_id) == healed
    (change,) = occ["resourceChanges"]["affectedVnfcs"]
    assert change["changeType"] == "MODIFIED"
    assert change["id"] == before["VDU2-1"]["id"]
    cloud.free_all()

    # Scale out VDU2 by two: the grant gives the two zones without a
    # VNFC; the second is full. No zone is left without a peer, so
    # VDU2-3 breaks anti-affinity in any non-failed zone.
    free = sorted(set(cloud.zones()) - set(healed.values()))
    assert len(free) == 2
    cloud.fill_zone(free[1])
    occ = run(
        client,
        inst_id,
        "scale",
        {"type": "SCALE_OUT", "aspectId": "VDU2_scale"},
    )
    assert statuses(dep, occ["id"]) == ["UPDATE_FAILED", "UPDATE_COMPLETE"]
    first = attempts(cloud, dep, occ["id"])[0]["zones"]
    assert (first["VDU2-2"], first["VDU2-3"]) == (free[0], free[1])
    scaled = zones(cloud, client, inst_id)
    assert scaled["VDU2-2"] == free[0]
    assert scaled["VDU2-3"] != free[1]
    assert {n: scaled[n] for n in healed} == healed
    assert nova_zones(cloud, client, inst_id) == scaled
    cloud.free_all()

    # The compromise is visible: VDU2-3 shares its zone with peers (every
    # VNFC of the spec's VNF keeps apart from VDU2's).
    now = vnfcs(client, inst_id)
    peers = sorted(
        now[n]["id"]
        for n, z in scaled.items()
        if z == scaled["VDU2-3"] and n != "VDU2-3"
    )
    assert peers
    assert cloud.logical(now["VDU2-3"]["zoneId"]) == scaled["VDU2-3"]
    warning = {
        "zoneId": now["VDU2-3"]["zoneId"],
        "peerVnfcIds": peers,
        "rules": ["policy_antiaffinity_vdu2"],
    }
    (change,) = [
        c
        for c in occ["resourceChanges"]["affectedVnfcs"]
        if c["id"] == now["VDU2-3"]["id"]
    ]
    assert change["changeType"] == "ADDED"
    assert change["metadata"][BROKEN] == warning
    assert now["VDU2-3"]["metadata"][BROKEN] == warning
    marked = sorted(v["id"] for v in now.values() if BROKEN in v["metadata"])
    assert marked == sorted([now["VDU2-3"]["id"], *peers])
    (alarm,) = alarms(client, inst_id)
    assert alarm["perceivedSeverity"] == "WARNING"
    assert alarm["vnfcInstanceIds"] == marked
    fault = alarm["rootCauseFaultyResource"]["faultyResource"]
    assert (
        fault["resourceId"] == now["VDU2-3"]["computeResource"]["resourceId"]
    )
    assert any(occ["id"] in d for d in alarm["faultDetails"])
    (raised,) = notified(rx, "AlarmNotification", alarm["id"])
    assert raised["alarm"]["vnfcInstanceIds"] == marked

    # Scale in removes VDU2-2/VDU2-3: the rule holds again, cleared.
    occ = run(
        client,
        inst_id,
        "scale",
        {"type": "SCALE_IN", "aspectId": "VDU2_scale"},
    )
    assert zones(cloud, client, inst_id) == healed
    assert not any(
        BROKEN in v["metadata"] for v in vnfcs(client, inst_id).values()
    )
    (cleared,) = alarms(client, inst_id)
    assert cleared["id"] == alarm["id"]
    assert cleared["perceivedSeverity"] == "CLEARED"
    assert notified(rx, "AlarmClearedNotification", alarm["id"])

    occ = run(client, inst_id, "terminate", {"terminationType": "FORCEFUL"})
    assert len(occ["resourceChanges"]["affectedVnfcs"]) == 4
    assert not cloud.live_stacks(f"vnf-{inst_id}")


def test_non_capacity_failure_is_failed_temp_then_rolled_back(
    cloud, nfvo, capacity
):
    """A quota refusal is no lack of capacity: FAILED_TEMP after one
    attempt with Heat's reason in the ProblemDetails; rollback deletes
    the stack."""
    dep, client, vnfd_id = nfvo
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": env.vim_connection(cloud)},
    )
    inst_id = resp.json()["id"]
    nova = cloud.nova(admin=True)
    nova.quotas.update(cloud.project_id, force=True, instances=0)
    try:
        occ_id = client.start(
            inst_id,
            "instantiate",
            {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
        )
        occ = client.wait(
            occ_id, ("FAILED_TEMP", "COMPLETED"), timeout=TIMEOUT
        )
    finally:
        nova.quotas.delete(cloud.project_id)
    assert occ["operationState"] == "FAILED_TEMP"
    assert occ["error"]["status"] == 502
    assert "Quota exceeded" in occ["error"]["detail"]
    assert statuses(dep, occ_id) == ["CREATE_FAILED"]
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/rollback")
    assert resp.status_code == 202, resp.text
    occ = client.wait(occ_id, ("ROLLED_BACK", "FAILED_TEMP"), timeout=TIMEOUT)
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert not cloud.live_stacks(f"vnf-{inst_id}")
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    assert inst["instantiationState"] == "NOT_INSTANTIATED"
