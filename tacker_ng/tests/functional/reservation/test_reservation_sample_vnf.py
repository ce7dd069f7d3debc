"""The demo's lease: the stock sample VNF in a lease of one host per zone.

The freepool holds az2-cmp1, az3-cmp1 and az4-cmp1 (one host in each of
AZ-2, AZ-3, AZ-4), the project leases 3 anti-affinity instances (one per
host) and instantiates the stock sample (VDU1: 1 VNFC, VDU2: 2 VNFCs in
different zones) with ``additionalParams.reservationId``. Each zone has
room for one VNFC: the grant must spread the 3 VNFCs over the 3 zones
(first-fit put VDU1-0 and VDU2-0 both in AZ-2, Nova refused the second,
and AZ reselection - offered only the grant's 2 zones - ended FAILED_TEMP
"no availability zone left for VDU1-0"). A lease too small for the VNF
fails before any stack with a reason saying so.
"""

from __future__ import annotations

import json
import shutil
import types

import pytest
import sqlalchemy as sa

from tacker_ng.packages import builder
from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.deployment import SolClient
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE
from tacker_ng.tests.functional.reservation import deployment as deploy_mod
from tacker_ng.tests.functional.reservation import test_reservation_vnf as rv

# Runs in one lane with the other modules of the "keystone-catalog"
# group (tacker_ng/tests/functional/lanes.py).
pytestmark = pytest.mark.minicloud
FREEPOOL = ("az2-cmp1", "az3-cmp1", "az4-cmp1")


@pytest.fixture(scope="module")
def dep(minicloud, tmp_path_factory):
    """tacker-ng with the reservation service, one freepool host per zone."""
    services.require("rabbitmq")
    services.require("redis")
    with services.scratch_database("mariadb") as sql_url:
        yield from deploy_mod.deploy(
            minicloud,
            tmp_path_factory.mktemp("rsv-sample"),
            sql_url,
            freepool=FREEPOOL,
        )


@pytest.fixture(scope="module")
def nfvo(dep, tmp_path_factory):
    """(SOL003 client as the project's user, vnfdId of the stock sample
    with minicloud's image, as tools/demo.sh onboards it)."""
    src = tmp_path_factory.mktemp("sample") / "pkg"
    shutil.copytree(lcm_packages.SAMPLE, src)
    for path in (src / "Definitions").glob("*.yaml"):
        text = path.read_text()
        path.write_text(text.replace("cirros-0.6.2-x86_64-disk", IMAGE))
    token = {"X-Auth-Token": dep.cloud.project_session().get_token()}
    pkg = lcm_fixtures.onboard_via_api(
        types.SimpleNamespace(url=dep.url, auth=token),
        builder.build_csar_bytes(src),
        timeout=120,
    )
    assert pkg["onboardingState"] == "ONBOARDED", pkg
    return SolClient(dep.url, token), pkg["vnfdId"]


def _delete_lease(dep, lease_id: str) -> None:
    """Delete the lease and wait until it is gone (its Nova flavour,
    aggregate and server group are removed after the 204)."""
    assert dep.call("DELETE", f"/leases/{lease_id}").status_code == 204
    procs.wait_for(
        lambda: dep.call("GET", f"/leases/{lease_id}").status_code == 404,
        120,
        f"lease {lease_id} gone",
    )


def _instantiate(client, cloud, vnfd_id: str, rid: str, timeout=rv.TIMEOUT):
    inst_id = rv._new_instance(client, cloud, vnfd_id)
    occ = rv._lcm(
        client,
        inst_id,
        "instantiate",
        {
            "flavourId": "simple",
            "extVirtualLinks": env.ext_links(cloud),
            "additionalParams": {"reservationId": rid},
        },
        timeout=timeout,
    )
    return inst_id, occ


def test_sample_vnf_spreads_over_one_host_per_zone(dep, nfvo):
    cloud = dep.cloud
    client, vnfd_id = nfvo
    lease = rv._active_lease(dep, 3)
    res = lease["reservations"][0]
    admin = cloud.nova(admin=True)
    reserved = set(admin.aggregates.get(res["aggregate_id"]).hosts)
    assert reserved == set(dep.freepool)

    inst_id, occ = _instantiate(client, cloud, vnfd_id, res["id"])
    assert occ["operationState"] == "COMPLETED", occ.get("error")

    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    vnfcs = inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert sorted(v["vduId"] for v in vnfcs) == ["VDU1", "VDU2", "VDU2"]
    zones = {cloud.logical(v["zoneId"]) for v in vnfcs}
    assert zones == {"AZ-2", "AZ-3", "AZ-4"}
    hosts = {
        getattr(
            admin.servers.get(v["computeResource"]["resourceId"]),
            "OS-EXT-SRV-ATTR:host",
        )
        for v in vnfcs
    }
    assert hosts == reserved
    assert {v["metadata"]["serverGroupId"] for v in vnfcs} == {
        res["server_group_id"]
    }
    # The grant's zones fit the lease: the first stack create succeeded,
    # no zone had to be reselected.
    engine = sa.create_engine(dep.sql_url)
    try:
        with engine.connect() as conn:
            raw = conn.execute(
                sa.text("SELECT progress FROM vnf_lcm_op_occs WHERE id = :i"),
                {"i": occ["id"]},
            ).scalar_one()
    finally:
        engine.dispose()
    progress = json.loads(raw) if isinstance(raw, str) else raw
    attempts = progress["driver"]["attempts"]
    assert [a["status"] for a in attempts] == ["CREATE_COMPLETE"], attempts

    occ = rv._lcm(
        client, inst_id, "terminate", {"terminationType": "FORCEFUL"}
    )
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    _delete_lease(dep, lease["id"])


def test_lease_too_small_for_the_vnf_says_so(dep, nfvo):
    cloud = dep.cloud
    client, vnfd_id = nfvo
    lease = rv._active_lease(dep, 2)
    rid = lease["reservations"][0]["id"]

    inst_id, occ = _instantiate(client, cloud, vnfd_id, rid, timeout=120)
    assert occ["operationState"] == "FAILED_TEMP"
    detail = occ["error"]["detail"]
    assert f"reservation {rid} cannot hold this operation's VNFCs" in detail
    assert "2 free instance slot(s)" in detail, detail
    assert "3 new VNFC(s)" in detail, detail
    assert not cloud.live_stacks(f"vnf-{inst_id}")
    _delete_lease(dep, lease["id"])
