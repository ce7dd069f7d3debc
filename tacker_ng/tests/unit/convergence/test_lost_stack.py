"""A VNF's Heat stack deleted behind the VNFM's back.

Heat is asked whether a stack still exists only for the instances whose
every server is missing (one listing for all of them); a stack it no
longer has is a stack alarm (``Heat stack MISSING``) in both modes, and
with auto-heal on the missing VNFCs are healed - which re-creates the
stack (the driver's side) - after which the alarm clears."""

import pytest
from heatclient import exc as heat_exc
from heatclient.v1 import stacks as heat_stacks

from tacker_ng.convergence import converge, drift, heat, observer
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.tests.unit.convergence.test_observer import (
    FakeVim,
    _alarms,
    _end,
    _instance,
)


class Finder:
    """Which stack names Heat has; every question recorded."""

    def __init__(self):
        self.existing: set[str] = set()
        self.asked: list[set[str]] = []

    def __call__(self, vim, names):
        names = set(names)
        self.asked.append(names)
        return names - self.existing, 1


@pytest.fixture
def env(db, conf):
    vim = FakeVim()
    casts = []
    converger = converge.Converger(
        None, lambda ctx, occ: casts.append(occ), conf
    )
    finder = Finder()
    obs = observer.Observer(
        "me",
        converger,
        lambda: ["me"],
        vim,
        conf,
        stack_lister=lambda v: ({}, 1),
        stack_finder=finder,
    )
    return vim, casts, obs, finder


def test_all_missing_needs_every_vnfc_missing():
    d = drift.DesiredVnfc("i", "c0", "VDU1", "vim1", "s0")
    missing = drift.judge(d, None, {})
    active = drift.judge(d, drift.ObservedServer("s0", "ACTIVE"), {})
    error = drift.judge(d, drift.ObservedServer("s0", "ERROR"), {})
    assert drift.all_missing([missing, missing])
    assert not drift.all_missing([missing, active])
    assert not drift.all_missing([missing, error])
    assert not drift.all_missing([])
    lost = drift.missing_stack("vnf-i")
    assert (lost.id, lost.name, lost.status) == ("vnf-i", "vnf-i", "MISSING")


def test_heat_is_asked_only_when_every_server_is_missing(env):
    vim, casts, obs, finder = env
    whole = _instance()  # servers s0, s1
    partly = _instance(vnfcs=3)  # servers s0, s1, s2
    stacks = {f"vnf-{whole}", f"vnf-{partly}"}
    vim.status = {}  # every server of both instances gone...
    finder.existing = set(stacks)  # ...but both stacks there
    report = obs.run_cycle()
    assert finder.asked == [stacks]  # one question for both
    assert report["stacks_missing"] == 0
    assert {a["fault_type"] for a in _alarms()} == {"MISSING"}
    # One server of `partly` is back: only `whole` is asked about.
    vim.status = {"s2": "ACTIVE"}
    finder.asked.clear()
    obs.run_cycle()
    assert finder.asked == [{f"vnf-{whole}"}]
    # No instance lost everything: Heat is not asked at all.
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    finder.asked.clear()
    obs.run_cycle()
    assert finder.asked == []


def test_missing_stack_is_an_alarm_cleared_once_it_is_back(env):
    vim, casts, obs, finder = env
    iid = _instance()
    vim.status = {}
    report = obs.run_cycle()
    assert report["stacks_missing"] == 1 and report["stack_list_calls"] == 2
    alarms = {tuple(a["vnfc_instance_ids"]): a for a in _alarms()}
    stack_alarm = alarms[()]
    assert stack_alarm["probable_cause"] == "Heat stack MISSING"
    fault = stack_alarm["root_cause_faulty_resource"]["faultyResource"]
    assert fault == {
        "resourceId": f"vnf-{iid}",
        "vimLevelResourceType": "OS::Heat::Stack",
    }
    assert any("deleted outside" in d for d in stack_alarm["fault_details"])
    assert {a["fault_type"] for k, a in alarms.items() if k} == {"MISSING"}
    assert casts == []  # auto-heal off
    assert obs.run_cycle()["alarms_raised"] == 0  # one alarm per loss
    # A heal made the stack again, its servers run.
    finder.existing = {f"vnf-{iid}"}
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["alarms_cleared"] == 3
    assert {a["perceived_severity"] for a in _alarms()} == {"CLEARED"}


