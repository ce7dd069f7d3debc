"""Drift rules, desired state and VIM sharding (pure logic)."""

import pytest

from tacker_ng.convergence import desired, drift, shard
from tacker_ng.convergence.drift import DriftKind, ObservedServer

D = desired.DesiredVnfc("i1", "c1", "VDU1", "vim1", "srv1", zone="az-1")


@pytest.mark.parametrize(
    ("server", "hosts", "kind"),
    [
        (None, {}, DriftKind.MISSING),
        (ObservedServer("srv1", "ACTIVE", "h1"), {"h1": True}, None),
        (ObservedServer("srv1", "ERROR", "h1"), {"h1": True}, DriftKind.ERROR),
        (ObservedServer("srv1", "SHUTOFF"), {}, DriftKind.SHUTOFF),
        (ObservedServer("srv1", "ACTIVE", "h1"), {"h1": False}, "HOST_DOWN"),
        # transitional states are someone's change in progress
        (ObservedServer("srv1", "BUILD", "h1"), {"h1": True}, None),
        (ObservedServer("srv1", "REBOOT", "h1"), {"h1": False}, "HOST_DOWN"),
        # an unknown host (services not visible) is not "down"
        (ObservedServer("srv1", "ACTIVE", "h9"), {"h1": False}, None),
        (ObservedServer("srv1", "error", None), {}, DriftKind.ERROR),
    ],
)
def test_judge(server, hosts, kind):
    assert drift.judge(D, server, hosts).drift == kind


def test_judge_all_skips_vnfcs_without_resource():
    no_server = desired.DesiredVnfc("i1", "c2", "VDU1", "vim1", None)
    out = drift.judge_all([D, no_server], {}, {})
    assert [o.desired.vnfc_id for o in out] == ["c1"]
    assert out[0].observed_dict() == {"status": None}


def _instance(state="INSTANTIATED", props=None):
    return {
        "id": "i1",
        "instantiation_state": state,
        "vnf_configurable_properties": props,
        "instantiated_vnf_info": {
            "vnfcResourceInfo": [
                {
                    "id": "c1",
                    "vduId": "VDU1",
                    "computeResource": {
                        "vimConnectionId": "vim1",
                        "resourceId": "srv1",
                    },
                    "zoneId": "az-2",
                    "metadata": {
                        "zone": "az-1",
                        "computeFlavourId": "m1",
                        "vcImageId": "img",
                    },
                }
            ]
        },
    }


def test_desired_from_instantiated_vnf_info():
    (vnfc,) = desired.desired_vnfcs(_instance())
    assert vnfc == desired.DesiredVnfc(
        "i1", "c1", "VDU1", "vim1", "srv1", "az-2", "m1", "img"
    )
    assert desired.desired_vnfcs(_instance("NOT_INSTANTIATED")) == []


def test_a_vnfc_stopped_by_operate_is_desired_shutoff():
    """An operator's operate STOPPED is the desired state: SHUTOFF is not
    a drift then (it would be "healed" back), ERROR and MISSING still
    are."""
    instance = _instance()
    instance["instantiated_vnf_info"]["vnfcInfo"] = [
        {"id": "c1", "vduId": "VDU1", "vnfcState": "STOPPED"}
    ]
    (vnfc,) = desired.desired_vnfcs(instance)
    assert vnfc.status == desired.SHUTOFF
    shutoff = ObservedServer("srv1", "SHUTOFF", "h1")
    assert drift.judge(vnfc, shutoff, {"h1": True}).drift is None
    assert drift.judge(vnfc, shutoff, {"h1": False}).drift is None
    error = ObservedServer("srv1", "ERROR", "h1")
    assert drift.judge(vnfc, error, {}).drift == DriftKind.ERROR
    assert drift.judge(vnfc, None, {}).drift == DriftKind.MISSING
    started = _instance()
    started["instantiated_vnf_info"]["vnfcInfo"] = [
        {"id": "c1", "vduId": "VDU1", "vnfcState": "STARTED"}
    ]
    (running,) = desired.desired_vnfcs(started)
    assert drift.judge(running, shutoff, {}).drift == DriftKind.SHUTOFF


@pytest.mark.parametrize(
    ("props", "enabled"),
    [
        (None, False),
        ({}, False),
        ({"isAutohealEnabled": False}, False),
        ({"isAutohealEnabled": "true"}, False),
        ({"isAutohealEnabled": True}, True),
    ],
)
def test_autoheal_enabled(props, enabled):
    assert desired.autoheal_enabled(_instance(props=props)) is enabled


def test_every_drift_kind_has_an_alarm():
    assert set(drift.ALARM_OF) == set(DriftKind)


def test_shard_owner_is_stable_and_moves_only_the_dead_hosts_vims():
    vims = [f"vim-{n}" for n in range(200)]
    hosts = ["c1", "c2", "c3"]
    before = {v: shard.owner(v, hosts) for v in vims}
    assert {v: shard.owner(v, reversed(hosts)) for v in vims} == before
    assert set(before.values()) == set(hosts)
    after = {v: shard.owner(v, ["c1", "c3"]) for v in vims}
    moved = {v for v in vims if before[v] != after[v]}
    assert moved == {v for v in vims if before[v] == "c2"}
    assert shard.owner("x", []) is None


def test_vim_key_has_no_secret():
    vim = {
        "interfaceInfo": {"endpoint": "http://ks/v3"},
        "accessInfo": {
            "username": "u",
            "password": "secret",
            "project": "p",
        },
    }
    assert "secret" not in shard.vim_key(vim)
    other = {**vim, "accessInfo": {**vim["accessInfo"], "project": "q"}}
    assert shard.vim_key(vim) != shard.vim_key(other)
