"""Creating a stack whose name Heat has not released yet: Heat writes
DELETE_COMPLETE a moment before it frees the name, and a create in that
moment is a 409 "already exists" (seen on minicloud: an automatic heal
re-creating a stack deleted behind the VNFM's back)."""

import types

import pytest
from heatclient import exc as heat_exc
from oslo_config import cfg

from tacker_ng.conf import openstack as os_conf
from tacker_ng.infra.openstack import errors, heat


class Stacks:
    """``stacks.create`` conflicts ``conflicts`` times; ``get`` answers
    the stack of that name as ``status`` (None: 404)."""

    def __init__(self, conflicts: int, status: str | None) -> None:
        self.conflicts = conflicts
        self.status = status
        self.creates = 0

    def create(self, **kwargs):
        self.creates += 1
        if self.creates <= self.conflicts:
            raise heat_exc.HTTPConflict("The Stack (vnf-i1) already exists.")
        return {"stack": {"id": "new"}}

    def get(self, name_or_id, resolve_outputs=True):
        if self.status is None:
            raise heat_exc.HTTPNotFound()
        return types.SimpleNamespace(
            to_dict=lambda: {"id": "old", "stack_status": self.status}
        )


def _heat(stacks: Stacks, timeout: int = 60) -> tuple[heat.Heat, list]:
    conf = cfg.ConfigOpts()
    os_conf.register_opts(conf)
    conf([])
    conf.set_override("stack_timeout", timeout, group="openstack")
    slept: list[float] = []
    h = heat.Heat.__new__(heat.Heat)
    h.client = types.SimpleNamespace(stacks=stacks)
    h.conf = conf
    h.vim = "VIM vim1"
    h.check_cancel = lambda: None
    h.sleep = slept.append
    h.waited = 0.0
    h._refs = {}
    return h, slept


@pytest.mark.parametrize(
    "status", ["DELETE_COMPLETE", "DELETE_IN_PROGRESS", None]
)
def test_create_waits_for_the_name_of_a_deleted_stack(status):
    stacks = Stacks(conflicts=3, status=status)
    h, slept = _heat(stacks)
    assert h.create("vnf-i1", {}, {}, {}) == "new"
    assert stacks.creates == 4
    assert len(slept) == 3
    assert slept[1] > slept[0]  # backs off


def test_a_live_stack_of_that_name_is_a_conflict():
    stacks = Stacks(conflicts=1, status="CREATE_COMPLETE")
    h, slept = _heat(stacks)
    with pytest.raises(errors.VimError) as err:
        h.create("vnf-i1", {}, {}, {})
    # Worded by us: what, which VIM, the status and Heat's own message.
    assert err.value.detail == (
        "Heat stack create on VIM vim1 failed: the VIM answered HTTP 409: "
        "The Stack (vnf-i1) already exists."
    )
    assert stacks.creates == 1
    assert not slept


def test_a_name_never_released_times_out(monkeypatch):
    stacks = Stacks(conflicts=10**6, status="DELETE_COMPLETE")
    h, _ = _heat(stacks, timeout=1)
    clock = iter(range(0, 10**6, 1))
    monkeypatch.setattr(heat.time, "monotonic", lambda: next(clock))
    with pytest.raises(errors.StackTimeout):
        h.create("vnf-i1", {}, {}, {})
