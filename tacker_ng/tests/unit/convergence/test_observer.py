"""Observer + converger on SQLite with a stand-in VIM listing: observed
rows, alarms raised/cleared with their notifications, automatic heals,
never while an op holds the instance, back-off after failures."""

import pytest
import sqlalchemy as sa

from tacker_ng.convergence import converge, observer
from tacker_ng.convergence.drift import ObservedServer
from tacker_ng.convergence.nova import VimListing
from tacker_ng.db import api as db_api
from tacker_ng.db import models_convergence as cm
from tacker_ng.db import notifications as outbox
from tacker_ng.db import observed as observed_db
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db import vnf_lcm

VIM = {
    "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
    "interfaceInfo": {"endpoint": "http://keystone/v3"},
    "accessInfo": {"username": "u", "password": "p", "project": "demo"},
}


def _vnfc(n):
    return {
        "id": f"c{n}",
        "vduId": "VDU1",
        "computeResource": {"vimConnectionId": "vim1", "resourceId": f"s{n}"},
        "zoneId": "az-1",
    }


def _instance(autoheal=False, vnfcs=2):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.insert_instance(
                s,
                {
                    "vnfd_id": "vnfd",
                    "vnf_provider": "p",
                    "vnf_product_name": "n",
                    "vnf_software_version": "1",
                    "vnfd_version": "1",
                    "project_id": "proj",
                    "instantiation_state": "INSTANTIATED",
                    "vim_connection_info": {"vim1": VIM},
                    "vnf_configurable_properties": {
                        "isAutohealEnabled": autoheal
                    },
                    "instantiated_vnf_info": {
                        "flavourId": "simple",
                        "vnfcResourceInfo": [_vnfc(n) for n in range(vnfcs)],
                    },
                },
            )
    return row["id"]


class FakeVim:
    """The listing a VIM would give; statuses by server id."""

    def __init__(self):
        self.status = {}
        self.hosts = {"h1": True}
        self.calls = 0

    def __call__(self, vim):
        assert vim["accessInfo"]["password"] == "p"
        self.calls += 1
        return VimListing(
            {
                sid: ObservedServer(sid, st, "h1", "az-1")
                for sid, st in self.status.items()
            },
            dict(self.hosts),
            2,
        )


@pytest.fixture
def env(db, conf):
    vim = FakeVim()
    casts = []
    converger = converge.Converger(
        None, lambda ctx, occ: casts.append(occ), conf
    )
    obs = observer.Observer("me", converger, lambda: ["me"], vim, conf)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            sub_id = subscriptions_db.FM.insert(
                s,
                {
                    "callback_uri": "http://nfvo/cb",
                    "filter": {"perceivedSeverities": ["CRITICAL"]},
                    "fingerprint": "x",
                    "project_id": None,
                },
            )
    return vim, casts, obs, sub_id


def _notifications(sub_id):
    with db_api.reader() as s:
        return [
            r["payload"]
            for r in s.execute(
                sa.select(outbox.OUTBOX)
                .where(outbox.OUTBOX.c.subscription_id == sub_id)
                .order_by(outbox.OUTBOX.c.id)
            ).mappings()
        ]


def _alarms():
    with db_api.reader() as s:
        return list(s.execute(sa.select(cm.VnfAlarm.__table__)).mappings())


def test_drift_raises_alarms_and_clears_them(env):
    vim, casts, obs, sub_id = env
    iid = _instance()
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["vnfcs"] == 2 and report["drifted"] == 0
    assert report["vim_calls"] == 2 and vim.calls == 1
    assert _alarms() == []

    vim.status = {"s0": "ERROR"}  # s1 deleted behind our back
    report = obs.run_cycle()
    assert report["drifted"] == 2 and report["alarms_raised"] == 2
    alarms = {a["vnfc_instance_ids"][0]: a for a in _alarms()}
    assert alarms["c0"]["perceived_severity"] == "CRITICAL"
    assert alarms["c0"]["managed_object_id"] == iid
    assert alarms["c1"]["probable_cause"].endswith("missing from the VIM")
    assert (
        alarms["c0"]["root_cause_faulty_resource"]["faultyResource"][
            "resourceId"
        ]
        == "s0"
    )
    with db_api.reader() as s:
        rows = {r["vnfc_id"]: r for r in observed_db.of_instance(s, iid)}
    assert rows["c0"]["status"] == "ERROR" and rows["c0"]["drift"] == "ERROR"
    assert rows["c1"]["status"] is None and rows["c1"]["drift"] == "MISSING"
    sent = _notifications(sub_id)
    assert [n["notificationType"] for n in sent] == ["AlarmNotification"] * 2
    assert {n["alarm"]["vnfcInstanceIds"][0] for n in sent} == {"c0", "c1"}
    assert casts == []

    # one alarm per drift: a second cycle raises nothing new
    assert obs.run_cycle()["alarms_raised"] == 0

    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            every = subscriptions_db.FM.insert(
                s,
                {"callback_uri": "http://o/cb", "fingerprint": "y"},
            )
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["alarms_cleared"] == 2
    assert all(a["perceived_severity"] == "CLEARED" for a in _alarms())
    # the first filter selects CRITICAL only; cleared alarms are CLEARED
    assert _notifications(sub_id)[2:] == []
    cleared = _notifications(every)
    assert {n["notificationType"] for n in cleared} == {
        "AlarmClearedNotification"
    }
    assert {n["alarmId"] for n in cleared} == {a["id"] for a in _alarms()}
    for n in cleared:
        assert n["alarmClearedTime"].endswith("Z")
        assert n["_links"]["alarm"]["href"].endswith(n["alarmId"])
        assert n["subscriptionId"] == every
    assert obs.run_cycle()["alarms_cleared"] == 0


