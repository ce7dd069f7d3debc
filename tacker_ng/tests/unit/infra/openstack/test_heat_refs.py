"""How the driver addresses a stack it has seen: ``<name>/<id>``, which
Heat serves at once (a bare id costs a redirect: a lookup in the engine
and a second round trip), and shown without its outputs."""

import types

from oslo_config import cfg

from tacker_ng.conf import openstack as os_conf
from tacker_ng.infra.openstack import heat

STACK = {
    "id": "s-1",
    "stack_name": "vnf-i1",
    "stack_status": "CREATE_COMPLETE",
}


class Recorder:
    """Every heatclient manager call as (manager.method, stack ref, kwargs)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict]] = []

    def manager(self, name: str):
        recorder = self

        class Manager:
            def __getattr__(self, method):
                def call(stack_ref, *args, **kwargs):
                    recorder.calls.append(
                        (f"{name}.{method}", stack_ref, kwargs)
                    )
                    if (name, method) == ("stacks", "get"):
                        return types.SimpleNamespace(
                            to_dict=lambda: dict(STACK)
                        )
                    return []

                return call

        return Manager()


def _heat() -> tuple[heat.Heat, Recorder]:
    conf = cfg.ConfigOpts()
    os_conf.register_opts(conf)
    conf([])
    rec = Recorder()
    h = heat.Heat.__new__(heat.Heat)
    h.client = types.SimpleNamespace(
        stacks=rec.manager("stacks"),
        resources=rec.manager("resources"),
        events=rec.manager("events"),
    )
    h.conf = conf
    h.check_cancel = lambda: None
    h.sleep = lambda _: None
    h.waited = 0.0
    h.last_seen_at = 0.0
    h._refs = {}
    return h, rec


def test_an_unseen_stack_is_asked_for_by_what_the_caller_gave():
    h, rec = _heat()
    h.resources("s-1")
    assert rec.calls == [("resources.list", "s-1", {"nested_depth": 1})]


def test_a_seen_stack_is_addressed_by_name_and_id_and_shown_without_outputs():
    h, rec = _heat()
    assert h.wait("s-1")["stack_status"] == "CREATE_COMPLETE"
    h.wait("s-1")
    h.resources("s-1", depth=2)
    h.events_since("s-1", None)
    h.last_event_id("s-1")
    h.mark_unhealthy("s-1", "VDU1", "gone")
    h.update("s-1", {}, {}, {})
    refs = [ref for _, ref, _ in rec.calls]
    # The first show has only the id; everything after it the full ref.
    assert refs == ["s-1"] + ["vnf-i1/s-1"] * 6
    shows = [kw for name, _, kw in rec.calls if name == "stacks.get"]
    assert shows == [{"resolve_outputs": False}] * 2


def test_another_stack_keeps_its_own_ref():
    h, rec = _heat()
    h.find("s-1")
    h.resources("s-2")
    assert rec.calls[-1][1] == "s-2"
