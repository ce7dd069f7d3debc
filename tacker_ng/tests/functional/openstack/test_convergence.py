"""Convergence on minicloud: VNFCs that die behind our back.

tacker-ng-api + one conductor observing every 3 s (real processes,
RabbitMQ, MariaDB), the spec's VNF on minicloud's real Heat and Nova:

* autoheal off: a server reset to ERROR in Nova -> an FM alarm within an
  observe interval, AlarmNotification delivered to the NFVO's receiver,
  acknowledged through PATCH, cleared (AlarmClearedNotification) after
  the NFVO's manual heal replaced the ERROR server;
* autoheal off: a server deleted in Nova -> a MISSING alarm, cleared
  (AlarmClearedNotification) by the NFVO's manual heal of that VNFC;
* autoheal on: a server deleted in Nova -> an automatic HEAL op occ
  (isAutomaticInvocation) of that VNFC only, which completes and leaves a
  new ACTIVE server in a zone the VNF allows; no alarm;
* autoheal on: a server reset to ERROR -> the same, the ERROR server
  deleted and replaced beside its affinity partner;
* a stack update behind our back that fails (a resource Heat cannot
  create) -> the stack UPDATE_FAILED -> one STACK_FAILED alarm (no VNFC
  named, the stack as faulty resource), no heal; the NFVO's heal updates
  the stack back to the VNF's template and the alarm is cleared.
"""

from __future__ import annotations

import time

import pytest

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE
from tacker_ng.tests.functional.receiver import Receiver

pytestmark = pytest.mark.minicloud
TIMEOUT = 420
INTERVAL = 3
FM = {"Version": "1.3.0"}