def test_vim_error_is_not_a_missing_vnfc(env, conf):
    from tacker_ng.infra.openstack import errors

    _vim, _casts, obs, _sub = env
    _instance()

    def broken(vim):
        raise errors.VimError(reason="down")

    obs.lister = broken
    report = obs.run_cycle()
    assert report["vims_skipped"] == 1 and _alarms() == []


def test_autoheal_opens_automatic_heal_of_drifted_vnfcs(env):
    vim, casts, obs, _sub = env
    iid = _instance(autoheal=True, vnfcs=3)
    vim.status = {"s0": "ACTIVE", "s1": "SHUTOFF", "s2": "ACTIVE"}
    report = obs.run_cycle()
    assert len(report["heals"]) == 1 and casts == report["heals"]
    with db_api.reader() as s:
        occ = vnf_lcm.get_op_occ(s, casts[0])
        inst = vnf_lcm.get_instance(s, iid)
    assert occ["operation"] == "HEAL"
    assert occ["is_automatic_invocation"] is True
    assert occ["operation_params"]["vnfcInstanceId"] == ["c1"]
    assert inst["current_op_occ_id"] == occ["id"]
    assert _alarms() == []

    # never while an op holds the instance
    report = obs.run_cycle()
    assert report["heals"] == [] and len(casts) == 1


def _end(occ_id, iid, state):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert vnf_lcm.transition(s, occ_id, "PROCESSING")
            if state == "FAILED":
                assert vnf_lcm.transition(s, occ_id, "FAILED_TEMP")
            assert vnf_lcm.transition(s, occ_id, state)
            vnf_lcm.release_instance(s, iid, occ_id)


def test_autoheal_backs_off_after_failures_and_alarms(env, conf):
    conf.set_override("auto_heal_attempts", 2, group="convergence")
    conf.set_override("auto_heal_backoff_base", 0, group="convergence")
    vim, casts, obs, sub_id = env
    iid = _instance(autoheal=True, vnfcs=1)
    vim.status = {"s0": "ERROR"}
    for _ in range(2):
        report = obs.run_cycle()
        assert len(report["heals"]) == 1
        _end(report["heals"][0], iid, "FAILED")
    report = obs.run_cycle()
    assert report["heals"] == [] and report["alarms_raised"] == 1
    with db_api.reader() as s:
        st = observed_db.autoheal_state(s, iid)
    assert st["autoheal_failures"] == 2 and st["backoff_until"] is not None
    assert len(casts) == 2


def test_completed_heal_resets_failures(env, conf):
    conf.set_override("auto_heal_attempts", 2, group="convergence")
    conf.set_override("auto_heal_backoff_base", 0, group="convergence")
    vim, casts, obs, _sub = env
    iid = _instance(autoheal=True, vnfcs=1)
    vim.status = {"s0": "ERROR"}
    _end(obs.run_cycle()["heals"][0], iid, "FAILED")
    _end(obs.run_cycle()["heals"][0], iid, "COMPLETED")
    _end(obs.run_cycle()["heals"][0], iid, "FAILED")
    assert len(obs.run_cycle()["heals"]) == 1


def test_on_demand_request_is_claimed_once(env):
    vim, _casts, obs, _sub = env
    iid = _instance()
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    from tacker_ng.convergence import service

    assert service.serve_requests(obs) is None
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            observed_db.request_observation(s, iid)
    report = service.serve_requests(obs)
    assert report["instances"] == 1 and report["vnfcs"] == 2
    assert service.serve_requests(obs) is None