def test_missing_stack_with_autoheal_heals_every_vnfc(env):
    vim, casts, obs, finder = env
    iid = _instance(autoheal=True)
    vim.status = {}
    report = obs.run_cycle()
    (heal,) = report["heals"]
    assert casts == [heal]
    with db_api.reader() as s:
        occ = vnf_lcm.get_op_occ(s, heal)
    assert sorted(occ["operation_params"]["vnfcInstanceId"]) == ["c0", "c1"]
    (alarm,) = _alarms()  # the stack's, as for a failed stack
    assert alarm["vnfc_instance_ids"] == []
    _end(heal, iid, "COMPLETED")
    finder.existing = {f"vnf-{iid}"}
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    report = obs.run_cycle()
    assert report["heals"] == [] and report["alarms_cleared"] == 1


def test_heat_not_answering_leaves_it_to_the_vnfc_drift(env):
    from tacker_ng.infra.openstack import errors

    vim, casts, obs, finder = env

    def broken(v, names):
        raise errors.VimError(reason="Heat stack list: 503")

    obs.stack_finder = broken
    _instance()
    vim.status = {}
    report = obs.run_cycle()
    assert report["stacks_missing"] == 0
    assert [a["fault_type"] for a in _alarms()] == ["MISSING", "MISSING"]


class NamedStacks:
    """heatclient's StackManager.list filtered by name, as Heat does
    (``GET /stacks?name=a&name=b``: the live stacks of those names)."""

    def __init__(self, names, forbid_global=False):
        self.names = set(names)
        self.forbid_global = forbid_global
        self.calls = []

    def list(self, **params):
        self.calls.append(params)
        if self.forbid_global and params.get("global_tenant"):
            raise heat_exc.Forbidden()
        wanted = params["filters"]["name"]
        assert isinstance(wanted, list) and "status" not in params["filters"]
        found = sorted(self.names & set(wanted))[: params["limit"]]
        return iter(
            heat_stacks.Stack(
                None,
                {"id": f"id-{n}", "stack_name": n, "stack_status": "X"},
                loaded=True,
            )
            for n in found
        )


def _lister(stacks, page_size=1000):
    lister = heat.HeatLister.__new__(heat.HeatLister)
    lister.client = type("C", (), {"stacks": stacks})()
    lister.page_size = page_size
    lister.calls = 0
    lister.key = f"vim-{id(stacks)}"
    return lister


def test_existing_stacks_one_listing_per_chunk_of_names():
    names = [f"vnf-{n:03d}" for n in range(heat.NAMES_PER_CALL + 10)]
    stacks = NamedStacks(names[::2] + ["vnf-other"])
    lister = _lister(stacks)
    assert lister.existing(names) == set(names[::2])
    assert lister.calls == 2  # 60 names: two chunks of at most 50
    assert [len(c["filters"]["name"]) for c in stacks.calls] == [50, 10]
    assert all(c["global_tenant"] for c in stacks.calls)
    assert lister.existing([]) == set() and lister.calls == 2


def test_existing_stacks_in_own_project_when_global_forbidden():
    stacks = NamedStacks(["vnf-a"], forbid_global=True)
    lister = _lister(stacks)
    assert lister.existing(["vnf-a", "vnf-b"]) == {"vnf-a"}
    assert "global_tenant" not in stacks.calls[-1]


def test_existing_stacks_heat_error_is_a_vim_error():
    from tacker_ng.infra.openstack import errors

    class Broken:
        def list(self, **params):
            raise heat_exc.HTTPServiceUnavailable()

    with pytest.raises(errors.VimError, match="Heat stack list"):
        _lister(Broken()).existing(["vnf-a"])


def test_missing_stacks_asks_nothing_for_no_names():
    assert heat.missing_stacks({"vimType": "x"}, []) == (set(), 0)
