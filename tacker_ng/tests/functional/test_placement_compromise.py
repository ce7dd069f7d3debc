"""An NFVO sees where a VNF breaks zone anti-affinity, and the grant.

Real API (2 workers) and conductor processes on RabbitMQ and MariaDB,
the fake VIM with two zones and the local NFVO with fallbackBestEffort:
a third VDU2 VNFC has to share a zone with a peer. The compromise shows
in the op occ (``resourceChanges.affectedVnfcs[].metadata``), in the
VNFCs' metadata and as a WARNING FM alarm notified to a real receiver;
the alarm PATCH takes only a merge patch; scaling in restores the rule
and clears the alarm. The op occ's ``_links.grant`` resolves to the
local NFVO's grant. LCM and Grant responses are checked against the
SOL003 documents by the client.
"""

import time

import pytest

from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.receiver import Receiver

FM = {"Version": "1.3.0"}
GRANT = {"Version": "1.4.0"}
KEY = "antiAffinityBroken"
VDU2 = "VDU2_scale"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compromise")
    extra = {"placement": {"fallback_best_effort": True}}
    with (
        Receiver() as receiver,
        lcm_fixtures.lcm_deployment(
            tmp, "mariadb", conductors=("cond-a",), extra=extra
        ) as dep,
    ):
        client = dep.client()
        resp = client.post(
            "/vnffm/v1/subscriptions",
            {"callbackUri": receiver.url},
            headers=FM,
            validate=False,
        )
        assert resp.status_code == 201, resp.text
        yield dep, client, receiver


def _until(what: str, probe, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = probe()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {timeout}s")


def _notified(receiver, kind: str, alarm_id: str) -> list[dict]:
    return [
        n
        for n in list(receiver.notifications)
        if n["notificationType"] == kind
        and (n.get("alarmId") or n.get("alarm", {}).get("id")) == alarm_id
    ]


def _vnfcs(client, inst_id: str) -> dict[str, dict]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return {
        v["id"]: v for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }


def _alarms(client, inst_id: str) -> list[dict]:
    resp = client.get(
        f"/vnffm/v1/alarms?filter=(eq,managedObjectId,{inst_id})",
        headers=FM,
        validate=False,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def _patch_alarm(client, alarm_id: str, content_type: str):
    return client.call(
        "PATCH",
        f"/vnffm/v1/alarms/{alarm_id}",
        json={"ackState": "ACKNOWLEDGED"},
        headers={**FM, "Content-Type": content_type},
        validate=False,
    )


def test_anti_affinity_break_is_visible_and_cleared(env):
    dep, client, receiver = env
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(["zone-a", "zone-b"]),
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    client.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert not any(
        KEY in v["metadata"] for v in _vnfcs(client, inst_id).values()
    )
    assert _alarms(client, inst_id) == []

    occ = client.run(inst_id, "scale", {"type": "SCALE_OUT", "aspectId": VDU2})
    (added,) = occ["resourceChanges"]["affectedVnfcs"]
    assert added["changeType"] == "ADDED"
    warning = added["metadata"][KEY]
    vnfcs = _vnfcs(client, inst_id)
    assert vnfcs[added["id"]]["metadata"][KEY] == warning
    assert warning["zoneId"] == vnfcs[added["id"]]["zoneId"]
    assert warning["rules"] == ["policy_antiaffinity_vdu2"]
    (peer,) = warning["peerVnfcIds"]
    assert vnfcs[peer]["zoneId"] == warning["zoneId"]
    assert vnfcs[peer]["metadata"][KEY]["peerVnfcIds"] == [added["id"]]
    marked = {i for i, v in vnfcs.items() if KEY in v["metadata"]}
    assert marked == {added["id"], peer}

    (alarm,) = _alarms(client, inst_id)
    assert alarm["perceivedSeverity"] == "WARNING"
    assert alarm["eventType"] == "QOS_ALARM"
    assert alarm["vnfcInstanceIds"] == sorted(marked)
    fault = alarm["rootCauseFaultyResource"]
    assert fault["faultyResource"] == vnfcs[added["id"]]["computeResource"]
    (raised,) = _until(
        "AlarmNotification",
        lambda: _notified(receiver, "AlarmNotification", alarm["id"]),
    )
    assert raised["alarm"]["perceivedSeverity"] == "WARNING"
    assert raised["alarm"]["vnfcInstanceIds"] == sorted(marked)

    # SOL003 FM: AlarmModifications is a merge patch, nothing else.
    refused = _patch_alarm(client, alarm["id"], "application/json")
    assert refused.status_code == 415, refused.text
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json()["status"] == 415
    acked = _patch_alarm(client, alarm["id"], "application/merge-patch+json")
    assert acked.status_code == 200, acked.text
    assert acked.json() == {"ackState": "ACKNOWLEDGED"}

    # Scale in removes the newest VNFC: every zone holds one VDU2 again.
    client.run(inst_id, "scale", {"type": "SCALE_IN", "aspectId": VDU2})
    assert not any(
        KEY in v["metadata"] for v in _vnfcs(client, inst_id).values()
    )
    (cleared,) = _alarms(client, inst_id)
    assert cleared["id"] == alarm["id"]
    assert cleared["perceivedSeverity"] == "CLEARED"
    (note,) = _until(
        "AlarmClearedNotification",
        lambda: _notified(receiver, "AlarmClearedNotification", alarm["id"]),
    )
    assert note["alarmClearedTime"] == cleared["alarmClearedTime"]
    client.run(inst_id, "terminate", {"terminationType": "FORCEFUL"})


def test_grant_link_resolves_to_the_local_nfvo_grant(env):
    dep, client, _ = env
    inst_id = lcm_fixtures.create_instance(dep, client)
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    href = occ["_links"]["grant"]["href"]
    assert href == f"{dep.url}/grant/v1/grants/{occ['grantId']}"
    # The client checks the body against the SOL003 Grant document.
    resp = client.get(href[len(dep.url) :], headers=GRANT)
    assert resp.status_code == 200, resp.text
    grant = resp.json()
    assert grant["id"] == occ["grantId"]
    assert grant["vnfLcmOpOccId"] == occ["id"]
    assert grant["_links"]["self"]["href"] == href
    assert (
        grant["_links"]["vnfLcmOpOcc"]["href"] == occ["_links"]["self"]["href"]
    )
    granted = {r["resourceDefinitionId"] for r in grant["addResources"]}
    assert set(_vnfcs(client, inst_id)) == granted
    missing = client.get("/grant/v1/grants/nope", headers=GRANT)
    assert missing.status_code == 404
    assert missing.headers["Content-Type"] == "application/problem+json"
    client.run(inst_id, "terminate", {"terminationType": "FORCEFUL"})