def test_other_conductors_vims_are_left_to_them(env):
    from tacker_ng.convergence import shard

    vim, _casts, obs, _sub = env
    _instance()
    key = shard.vim_key(VIM)
    other = next(
        f"c{n}"
        for n in range(100)
        if shard.owner(key, ["me", f"c{n}"]) != "me"
    )
    obs.live_hosts = lambda: ["me", other]
    assert obs.run_cycle()["vims"] == 0 and vim.calls == 0
    obs.live_hosts = lambda: ["me"]
    assert obs.run_cycle()["vims"] == 1 and vim.calls == 1


def test_shard_by_instance_splits_one_vim_between_conductors(env, conf):
    conf.set_override("shard_by", "instance", group="convergence")
    vim, _casts, obs, _sub = env
    from tacker_ng.convergence import shard

    # Instance ids are random: add instances until each conductor owns
    # one (8 alone all went to one conductor about once in 128 runs).
    ids = [_instance() for _ in range(8)]
    while len({shard.owner(i, ["me", "other"]) for i in ids}) < 2:
        ids.append(_instance())
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    seen = []
    for host in ("me", "other"):
        obs.host = host
        obs.live_hosts = lambda: ["me", "other"]
        report = obs.run_cycle()
        assert report["vims"] == 1
        seen.append(report["instances"])
    mine = sum(shard.owner(i, ["me", "other"]) == "me" for i in ids)
    assert seen == [mine, len(ids) - mine]
    assert vim.calls == 2


def test_terminated_instance_alarms_are_cleared(env):
    vim, _casts, obs, _sub = env
    iid = _instance()
    vim.status = {"s0": "ERROR", "s1": "ACTIVE"}
    assert obs.run_cycle()["alarms_raised"] == 1
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.update_instance(
                s, iid, {"instantiation_state": "NOT_INSTANTIATED"}
            )
    report = obs.run_cycle()
    assert report["alarms_cleared"] == 1 and report["instances"] == 0
    assert _alarms()[0]["perceived_severity"] == "CLEARED"
    with db_api.reader() as s:
        assert observed_db.of_instance(s, iid) == []
    assert obs.run_cycle()["alarms_cleared"] == 0


def test_instance_on_two_vims_keeps_both_observations(env, conf):
    vim, _casts, obs, _sub = env
    iid = _instance()
    other = {
        **VIM,
        "accessInfo": {**VIM["accessInfo"], "project": "other"},
    }
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.get_instance(s, iid)
            info = dict(row["instantiated_vnf_info"])
            moved = dict(info["vnfcResourceInfo"][1])
            moved["computeResource"] = {
                "vimConnectionId": "vim2",
                "resourceId": "s1",
            }
            info["vnfcResourceInfo"] = [info["vnfcResourceInfo"][0], moved]
            vnf_lcm.update_instance(
                s,
                iid,
                {
                    "instantiated_vnf_info": info,
                    "vim_connection_info": {"vim1": VIM, "vim2": other},
                },
            )
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["vims"] == 2 and vim.calls == 2
    with db_api.reader() as s:
        rows = observed_db.of_instance(s, iid)
    assert {(r["vnfc_id"], r["vim_connection_id"]) for r in rows} == {
        ("c0", "vim1"),
        ("c1", "vim2"),
    }


def test_unreadable_vim_secret_skips_only_that_instance(env):
    vim, _casts, obs, _sub = env
    good = _instance()
    bad = _instance()
    broken = {**VIM, "accessInfo": {**VIM["accessInfo"], "password": "x"}}
    broken["accessInfo"]["password"] = "fernet:not-a-token"
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.update_instance(
                s, bad, {"vim_connection_info": {"vim1": broken}}
            )
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["instances"] == 2 and report["vnfcs"] == 2
    with db_api.reader() as s:
        assert len(observed_db.of_instance(s, good)) == 2
        assert observed_db.of_instance(s, bad) == []


@pytest.mark.parametrize("autoheal", [False, True])
def test_failed_stack_is_a_stack_alarm_never_a_heal(env, autoheal):
    from tacker_ng.convergence.drift import StackState

    vim, casts, obs, _sub = env
    iid = _instance(autoheal=autoheal)
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    failed: dict = {}
    answers = {"stacks": failed}

    def stacks(v):
        return answers["stacks"], 1

    obs.stack_lister = stacks
    report = obs.run_cycle()
    assert report["stack_list_calls"] == 1 and report["alarms_raised"] == 0
    failed[f"vnf-{iid}"] = StackState(
        "st1", f"vnf-{iid}", "UPDATE_FAILED", "x"
    )
    report = obs.run_cycle()
    assert report["stacks_failed"] == 1 and report["alarms_raised"] == 1
    assert report["heals"] == [] and casts == []
    (alarm,) = _alarms()
    assert alarm["vnfc_instance_ids"] == []
    assert alarm["fault_type"] == "STACK_FAILED"
    fault = alarm["root_cause_faulty_resource"]["faultyResource"]
    assert fault == {
        "resourceId": "st1",
        "vimLevelResourceType": "OS::Heat::Stack",
    }
    assert obs.run_cycle()["alarms_raised"] == 0  # one alarm per failure
    answers["stacks"] = None  # Heat did not answer: nothing cleared
    assert obs.run_cycle()["alarms_cleared"] == 0
    answers["stacks"] = {}  # the stack left the FAILED state
    report = obs.run_cycle()
    assert report["alarms_cleared"] == 1
    assert _alarms()[0]["perceived_severity"] == "CLEARED"


