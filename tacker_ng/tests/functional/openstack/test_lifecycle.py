"""The driver's other LCM operations on real Heat + Nova: scale to level,
rollback of a failed scale out, change flavour, terminate."""

from __future__ import annotations

from collections import Counter

import pytest
from oslo_config import cfg

from tacker_ng.infra.openstack import errors
from tacker_ng.tests.functional.openstack import env

pytestmark = pytest.mark.minicloud
Op = env.Op


@pytest.fixture(scope="module")
def vnf(cloud, spec_package):
    """One VNF for the module, instantiated with every zone free."""
    conf = cfg.CONF
    conf.set_override("fallback_best_effort", True, group="placement")
    cloud.free_all()
    vnf = env.Vnf(cloud, spec_package)
    vnf.run(
        Op.INSTANTIATE,
        {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
    )
    yield vnf
    try:
        if vnf.instance.get("instantiatedVnfInfo"):
            vnf.run(Op.TERMINATE, {})
    finally:
        conf.clear_override("fallback_best_effort", group="placement")


def counts(vnf) -> Counter:
    return Counter(v["vduId"] for v in vnf.vnfcs().values())


def stack_vnfcs(cloud, vnf) -> set[str]:
    return {
        r.resource_name
        for r in cloud.heat().resources.list(vnf.stack_name)
        if r.resource_name.startswith("VDU")
    }


def _power(cloud, vnf) -> dict[str, str]:
    nova = cloud.nova(admin=True)
    return {
        name: nova.servers.get(v["computeResource"]["resourceId"]).status
        for name, v in vnf.vnfcs().items()
    }


def test_operate_stops_and_starts_servers_in_nova(cloud, vnf):
    """Operate STOPPED on one VNFC: Nova's server is SHUTOFF, the others
    stay ACTIVE; a failed-then-rolled-back stop starts it again; STARTED
    with no vnfcInstanceId starts every VNFC."""
    target = vnf.vnfcs()["VDU1-0"]
    result = vnf.run(
        Op.OPERATE,
        {
            "changeStateTo": "STOPPED",
            "vnfcInstanceId": [target["id"]],
            "stopType": "GRACEFUL",
            "gracefulStopTimeout": 60,
        },
    )
    power = _power(cloud, vnf)
    assert power["VDU1-0"] == "SHUTOFF"
    assert {s for n, s in power.items() if n != "VDU1-0"} == {"ACTIVE"}
    assert [a["id"] for a in result.resource_changes["affectedVnfcs"]] == [
        target["id"]
    ]
    assert vnf.last["progress"]["power_before"] == {target["id"]: "ACTIVE"}
    # A rollback puts back exactly what the operate changed.
    vnf.rollback()
    assert set(_power(cloud, vnf).values()) == {"ACTIVE"}
    vnf.run(Op.OPERATE, {"changeStateTo": "STOPPED"})
    assert set(_power(cloud, vnf).values()) == {"SHUTOFF"}
    assert vnf.instance["instantiatedVnfInfo"]["vnfState"] == "STOPPED"
    vnf.run(Op.OPERATE, {"changeStateTo": "STARTED"})
    assert set(_power(cloud, vnf).values()) == {"ACTIVE"}
    assert vnf.instance["instantiatedVnfInfo"]["vnfState"] == "STARTED"


def test_scale_to_level_up_and_down(cloud, vnf):
    """Level 2 adds VDU1-2/3 (with VDU1, AZ-1) and VDU2-2/3 (AZ-4, AZ-5:
    anti-affinity); level 1 removes exactly those again."""
    before = {n: v["id"] for n, v in vnf.vnfcs().items()}
    vnf.run(
        Op.SCALE_TO_LEVEL, {"instantiationLevelId": "instantiation_level_2"}
    )
    assert counts(vnf) == {"VDU1": 4, "VDU2": 4}
    zones = vnf.nova_zones()
    assert zones == vnf.zones()
    assert {zones["VDU1-2"], zones["VDU1-3"]} == {"AZ-1"}
    assert {zones["VDU2-2"], zones["VDU2-3"]} == {"AZ-4", "AZ-5"}
    status = vnf.instance["instantiatedVnfInfo"]["scaleStatus"]
    assert {s["aspectId"]: s["scaleLevel"] for s in status} == {
        "VDU1_scale": 1,
        "VDU2_scale": 1,
    }
    assert len(vnf.attempts()) == 1
    vnf.run(
        Op.SCALE_TO_LEVEL, {"instantiationLevelId": "instantiation_level_1"}
    )
    assert {n: v["id"] for n, v in vnf.vnfcs().items()} == before
    assert stack_vnfcs(cloud, vnf) == set(before)


def test_failed_scale_out_rolls_back(cloud, vnf):
    """A quota stops the scale out (no reselection for that); rollback
    puts the stack back to the VNFCs the instance had."""
    before = {
        n: v["computeResource"]["resourceId"] for n, v in vnf.vnfcs().items()
    }
    nova = cloud.nova(admin=True)
    nova.quotas.update(cloud.project_id, force=True, instances=len(before))
    try:
        with pytest.raises(errors.StackFailed, match="Quota exceeded"):
            vnf.run(Op.SCALE, {"type": "SCALE_OUT", "aspectId": "VDU2_scale"})
    finally:
        nova.quotas.delete(cloud.project_id)
    assert len(vnf.attempts()) == 1
    assert stack_vnfcs(cloud, vnf) == set(before) | {"VDU2-2", "VDU2-3"}
    vnf.rollback()
    assert stack_vnfcs(cloud, vnf) == set(before)
    after = {
        n: v["computeResource"]["resourceId"] for n, v in vnf.vnfcs().items()
    }
    assert after == before
    assert vnf.nova_zones() == vnf.zones()


def test_change_flavour_to_internal_vl(cloud, vnf):
    """simple -> internal_vl: every VNFC is replaced by a new one (new
    ids, new servers) with a second port on the new internal network."""
    old = {
        v["id"]: v["computeResource"]["resourceId"]
        for v in vnf.vnfcs().values()
    }
    result = vnf.run(
        Op.CHANGE_FLAVOUR,
        {
            "newFlavourId": "internal_vl",
            "extVirtualLinks": env.ext_links(cloud),
        },
    )
    info = vnf.instance["instantiatedVnfInfo"]
    assert info["flavourId"] == "internal_vl"
    new = {
        v["id"]: v["computeResource"]["resourceId"]
        for v in vnf.vnfcs().values()
    }
    assert not set(new) & set(old)
    assert not set(new.values()) & set(old.values())
    kinds = Counter(
        c["changeType"] for c in result.resource_changes["affectedVnfcs"]
    )
    assert kinds == {"ADDED": 4, "REMOVED": 4}
    names = {
        r.resource_name for r in cloud.heat().resources.list(vnf.stack_name)
    }
    assert {"internalVL1", "internalVL1_subnet"} <= names
    assert vnf.nova_zones() == vnf.zones()
    nova = cloud.nova(admin=True)
    for server_id in new.values():
        assert len(nova.servers.interface_list(server_id)) == 2
