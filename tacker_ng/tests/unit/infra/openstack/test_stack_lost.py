"""A VNF whose Heat stack is gone: which stack the driver works on, and
which operations re-create it (a heal) or refuse (anything else).

Heat's answers are stack bodies as ``GET /stacks/{name_or_id}`` gives
them: a deleted stack shown by id is ``DELETE_COMPLETE``, by name 404."""

import types

import pytest

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors
from tacker_ng.infra.openstack.driver import OpenStackDriver
from tacker_ng.objects import lcm

Op = lcm.Operation


class Heat:
    """Stacks by id and by live name; ``wait`` ends a deletion."""

    def __init__(self, stacks):
        self.stacks = {s["id"]: s for s in stacks}
        self.waited = []

    def find(self, name_or_id):
        if name_or_id in self.stacks:
            return dict(self.stacks[name_or_id])
        for stack in self.stacks.values():
            live = stack["stack_status"] != "DELETE_COMPLETE"
            if stack["stack_name"] == name_or_id and live:
                return dict(stack)
        return None

    def wait(self, stack_id, allow_missing=False):
        self.waited.append(stack_id)
        self.stacks[stack_id]["stack_status"] = "DELETE_COMPLETE"
        return dict(self.stacks[stack_id])


def _stack(stack_id, status):
    return {"id": stack_id, "stack_name": "vnf-i1", "stack_status": status}


def _task(op=Op.HEAL, progress=None):
    return base.LcmTask(
        None,
        op,
        "occ",
        {"id": "i1"},
        {},
        None,
        None,
        {},
        {},
        progress if progress is not None else {},
        lambda: None,
        lambda: None,
    )


def _stack_id(heat, progress=None):
    vim = types.SimpleNamespace(heat=heat)
    return OpenStackDriver()._stack_id(_task(progress=progress), vim)


def test_live_stack_by_name_or_by_this_ops_id():
    heat = Heat([_stack("s1", "UPDATE_COMPLETE")])
    assert _stack_id(heat) == "s1"
    assert _stack_id(heat, {"stack_id": "s1"}) == "s1"
    # A failed stack is still the VNF's stack (Heat updates it).
    heat = Heat([_stack("s1", "UPDATE_FAILED")])
    assert _stack_id(heat) == "s1"


def test_deleted_stack_is_no_stack():
    heat = Heat([_stack("s1", "DELETE_COMPLETE")])
    assert _stack_id(heat) is None
    # This op occ's stack id shows the deleted stack: not taken either.
    assert _stack_id(heat, {"stack_id": "s1"}) is None
    assert _stack_id(Heat([])) is None


def test_stack_being_deleted_is_waited_for():
    heat = Heat([_stack("s1", "DELETE_IN_PROGRESS")])
    assert _stack_id(heat) is None
    assert heat.waited == ["s1"]


def test_a_retry_finds_the_stack_its_heal_created():
    old, new = _stack("s1", "DELETE_COMPLETE"), _stack("s2", "CREATE_FAILED")
    assert _stack_id(Heat([old, new]), {"stack_id": "s2"}) == "s2"
    assert _stack_id(Heat([old, new])) == "s2"


def test_only_a_heal_recreates_a_lost_stack():
    driver = OpenStackDriver()
    progress = {}
    assert driver._stack_lost(_task(Op.HEAL, progress), None) is True
    assert driver._stack_lost(_task(Op.HEAL, {}), "s1") is False
    # The retry of a heal that re-created the stack goes on doing so.
    retry = {"stack_recreated": True}
    assert driver._stack_lost(_task(Op.HEAL, retry), "s2") is True
    assert driver._stack_lost(_task(Op.INSTANTIATE), None) is False
    for op in (Op.SCALE, Op.SCALE_TO_LEVEL, Op.CHANGE_FLAVOUR):
        with pytest.raises(errors.StackGone) as caught:
            driver._stack_lost(_task(op), None)
        assert caught.value.status == 502
        assert "vnf-i1" in caught.value.detail
        assert "Heal the VNF" in caught.value.detail