@pytest.fixture(scope="module")
def nfvo(cloud, tmp_path_factory):
    """(deployment, SOL003 client, vnfdId), observer every 3 s."""
    tmp = tmp_path_factory.mktemp("convergence")
    src = env.spec_package_source(tmp / "src", IMAGE)
    extra = {
        "convergence": {"observe_interval": INTERVAL},
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


def _until(what, check, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _instantiated(cloud, client, vnfd_id: str, name: str) -> str:
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": vnfd_id,
            "vnfInstanceName": name,
            "vimConnectionInfo": env.vim_connection(cloud),
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    occ = client.wait(
        client.start(
            inst_id,
            "instantiate",
            {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
        ),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    return inst_id


def _vnfcs(client, inst_id: str) -> dict[str, dict]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return {
        v["metadata"]["stackResource"]: v
        for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }


def _alarms(client, inst_id: str) -> list[dict]:
    resp = client.get(
        f"/vnffm/v1/alarms?filter=(eq,managedObjectId,{inst_id})",
        headers=FM,
        validate=False,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def _terminate(client, inst_id: str) -> None:
    occ = client.wait(
        client.start(inst_id, "terminate", {"terminationType": "FORCEFUL"}),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")


def test_error_server_raises_alarm_acked_and_cleared(cloud, nfvo, capacity):
    dep, client, vnfd_id = nfvo
    with Receiver() as rx:
        resp = client.post(
            "/vnffm/v1/subscriptions",
            {"callbackUri": rx.url},
            headers=FM,
            validate=False,
        )
        assert resp.status_code == 201, resp.text
        inst_id = _instantiated(cloud, client, vnfd_id, "conv-alarm")
        vnfcs = _vnfcs(client, inst_id)
        victim = vnfcs["VDU1-0"]
        server_id = victim["computeResource"]["resourceId"]
        time.sleep(INTERVAL * 2)  # converged: no alarm
        assert _alarms(client, inst_id) == []

        cloud.nova(admin=True).servers.reset_state(server_id, "error")
        seen = time.monotonic()
        (alarm,) = _until(
            "the alarm", lambda: _alarms(client, inst_id), INTERVAL * 5
        )
        assert time.monotonic() - seen < INTERVAL * 5
        assert alarm["vnfcInstanceIds"] == [victim["id"]]
        assert alarm["perceivedSeverity"] == "CRITICAL"
        assert alarm["ackState"] == "UNACKNOWLEDGED"
        fault = alarm["rootCauseFaultyResource"]
        assert fault["faultyResourceType"] == "COMPUTE"
        assert fault["faultyResource"]["resourceId"] == server_id
        assert any(
            "observed" in d and "ERROR" in d for d in alarm["faultDetails"]
        )
        notified = _until(
            "AlarmNotification",
            lambda: [
                n
                for n in rx.notifications
                if n["notificationType"] == "AlarmNotification"
            ],
        )
        assert notified[0]["alarm"]["id"] == alarm["id"]

        resp = client.call(
            "PATCH",
            f"/vnffm/v1/alarms/{alarm['id']}",
            json={"ackState": "ACKNOWLEDGED"},
            headers={
                **FM,
                "Content-Type": "application/merge-patch+json",
            },
            validate=False,
        )
        assert resp.status_code == 200, resp.text
        assert resp.json() == {"ackState": "ACKNOWLEDGED"}

        # The NFVO heals the VNFC: the driver deletes the ERROR server
        # first (it holds its port), Heat builds the replacement.
        occ = client.wait(
            client.start(inst_id, "heal", {"vnfcInstanceId": [victim["id"]]}),
            ("COMPLETED", "FAILED_TEMP"),
            timeout=TIMEOUT,
        )
        assert occ["operationState"] == "COMPLETED", occ.get("error")
        healed = _vnfcs(client, inst_id)["VDU1-0"]
        assert healed["computeResource"]["resourceId"] != server_id
        cleared = _until(
            "AlarmClearedNotification",
            lambda: [
                n
                for n in rx.notifications
                if n["notificationType"] == "AlarmClearedNotification"
            ],
            INTERVAL * 5,
        )
        assert cleared[0]["alarmId"] == alarm["id"]
        shown = client.get(
            f"/vnffm/v1/alarms/{alarm['id']}", headers=FM, validate=False
        ).json()
        assert shown["perceivedSeverity"] == "CLEARED"
        assert shown["ackState"] == "ACKNOWLEDGED"
        assert "alarmClearedTime" in shown
        _terminate(client, inst_id)


def _enable_autoheal(client, inst_id: str) -> None:
    """PATCH isAutohealEnabled true and wait for the MODIFY_INFO op."""
    resp = client.call(
        "PATCH",
        f"/vnflcm/v2/vnf_instances/{inst_id}",
        json={"vnfConfigurableProperties": {"isAutohealEnabled": True}},
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert resp.status_code == 202, resp.text
    modify = resp.headers["Location"].rsplit("/", 1)[1]
    assert client.wait(modify, ("COMPLETED",))["operationState"] == (
        "COMPLETED"
    )


def _automatic_heals(client, inst_id: str) -> list[dict]:
    """The instance's HEAL op occs that the conductor started itself."""
    occs = client.get(
        f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{inst_id})"
        ";(eq,operation,HEAL)"
    ).json()
    return [o for o in occs if o["isAutomaticInvocation"]]


def _servers(vnfcs: dict, but: str) -> dict[str, str]:
    """VNFC name -> its server id, for every VNFC except ``but``."""
    return {
        n: v["computeResource"]["resourceId"]
        for n, v in vnfcs.items()
        if n != but
    }


def test_deleted_server_is_healed_automatically(cloud, nfvo, capacity):
    dep, client, vnfd_id = nfvo
    inst_id = _instantiated(cloud, client, vnfd_id, "conv-autoheal")
    _enable_autoheal(client, inst_id)
    before = _vnfcs(client, inst_id)
    victim = before["VDU2-0"]
    old_server = victim["computeResource"]["resourceId"]
    cloud.nova(admin=True).servers.delete(old_server)

    (heal,) = _until(
        "an automatic heal",
        lambda: _automatic_heals(client, inst_id),
        INTERVAL * 10,
    )
    occ = client.wait(
        heal["id"], ("COMPLETED", "FAILED_TEMP", "FAILED"), TIMEOUT
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert occ["operationParams"]["vnfcInstanceId"] == [victim["id"]]
    (change,) = occ["resourceChanges"]["affectedVnfcs"]
    assert change["id"] == victim["id"]
    after = _vnfcs(client, inst_id)
    new_server = after["VDU2-0"]["computeResource"]["resourceId"]
    assert new_server != old_server
    nova = cloud.nova(admin=True)
    server = nova.servers.get(new_server)
    assert server.status == "ACTIVE"
    # zones respected: VDU2's anti-affinity keeps it away from VDU2-1
    zone = getattr(server, "OS-EXT-AZ:availability_zone")
    assert zone == after["VDU2-0"]["zoneId"]
    assert zone != after["VDU2-1"]["zoneId"]
    assert _servers(after, but="VDU2-0") == _servers(before, but="VDU2-0")
    time.sleep(INTERVAL * 2)
    # converged: no second heal
    assert len(_automatic_heals(client, inst_id)) == 1
    assert _alarms(client, inst_id) == []
    _terminate(client, inst_id)


def test_deleted_server_alarm_cleared_by_manual_heal(cloud, nfvo, capacity):
    """autoheal off: a server deleted behind our back is a MISSING alarm
    until the NFVO heals the VNFC; the heal clears it."""
    dep, client, vnfd_id = nfvo
    with Receiver() as rx:
        resp = client.post(
            "/vnffm/v1/subscriptions",
            {
                "callbackUri": rx.url,
                "filter": {"notificationTypes": ["AlarmClearedNotification"]},
            },
            headers=FM,
            validate=False,
        )
        assert resp.status_code == 201, resp.text
        inst_id = _instantiated(cloud, client, vnfd_id, "conv-manual")
        victim = _vnfcs(client, inst_id)["VDU2-0"]
        server_id = victim["computeResource"]["resourceId"]
        cloud.nova(admin=True).servers.delete(server_id)
        (alarm,) = _until(
            "the alarm", lambda: _alarms(client, inst_id), INTERVAL * 10
        )
        assert alarm["faultType"] == "MISSING"
        assert alarm["vnfcInstanceIds"] == [victim["id"]]
        occ = client.wait(
            client.start(inst_id, "heal", {"vnfcInstanceId": [victim["id"]]}),
            ("COMPLETED", "FAILED_TEMP"),
            timeout=TIMEOUT,
        )
        assert occ["operationState"] == "COMPLETED", occ.get("error")
        cleared = _until(
            "AlarmClearedNotification",
            lambda: list(rx.notifications),
            INTERVAL * 5,
        )
        assert [n["alarmId"] for n in cleared] == [alarm["id"]]
        assert all(
            n["notificationType"] == "AlarmClearedNotification"
            for n in rx.notifications
        )
        _terminate(client, inst_id)


def test_error_server_is_healed_automatically(cloud, nfvo, capacity):
    """autoheal on: a server reset to ERROR in Nova -> within one observe
    interval an automatic HEAL op occ of that VNFC only, which completes:
    the ERROR server is replaced by a new ACTIVE one in the zone the VNF
    allows, every other VNFC keeps its server, no alarm."""
    dep, client, vnfd_id = nfvo
    inst_id = _instantiated(cloud, client, vnfd_id, "conv-autoheal-error")
    _enable_autoheal(client, inst_id)
    before = _vnfcs(client, inst_id)
    victim = before["VDU1-0"]
    old_server = victim["computeResource"]["resourceId"]
    nova = cloud.nova(admin=True)
    nova.servers.reset_state(old_server, "error")
    assert nova.servers.get(old_server).status == "ERROR"
    reset_at = time.monotonic()

    # Seen within one observe interval (plus the cycle and the cast).
    (heal,) = _until(
        "an automatic heal",
        lambda: _automatic_heals(client, inst_id),
        INTERVAL * 3,
    )
    assert time.monotonic() - reset_at < INTERVAL * 3
    occ = client.wait(
        heal["id"], ("COMPLETED", "FAILED_TEMP", "FAILED"), TIMEOUT
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert occ["isAutomaticInvocation"] is True
    assert occ["operationParams"]["vnfcInstanceId"] == [victim["id"]]
    (change,) = occ["resourceChanges"]["affectedVnfcs"]
    assert change["id"] == victim["id"]
    after = _vnfcs(client, inst_id)
    new_server = after["VDU1-0"]["computeResource"]["resourceId"]
    assert new_server != old_server
    server = nova.servers.get(new_server)
    assert server.status == "ACTIVE"
    zone = getattr(server, "OS-EXT-AZ:availability_zone")
    assert zone == after["VDU1-0"]["zoneId"]
    # zones respected: VDU1's affinity keeps it beside VDU1-1
    assert zone == after["VDU1-1"]["zoneId"]
    live = {s.id for s in nova.servers.list(search_opts={"all_tenants": 1})}
    assert old_server not in live  # the ERROR server was deleted
    assert _servers(after, but="VDU1-0") == _servers(before, but="VDU1-0")
    time.sleep(INTERVAL * 2)
    # converged: no second heal
    assert len(_automatic_heals(client, inst_id)) == 1
    assert _alarms(client, inst_id) == []
    _terminate(client, inst_id)


def test_failed_stack_raises_stack_alarm_cleared_by_heal(
    cloud, nfvo, capacity
):
    dep, client, vnfd_id = nfvo
    inst_id = _instantiated(cloud, client, vnfd_id, "conv-stack")
    before = _vnfcs(client, inst_id)
    heat = cloud.heat()
    stack = heat.stacks.get(f"vnf-{inst_id}")
    template = heat.stacks.template(stack.id)
    # An operator's update that fails: Heat cannot create the resource.
    template["resources"]["conv_boom"] = {
        "type": "OS::Heat::TestResource",
        "properties": {"fail": True},
    }
    heat.stacks.update(stack.id, existing=True, template=template)
    _until(
        "the stack UPDATE_FAILED",
        lambda: heat.stacks.get(stack.id).stack_status == "UPDATE_FAILED",
        120,
    )
    failed_at = time.monotonic()
    (alarm,) = _until(
        "the stack alarm", lambda: _alarms(client, inst_id), INTERVAL * 5
    )
    assert time.monotonic() - failed_at < INTERVAL * 5
    assert alarm["faultType"] == "STACK_FAILED"
    assert alarm["vnfcInstanceIds"] == []
    fault = alarm["rootCauseFaultyResource"]["faultyResource"]
    assert fault["resourceId"] == stack.id
    assert fault["vimLevelResourceType"] == "OS::Heat::Stack"
    assert any("UPDATE_FAILED" in d for d in alarm["faultDetails"])
    time.sleep(INTERVAL * 2)
    assert len(_alarms(client, inst_id)) == 1  # one alarm, no VNFC alarm
    occs = client.get(
        f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{inst_id})"
    ).json()
    assert [o["operation"] for o in occs] == ["INSTANTIATE"]  # no heal
    assert _vnfcs(client, inst_id) == before

    victim = before["VDU2-0"]
    occ = client.wait(
        client.start(inst_id, "heal", {"vnfcInstanceId": [victim["id"]]}),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert heat.stacks.get(stack.id).stack_status == "UPDATE_COMPLETE"
    _until(
        "the stack alarm cleared",
        lambda: [
            a
            for a in _alarms(client, inst_id)
            if a["perceivedSeverity"] == "CLEARED"
        ],
        INTERVAL * 5,
    )
    _terminate(client, inst_id)
