"""Desired state is the package: a VNF's server or whole Heat stack
deleted behind the VNFM's back comes back with a heal.

tacker-ng-api + one conductor observing every 3 s (real processes,
RabbitMQ, MariaDB), one VNF of the heat_vdu_affinity sample (VDU1: 1
VNFC on m1.tiny, VDU2: 2 on m1.small, minicloud's image) on minicloud's
real Heat and Nova, walked through in order:

* autoheal off: a VNFC's server deleted with novaclient -> a MISSING
  alarm; the NFVO's heal of that VNFC has Heat build a new server (ACTIVE,
  in the VNFC's zone), recorded in vnfcResourceInfo; the alarm is cleared;
* autoheal off: the stack deleted with heatclient -> the observer finds
  the stack gone (one "Heat stack MISSING" alarm beside the VNFCs'
  MISSING alarms); the NFVO's heal of the whole VNF creates the stack
  again from the package's template and the recorded VNFCs (same VNFC
  ids and Heat resource names, new servers, every one ACTIVE in its
  zone); every alarm is cleared;
* autoheal on: the stack deleted again -> the observer's automatic heal
  (of the VNFCs it saw missing, possibly not yet all of them) creates the
  whole stack again, no operator action.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import yaml
from heatclient import exc as heat_exc

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE

pytestmark = pytest.mark.minicloud
TIMEOUT = 420
INTERVAL = 3
FM = {"Version": "1.3.0"}
SAMPLE = Path(__file__).parents[4] / "samples/vnf_packages/heat_vdu_affinity"
SERVER = "OS::Nova::Server"


@pytest.fixture(scope="module")
def nfvo(cloud, tmp_path_factory):
    """(deployment, SOL003 client, vnfdId), observer every 3 s."""
    tmp = tmp_path_factory.mktemp("heal-recreate")
    src = tmp / "src"
    shutil.copytree(SAMPLE, src)
    path = src / "Definitions" / "heat_vdu_affinity_df_simple.yaml"
    doc = yaml.safe_load(path.read_text())
    nodes = doc["topology_template"]["node_templates"]
    for vdu in ("VDU1", "VDU2"):
        nodes[vdu]["properties"]["sw_image_data"]["name"] = IMAGE
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    extra = {"convergence": {"observe_interval": INTERVAL}}
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


def _run(client, inst_id: str, task: str, body: dict) -> dict:
    occ = client.wait(
        client.start(inst_id, task, body),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=TIMEOUT,
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    return occ


@pytest.fixture(scope="module")
def vnf(cloud, nfvo):
    """The VNF instance id (3 VNFCs), terminated at the end."""
    dep, client, vnfd_id = nfvo
    cloud.free_all()
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": vnfd_id,
            "vnfInstanceName": "heal-recreate",
            "vimConnectionInfo": env.vim_connection(cloud),
        },
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    _run(
        client,
        inst_id,
        "instantiate",
        {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
    )
    yield inst_id
    _run(client, inst_id, "terminate", {"terminationType": "FORCEFUL"})
    assert not cloud.live_stacks(f"vnf-{inst_id}")


def _until(what, check, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def _vnfcs(client, inst_id: str) -> dict[str, dict]:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return {
        v["metadata"]["stackResource"]: v
        for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }


def _servers(vnfcs: dict[str, dict]) -> dict[str, str]:
    return {n: v["computeResource"]["resourceId"] for n, v in vnfcs.items()}


def _alarms(client, inst_id: str) -> list[dict]:
    resp = client.get(
        f"/vnffm/v1/alarms?filter=(eq,managedObjectId,{inst_id})"
        ";(neq,perceivedSeverity,CLEARED)",
        headers=FM,
        validate=False,
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def _no_alarm_left(client, inst_id: str) -> None:
    _until(
        "every alarm cleared",
        lambda: _alarms(client, inst_id) == [],
        INTERVAL * 5,
    )


def _check_running(cloud, vnfcs: dict[str, dict]) -> None:
    """Every recorded server is ACTIVE in Nova, in its recorded zone."""
    nova = cloud.nova(admin=True)
    for name, vnfc in vnfcs.items():
        server = nova.servers.get(vnfc["computeResource"]["resourceId"])
        assert server.status == "ACTIVE", (name, server.status)
        zone = getattr(server, "OS-EXT-AZ:availability_zone")
        assert zone == vnfc["zoneId"], name


def _stack_servers(cloud, stack_id: str) -> dict[str, str]:
    """Heat's servers of the stack: VNFC resource name -> server id."""
    resources = cloud.heat().resources.list(stack_id, nested_depth=2)
    return {
        r.parent_resource: r.physical_resource_id
        for r in resources
        if r.resource_type == SERVER
    }


def _delete_stack(cloud, inst_id: str) -> str:
    """Delete the VNF's stack as an operator would; its old id."""
    heat = cloud.heat()
    stack = heat.stacks.get(f"vnf-{inst_id}")
    heat.stacks.delete(stack.id)

    def gone() -> bool:
        try:
            status = heat.stacks.get(stack.id).stack_status
        except heat_exc.HTTPNotFound:
            return True
        return status == "DELETE_COMPLETE"

    _until("the stack deleted", gone, 120)
    return stack.id


