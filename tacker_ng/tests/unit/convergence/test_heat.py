"""The Heat stack lister: one paged ``status=FAILED`` listing per VIM,
``global_tenant`` first, own project when forbidden. Heat's answers are
stack list bodies shaped as Heat's API reference gives them (GET
/v1/{project}/stacks), served by a stand-in of heatclient's manager."""

import pytest
from heatclient import exc as heat_exc
from heatclient.v1 import stacks as heat_stacks

from tacker_ng.convergence import heat
from tacker_ng.infra.openstack import errors


def _body(n, status="UPDATE_FAILED"):
    return {
        "id": f"00000000-0000-0000-0000-{n:012d}",
        "stack_name": f"vnf-inst{n}",
        "stack_status": status,
        "stack_status_reason": "Resource UPDATE failed: Conflict: resources"
        ".VDU1-0: Port 5b1c is still in use",
        "creation_time": "2026-11-25T20:00:00Z",
        "updated_time": "2026-11-25T21:00:00Z",
        "deletion_time": None,
        "description": "tacker-ng VNF",
        "parent": None,
        "stack_owner": "admin",
        "stack_user_project_id": "3c3d",
        "tags": None,
        "links": [{"href": "http://heat/v1/p/stacks/x", "rel": "self"}],
    }


class Stacks:
    """heatclient's StackManager.list over recorded bodies."""

    def __init__(self, bodies, forbid_global=False):
        self.bodies = bodies
        self.forbid_global = forbid_global
        self.calls = []

    def list(self, **params):
        self.calls.append(params)
        if self.forbid_global and params.get("global_tenant"):
            raise heat_exc.Forbidden()
        assert params["filters"] == {"status": "FAILED"}
        items = [
            b for b in self.bodies if b["stack_status"].endswith("_FAILED")
        ]
        if params.get("marker"):
            ids = [b["id"] for b in items]
            items = items[ids.index(params["marker"]) + 1 :]
        return iter(
            heat_stacks.Stack(None, b, loaded=True)
            for b in items[: params["limit"]]
        )


def _lister(stacks, page_size=2):
    lister = heat.HeatLister.__new__(heat.HeatLister)
    lister.client = type("C", (), {"stacks": stacks})()
    lister.page_size = page_size
    lister.calls = 0
    lister.key = f"vim-{id(stacks)}"
    return lister


def test_failed_stacks_paged():
    bodies = [_body(n) for n in range(5)] + [_body(9, "UPDATE_COMPLETE")]
    stacks = Stacks(bodies)
    lister = _lister(stacks)
    got = lister.failed()
    assert sorted(got) == [f"vnf-inst{n}" for n in range(5)]
    assert got["vnf-inst0"].status == "UPDATE_FAILED"
    assert "still in use" in got["vnf-inst0"].reason
    # 5 failed stacks, pages of 2: 3 calls, markers chained
    assert lister.calls == 3
    assert [c.get("marker") for c in stacks.calls] == [
        None,
        bodies[1]["id"],
        bodies[3]["id"],
    ]
    assert all(c["global_tenant"] for c in stacks.calls)


def test_full_last_page_costs_one_more_call():
    lister = _lister(Stacks([_body(0), _body(1)]))
    assert len(lister.failed()) == 2 and lister.calls == 2


def test_own_project_when_global_tenant_forbidden():
    stacks = Stacks([_body(0)], forbid_global=True)
    lister = _lister(stacks)
    assert list(lister.failed()) == ["vnf-inst0"]
    assert "global_tenant" not in stacks.calls[-1]
    assert len(stacks.calls) == 2
    # not asked again for this VIM: one call per page from now on
    lister.calls = 0
    assert list(lister.failed()) == ["vnf-inst0"]
    assert lister.calls == 1 and len(stacks.calls) == 3


def test_heat_error_is_a_vim_error():
    class Broken:
        def list(self, **params):
            raise heat_exc.HTTPInternalServerError()

    with pytest.raises(errors.VimError):
        _lister(Broken()).failed()


def test_stack_name_is_the_drivers():
    from tacker_ng.infra.openstack.driver import OpenStackDriver

    task = type("T", (), {"instance": {"id": "abc"}})()
    assert heat.stack_name("abc") == OpenStackDriver.stack_name(task)


def test_vim_without_heat_has_no_stacks_to_judge():
    from keystoneauth1 import exceptions as ks_exc

    class NoHeat:
        def list(self, **params):
            raise ks_exc.EndpointNotFound()

    assert _lister(NoHeat()).failed() is None


def test_no_heat_is_remembered(monkeypatch):
    from keystoneauth1 import exceptions as ks_exc

    made = []

    class NoHeat:
        def __init__(self, vim):
            made.append(vim)
            self.calls = 1

        def failed(self):
            raise AssertionError("not reached")

    vim = {"interfaceInfo": {"endpoint": "http://ks-noheat/v3"}}
    lister = _lister(
        type(
            "S",
            (),
            {
                "list": lambda self, **p: (_ for _ in ()).throw(
                    ks_exc.EndpointNotFound()
                )
            },
        )()
    )
    lister.key = heat.shard.vim_key(vim)
    assert lister.failed() is None and lister.calls == 0
    monkeypatch.setattr(heat, "HeatLister", NoHeat)
    assert heat.heat_lister(vim) == (None, 0) and made == []
    monkeypatch.setitem(heat._NO_HEAT, lister.key, 0.0)  # expired
    with pytest.raises(AssertionError, match="not reached"):
        heat.heat_lister(vim)  # asked again once the memo expired
