"""An alarm whose VNFC is no longer desired is cleared.

A heal that re-creates a CNF's workload gives its VNFCs new ids (new pod
names). An observation made while the heal runs already sees the new
pods and pairs them with the missing VNFCs (no drift any more), but the
instance is held, so nothing is cleared then; once the heal recorded the
new VNFCs, no observed drift changes. The alarms of the VNFCs that left
the desired state must still be cleared (they stayed open for ever)."""

import pytest
import sqlalchemy as sa

from tacker_ng.convergence import converge, departed, observer
from tacker_ng.convergence.drift import ObservedServer
from tacker_ng.convergence.nova import VimListing
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.tests.unit.convergence.test_observer import (
    FakeVim,
    _alarms,
    _cnf_instance,
)


@pytest.fixture
def env(db, conf):
    casts = []
    converger = converge.Converger(
        None, lambda ctx, occ: casts.append(occ), conf
    )
    obs = observer.Observer("me", converger, lambda: ["me"], FakeVim(), conf)
    return casts, obs


def _hold(iid, occ):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            s.execute(
                sa.update(vnf_lcm.INSTANCES)
                .where(vnf_lcm.INSTANCES.c.id == iid)
                .values(current_op_occ_id=occ)
            )


def _record(iid, names):
    """What the heal records at its end: the new pods as VNFCs."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            info = dict(vnf_lcm.get_instance(s, iid)["instantiated_vnf_info"])
            template = info["vnfcResourceInfo"][0]
            info["vnfcResourceInfo"] = [
                {
                    **template,
                    "id": n,
                    "computeResource": {
                        **template["computeResource"],
                        "resourceId": n,
                    },
                }
                for n in names
            ]
            s.execute(
                sa.update(vnf_lcm.INSTANCES)
                .where(vnf_lcm.INSTANCES.c.id == iid)
                .values(instantiated_vnf_info=info, current_op_occ_id=None)
            )


def test_alarms_of_renamed_vnfcs_cleared_after_the_heal(env):
    casts, obs = env
    iid = _cnf_instance()  # web-a, web-b of Deployment/web in ns1
    pods: dict[str, str] = {}

    def pod_lister(vim, namespaces):
        return VimListing(
            {
                f"ns1/{name}": ObservedServer(
                    name, st, "n1", "z", "Deployment/web"
                )
                for name, st in pods.items()
            },
            {"n1": True},
            1,
        )

    obs.pod_lister = pod_lister
    # The Deployment was deleted: both pods missing, two alarms.
    assert obs.run_cycle()["alarms_raised"] == 2
    # The heal re-created it; an observation during the heal sees the
    # new pods (paired with the missing VNFCs: no drift), instance held.
    _hold(iid, "heal-occ")
    pods.update({"web-x": "ACTIVE", "web-y": "ACTIVE"})
    report = obs.run_cycle()
    assert report["drifted"] == 0 and report["alarms_cleared"] == 0
    # The heal ends: the new pods are the VNFCs.
    _record(iid, ["web-x", "web-y"])
    report = obs.run_cycle()
    assert report["drifted"] == 0
    assert report["alarms_cleared"] == 2
    assert {a["perceived_severity"] for a in _alarms()} == {"CLEARED"}
    with db_api.reader() as s:
        assert alarms_db.open_keys(s, [iid]) == set()
    assert obs.run_cycle()["alarms_cleared"] == 0 and casts == []


def test_open_keys_of_a_chunk(env):
    iid = _cnf_instance()
    with db_api.reader() as s:
        assert alarms_db.open_keys(s, [iid]) == set()
        assert alarms_db.open_keys(s, []) == set()


def test_an_alarm_the_observer_does_not_own_is_no_departed_vnfc(env):
    """The conductor's zone anti-affinity alarm (a key with a colon)
    names no VNFC: it never makes the observer converge the instance,
    and converging leaves it open."""
    from tacker_ng.lcm import anti_affinity_alarm

    _, obs = env
    iid = _cnf_instance()
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            instance = vnf_lcm.get_instance(s, iid)
            alarms_db.raise_open(
                s,
                instance,
                anti_affinity_alarm.KEY,
                faulty_resource={"resourceId": "web-a"},
                severity="WARNING",
                event_type="QOS_ALARM",
                probable_cause="zone anti-affinity",
                fault_type="ANTI_AFFINITY_BROKEN",
                details=[],
                vnfc_ids=["web-a", "web-b"],
            )
    with db_api.reader() as s:
        instances = {iid: vnf_lcm.get_instance(s, iid)}
        assert departed.with_departed_alarms(s, [iid], instances, True) == (
            set()
        )
    obs.run_cycle()
    assert {a["perceived_severity"] for a in _alarms()} == {"WARNING"}