def test_deleted_server_recreated_by_a_vnfc_heal(cloud, nfvo, vnf):
    dep, client, _ = nfvo
    before = _vnfcs(client, vnf)
    victim = before["VDU2-0"]
    old = victim["computeResource"]["resourceId"]
    cloud.nova(admin=True).servers.delete(old)
    (alarm,) = _until(
        "the MISSING alarm", lambda: _alarms(client, vnf), INTERVAL * 10
    )
    assert alarm["faultType"] == "MISSING"
    assert alarm["vnfcInstanceIds"] == [victim["id"]]

    occ = _run(client, vnf, "heal", {"vnfcInstanceId": [victim["id"]]})
    (change,) = occ["resourceChanges"]["affectedVnfcs"]
    assert (change["id"], change["changeType"]) == (victim["id"], "MODIFIED")
    after = _vnfcs(client, vnf)
    new = after["VDU2-0"]["computeResource"]["resourceId"]
    assert new != old
    assert after["VDU2-0"]["id"] == victim["id"]
    kept = {n: s for n, s in _servers(after).items() if n != "VDU2-0"}
    assert kept == {n: s for n, s in _servers(before).items() if n in kept}
    _check_running(cloud, after)
    stack = cloud.heat().stacks.get(f"vnf-{vnf}")
    assert _stack_servers(cloud, stack.id) == _servers(after)
    _no_alarm_left(client, vnf)


def test_deleted_stack_observed_and_recreated_by_a_whole_vnf_heal(
    cloud, nfvo, vnf
):
    dep, client, _ = nfvo
    before = _vnfcs(client, vnf)
    old_stack = _delete_stack(cloud, vnf)

    def lost() -> list[dict]:
        got = _alarms(client, vnf)
        return got if len(got) == len(before) + 1 else []

    alarms = _until("the alarms", lost, INTERVAL * 10)
    (stack_alarm,) = [a for a in alarms if not a["vnfcInstanceIds"]]
    assert stack_alarm["probableCause"] == "Heat stack MISSING"
    fault = stack_alarm["rootCauseFaultyResource"]["faultyResource"]
    assert fault["resourceId"] == f"vnf-{vnf}"
    assert fault["vimLevelResourceType"] == "OS::Heat::Stack"
    assert {
        a["vnfcInstanceIds"][0] for a in alarms if a["vnfcInstanceIds"]
    } == {v["id"] for v in before.values()}

    occ = _run(client, vnf, "heal", {})
    stack = cloud.heat().stacks.get(f"vnf-{vnf}")
    assert stack.id != old_stack
    assert stack.stack_status == "CREATE_COMPLETE"
    after = _vnfcs(client, vnf)
    assert {n: v["id"] for n, v in after.items()} == {
        n: v["id"] for n, v in before.items()
    }
    assert not set(_servers(after).values()) & set(_servers(before).values())
    assert _stack_servers(cloud, stack.id) == _servers(after)
    _check_running(cloud, after)
    changes = occ["resourceChanges"]["affectedVnfcs"]
    assert sorted((c["id"], c["changeType"]) for c in changes) == sorted(
        (v["id"], "MODIFIED") for v in before.values()
    )
    _no_alarm_left(client, vnf)


def test_deleted_stack_recreated_by_autoheal(cloud, nfvo, vnf):
    dep, client, _ = nfvo
    resp = client.call(
        "PATCH",
        f"/vnflcm/v2/vnf_instances/{vnf}",
        json={"vnfConfigurableProperties": {"isAutohealEnabled": True}},
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert resp.status_code == 202, resp.text
    modify = resp.headers["Location"].rsplit("/", 1)[1]
    assert client.wait(modify, ("COMPLETED",))["operationState"] == (
        "COMPLETED"
    )
    before = _vnfcs(client, vnf)
    old_stack = _delete_stack(cloud, vnf)

    def automatic() -> list[dict]:
        occs = client.get(
            f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{vnf})"
            ";(eq,operation,HEAL);(eq,isAutomaticInvocation,true)"
        ).json()
        return occs

    (heal,) = _until("an automatic heal", automatic, INTERVAL * 10)
    occ = client.wait(
        heal["id"], ("COMPLETED", "FAILED_TEMP", "FAILED"), TIMEOUT
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    # Heat deletes the servers one by one: the heal names the VNFCs seen
    # missing so far, and re-creates the whole stack all the same.
    healed = set(occ["operationParams"]["vnfcInstanceId"])
    assert healed and healed <= {v["id"] for v in before.values()}
    changes = occ["resourceChanges"]["affectedVnfcs"]
    assert sorted((c["id"], c["changeType"]) for c in changes) == sorted(
        (v["id"], "MODIFIED") for v in before.values()
    )
    stack = cloud.heat().stacks.get(f"vnf-{vnf}")
    assert stack.id != old_stack
    after = _vnfcs(client, vnf)
    assert _stack_servers(cloud, stack.id) == _servers(after)
    _check_running(cloud, after)
    _no_alarm_left(client, vnf)
    time.sleep(INTERVAL * 2)
    assert len(automatic()) == 1  # converged: no second heal
