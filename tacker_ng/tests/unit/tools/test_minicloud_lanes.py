"""minicloud lanes: topology expansion, reset scopes, lane scheduling."""

import importlib.util
import sys
from pathlib import Path

import pytest

from tacker_ng.tests.functional import lanes

TOOL_DIR = Path(__file__).resolve().parents[4] / "tools" / "minicloud"
sys.path.append(str(TOOL_DIR))
from mclib import MiniCloudError, topology  # noqa: E402


def _cleanup():
    if "minicloud_cleanup" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "minicloud_cleanup", TOOL_DIR / "cleanup.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules["minicloud_cleanup"] = module
        spec.loader.exec_module(module)
    return sys.modules["minicloud_cleanup"]


CAP = {"vcpus": 4, "ram_mb": 8192, "disk_gb": 80}
ONE_LANE = {
    "zones": {
        "AZ-1": {"az1-cmp1": CAP, "az1-cmp2": CAP},
        "AZ-2": {"az2-cmp1": CAP},
    }
}


def test_lanes_copy_zones_and_hosts_under_their_own_names(monkeypatch):
    monkeypatch.delenv("MINICLOUD_LANES", raising=False)
    topo = topology.expand(topology.validate({**ONE_LANE, "lanes": 3}))
    assert list(topo["zones"]) == [
        "AZ-1", "AZ-2", "L1-AZ-1", "L1-AZ-2", "L2-AZ-1", "L2-AZ-2",
    ]  # fmt: skip
    assert set(topo["zones"]["L2-AZ-1"]) == {"l2-az1-cmp1", "l2-az1-cmp2"}
    lane0, lane1, _ = topo["lanes"]
    assert lane0["zones"] == {"AZ-1": "AZ-1", "AZ-2": "AZ-2"}
    assert lane1["zones"] == {"AZ-1": "L1-AZ-1", "AZ-2": "L1-AZ-2"}
    assert lane1["hosts"]["az1-cmp2"] == "l1-az1-cmp2"
    # Every host once, every lane the same shape.
    hosts = [h for hs in topo["zones"].values() for h in hs]
    assert len(hosts) == len(set(hosts)) == 9
    assert topology.expand(topo) is topo  # idempotent


def test_lanes_default_to_one_and_the_environment_overrides(monkeypatch):
    monkeypatch.delenv("MINICLOUD_LANES", raising=False)
    assert topology.validate(ONE_LANE)["lanes"] == 1
    monkeypatch.setenv("MINICLOUD_LANES", "2")
    topo = topology.expand(topology.validate({**ONE_LANE, "lanes": 3}))
    assert len(topo["lanes"]) == 2
    monkeypatch.setenv("MINICLOUD_LANES", "0")
    with pytest.raises(MiniCloudError, match="lanes"):
        topology.validate(ONE_LANE)


def _lane_state() -> dict:
    return {
        "index": 1,
        "name_prefix": "l1-",
        "zones": {"AZ-1": "L1-AZ-1"},
        "topology": {"AZ-1": {"l1-az1-cmp1": CAP}},
        "project_id": "p1",
        "admin_project_id": "a1",
        "network_id": "n1",
    }


def test_a_lane_scope_owns_its_projects_fillers_and_names_only():
    scope = _cleanup().Scope.of_lane(_lane_state())
    assert scope.owns_project("p1") and scope.owns_project("a1")
    assert not scope.owns_project("p2")
    assert scope.owns_filler("mc-filler-l1-az1-cmp1-0a1b2c3d")
    assert not scope.owns_filler("mc-filler-az1-cmp1-0a1b2c3d")
    assert not scope.owns_filler("l1-server")
    assert scope.named("l1-flavor") and not scope.named("l2-flavor")
    whole = _cleanup().Scope()
    assert whole.owns_project("anything") and whole.named("x")
    assert whole.owns_filler("mc-filler-any-host-1")


def test_poll_backs_off_and_gives_up(monkeypatch):
    cleanup = _cleanup()
    slept: list[float] = []
    now = [0.0]
    monkeypatch.setattr(cleanup.time, "sleep", slept.append)
    monkeypatch.setattr(cleanup.time, "monotonic", lambda: now[0])

    def never() -> bool:
        now[0] += 0.5
        return False

    assert cleanup.poll(never, timeout=3) is False
    assert slept[0] == 0.1 and slept == sorted(slept)
    assert max(slept) <= 1.0
    calls = iter([False, False, True])
    assert cleanup.poll(lambda: next(calls), timeout=3) is True


def test_units_are_modules_or_groups():
    assert lanes.unit_of("a/test_x.py::test_one") == "a/test_x.py"
    assert lanes.unit_of("a/test_x.py::C::test_one[p]") == "a/test_x.py"
    functional = "tacker_ng/tests/functional/"
    for nodeid in (
        f"{functional}reservation/test_reservation_vnf.py::test_a",
        f"{functional}reservation/test_reservation_minicloud.py::t[x]",
        f"{functional}osc/test_keystone_catalog.py::test_b",
    ):
        assert lanes.unit_of(nodeid) == "keystone-catalog"
    assert lanes.unit_of(f"{functional}osc/test_demo.py::t") == (
        f"{functional}osc/test_demo.py"
    )


def test_units_run_longest_first_unknown_ones_early():
    costs = {"short.py": 20.0, "long.py": 400.0, "mid.py": 150.0}
    got = lanes.order(["short.py", "mid.py", "new.py", "long.py"], costs)
    assert got == ["long.py", "new.py", "mid.py", "short.py"]
    assert lanes.order(["b", "a"], {}) == ["b", "a"]  # ties: as collected


def test_tests_of_a_split_module_are_units_of_their_own():
    (module,) = lanes.SPLIT
    one, two = f"{module}::test_one", f"{module}::test_two[p]"
    assert lanes.unit_of(one) == one
    assert lanes.unit_of(two) == two
    assert (lanes.Path(lanes.__file__).parents[3] / module).is_file()