K8S = {
    "vimType": "ETSINFV.KUBERNETES.V_1",
    "interfaceInfo": {"endpoint": "https://k8s:6443"},
    "accessInfo": {"bearer_token": "t"},
}


def _cnf_instance():
    pods = [
        {
            "id": name,
            "vduId": "VDU1",
            "computeResource": {
                "vimConnectionId": "k8s",
                "resourceId": name,
                "vimLevelResourceType": "Deployment",
            },
            "metadata": {"namespace": "ns1", "nodeName": "n1"},
        }
        for name in ("web-a", "web-b")
    ]
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.insert_instance(
                s,
                {
                    "vnfd_id": "vnfd",
                    "vnf_provider": "p",
                    "vnf_product_name": "n",
                    "vnf_software_version": "1",
                    "vnfd_version": "1",
                    "project_id": "proj",
                    "instantiation_state": "INSTANTIATED",
                    "vim_connection_info": {"k8s": K8S},
                    "instantiated_vnf_info": {
                        "flavourId": "simple",
                        "vnfcResourceInfo": pods,
                        "metadata": {
                            "namespace": "ns1",
                            "vduWorkloads": {
                                "VDU1": {
                                    "apiVersion": "apps/v1",
                                    "kind": "Deployment",
                                    "name": "web",
                                }
                            },
                        },
                    },
                },
            )
    return row["id"]


def test_pods_observed_per_namespace_and_replacement_adopted(env):
    _vim, casts, obs, _sub = env
    iid = _cnf_instance()
    pods = {}
    asked = []

    def pod_lister(vim, namespaces):
        assert vim["accessInfo"]["bearer_token"] == "t"
        asked.append(list(namespaces))
        return VimListing(
            {
                f"ns1/{name}": ObservedServer(
                    name, st, "n1", "z", "Deployment/web"
                )
                for name, st in pods.items()
            },
            {"n1": True},
            2,
        )

    obs.pod_lister = pod_lister
    pods.update({"web-a": "ACTIVE", "web-b": "ACTIVE"})
    report = obs.run_cycle()
    assert asked == [["ns1"]] and report["pod_list_calls"] == 2
    assert report["vnfcs"] == 2 and report["drifted"] == 0

    def ids():
        with db_api.reader() as s:
            info = vnf_lcm.get_instance(s, iid)["instantiated_vnf_info"]
        return [v["id"] for v in info["vnfcResourceInfo"]]

    # web-b deleted behind our back; its ReplicaSet's web-c is starting
    del pods["web-b"]
    pods["web-c"] = "BUILD"
    report = obs.run_cycle()
    assert report["drifted"] == 0 and report["vnfcs_refreshed"] == 0
    assert ids() == ["web-a", "web-b"]
    # busy instance: not refreshed even when Ready
    pods["web-c"] = "ACTIVE"
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            s.execute(
                sa.update(vnf_lcm.INSTANCES)
                .where(vnf_lcm.INSTANCES.c.id == iid)
                .values(current_op_occ_id="busy")
            )
    assert obs.run_cycle()["vnfcs_refreshed"] == 0
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            s.execute(
                sa.update(vnf_lcm.INSTANCES)
                .where(vnf_lcm.INSTANCES.c.id == iid)
                .values(current_op_occ_id=None)
            )
    report = obs.run_cycle()
    assert report["vnfcs_refreshed"] == 1 and report["drifted"] == 0
    assert ids() == ["web-a", "web-c"]
    assert _alarms() == [] and casts == []
    # next cycle: converged on the new pod
    report = obs.run_cycle()
    assert report["drifted"] == 0 and report["vnfcs_refreshed"] == 0
    with db_api.reader() as s:
        rows = {r["vnfc_id"] for r in observed_db.of_instance(s, iid)}
    assert rows == {"web-a", "web-c"}

    # a pod not Ready: NOT_READY alarm naming the pod and its workload kind
    pods["web-a"] = "NOT_READY"
    report = obs.run_cycle()
    assert report["alarms_raised"] == 1
    (alarm,) = _alarms()
    assert alarm["vnfc_instance_ids"] == ["web-a"]
    assert alarm["fault_type"] == "NOT_READY"
    fault = alarm["root_cause_faulty_resource"]["faultyResource"]
    assert fault["vimLevelResourceType"] == "Deployment"
