"""An NFVO instantiates a VNF into its reservation (minicloud).

The project leases 4 anti-affinity instances, onboards the spec's
package and instantiates it with ``additionalParams.reservationId``
through the SOL003 API (Keystone tokens, local NFVO): every server boots
with the reservation's flavour, in its server group, on 4 distinct
reserved hosts. An unknown reservation fails the operation before any
stack exists.
"""

from __future__ import annotations

import datetime
import types

import pytest

from tacker_ng.packages import builder
from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.deployment import SolClient
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE

# Runs in one lane with the other modules of the "keystone-catalog"
# group (tacker_ng/tests/functional/lanes.py).
pytestmark = pytest.mark.minicloud
TIMEOUT = 420


@pytest.fixture(scope="module")
def nfvo(dep, tmp_path_factory):
    """(SOL003 client as the project's user, vnfdId of the spec package)."""
    token = {"X-Auth-Token": dep.cloud.project_session().get_token()}
    src = env.spec_package_source(
        tmp_path_factory.mktemp("rsv-pkg") / "src", IMAGE
    )
    pkg = lcm_fixtures.onboard_via_api(
        types.SimpleNamespace(url=dep.url, auth=token),
        builder.build_csar_bytes(src),
        timeout=120,
    )
    assert pkg["onboardingState"] == "ONBOARDED", pkg
    return SolClient(dep.url, token), pkg["vnfdId"]


def _active_lease(dep, amount: int) -> dict:
    end = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)
    resp = dep.call(
        "POST",
        "/leases",
        json={
            "name": "vnf-capacity",
            "start_date": "now",
            "end_date": end.strftime("%Y-%m-%d %H:%M"),
            "reservations": [
                {
                    "resource_type": "virtual:instance",
                    "vcpus": 1,
                    "memory_mb": 1024,
                    "disk_gb": 10,
                    "amount": amount,
                    "affinity": False,
                }
            ],
            "events": [],
        },
    )
    assert resp.status_code == 201, resp.text
    lease_id = resp.json()["lease"]["id"]
    lease = {}

    def active():
        nonlocal lease
        lease = dep.call("GET", f"/leases/{lease_id}").json()["lease"]
        return lease["status"] == "ACTIVE"

    procs.wait_for(active, 90, f"lease {lease_id} ACTIVE")
    return lease


def _lcm(client, inst_id: str, task: str, body: dict, timeout=TIMEOUT):
    """Start an LCM task and wait for its end (COMPLETED or FAILED_TEMP)."""
    return client.wait(
        client.start(inst_id, task, body),
        ("COMPLETED", "FAILED_TEMP"),
        timeout=timeout,
    )


def _new_instance(client, cloud, vnfd_id: str) -> str:
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": env.vim_connection(cloud)},
    )
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def test_vnf_boots_in_its_reservation(dep, nfvo):
    cloud = dep.cloud
    client, vnfd_id = nfvo
    lease = _active_lease(dep, 4)
    res = lease["reservations"][0]
    rid, group_id = res["id"], res["server_group_id"]
    admin = cloud.nova(admin=True)
    reserved_hosts = set(admin.aggregates.get(res["aggregate_id"]).hosts)
    assert len(reserved_hosts) == 4

    inst_id = _new_instance(client, cloud, vnfd_id)
    occ = _lcm(
        client,
        inst_id,
        "instantiate",
        {
            "flavourId": "simple",
            "extVirtualLinks": env.ext_links(cloud),
            "additionalParams": {"reservationId": rid},
        },
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")

    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    vnfcs = inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert len(vnfcs) == 4
    assert {v["metadata"]["serverGroupId"] for v in vnfcs} == {group_id}
    assert {v["metadata"]["computeFlavourId"] for v in vnfcs} == {rid}
    server_ids = {v["computeResource"]["resourceId"] for v in vnfcs}
    hosts = []
    for server_id in server_ids:
        server = admin.servers.get(server_id)
        assert server.status == "ACTIVE"
        assert server.flavor["original_name"] == admin.flavors.get(rid).name
        hosts.append(getattr(server, "OS-EXT-SRV-ATTR:host"))
    # Anti-affinity: 4 distinct hosts, all of them the reserved ones.
    assert set(hosts) == reserved_hosts
    assert set(admin.server_groups.get(group_id).members) == server_ids

    occ = _lcm(client, inst_id, "terminate", {"terminationType": "FORCEFUL"})
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert dep.call("DELETE", f"/leases/{lease['id']}").status_code == 204


def test_unknown_reservation_fails_before_any_stack(dep, nfvo):
    cloud = dep.cloud
    client, vnfd_id = nfvo
    inst_id = _new_instance(client, cloud, vnfd_id)
    occ = _lcm(
        client,
        inst_id,
        "instantiate",
        {
            "flavourId": "simple",
            "extVirtualLinks": env.ext_links(cloud),
            "additionalParams": {"reservationId": "no-such-rsv"},
        },
        timeout=120,
    )
    assert occ["operationState"] == "FAILED_TEMP"
    assert occ["error"]["status"] == 404
    assert "no-such-rsv" in occ["error"]["detail"]
    assert not cloud.live_stacks(f"vnf-{inst_id}")
