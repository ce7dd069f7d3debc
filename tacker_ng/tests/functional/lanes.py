"""pytest plugin: schedule minicloud tests onto lanes, longest first.

tools/run-functional.sh runs the minicloud tests with pytest-xdist, one
worker per lane of minicloud (worker ``gwN`` holds lane N, see
fixtures/minicloud.py). A work unit is a test module - its tests share
module-scoped deployments - or every module of a group of :data:`GROUPS`
(modules that share something cloud-wide and must not run at the same
time, e.g. Keystone catalog entries). The groups are listed here, not
marked with ``xdist_group``: that mark has no effect with pytest 9 (xdist
3.8 renames a node through an attribute pytest no longer reads).

xdist's own schedulers hand units out in collection order and prefetch
one more unit while two tests are still pending; on 2-3 lanes with units
of 20 s to 6 minutes that leaves one lane running a long module alone at
the end. This scheduler orders the units by their measured cost
(lane_costs.json: seconds per unit, from an earlier run; unknown units
count as long, so they start early) and gives a worker its next unit
only when its last test is about to run: longest-processing-time-first,
the classic makespan heuristic.

Two sessions side by side hand CPU to each other through two files:
``TACKER_NG_TEST_IDLE_FLAG=path`` makes this scheduler create ``path``
when its first worker runs out of work (a lane is free: its share of
the 2 cores too), and ``TACKER_NG_TEST_GATE=path`` makes it hold its
last worker idle until ``path`` exists (if it never does, the other
workers run every unit and the held one ends unused).
tools/run-functional.sh gates the services half's last worker on the
minicloud half's idle flag when TACKER_NG_TEST_SERVICE_GATED=1.

``TACKER_NG_LANE_COSTS=path`` makes the controller write the measured
cost of every unit of this run to ``path`` (merged into what is there).
``TACKER_NG_CPU_COSTS=path`` makes every test process (each xdist worker,
or the one pytest process) write the CPU seconds each module took - the
process itself and the children it reaped (the tacker-ng processes it
started) - to ``path.<worker>``: where the suite's CPU goes.
"""

from __future__ import annotations

import json
import os
import resource
from collections import defaultdict
from pathlib import Path

import pytest
from xdist.scheduler.loadgroup import LoadGroupScheduling

COSTS_FILE = Path(__file__).with_name("lane_costs.json")
#: Cost (s) of a unit lane_costs.json does not know: long enough to be
#: scheduled among the first.
UNKNOWN_COST = 300.0


def load_costs(path: Path = COSTS_FILE) -> dict[str, float]:
    """Unit -> seconds (empty when the file is missing or unreadable)."""
    try:
        return {k: float(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


#: Group name -> module paths (or folders, ending in "/") whose tests
#: run in one lane, one module after the other.
GROUPS = {
    # The reservation deployments register a "reservation" service in
    # minicloud's Keystone catalog (one per cloud), which the CLI tests
    # look up there too.
    "keystone-catalog": (
        "tacker_ng/tests/functional/reservation/",
        "tacker_ng/tests/functional/osc/test_keystone_catalog.py",
    ),
}


#: Modules whose tests are units of their own: independent stories whose
#: module-scoped fixtures are cheap (a package directory, an SSH key), so
#: that one long module does not hold one lane while the others end
#: (test_k8s_cluster_mgmt: 1,436 s in one lane of a 2,784 s lane run).
SPLIT = frozenset(
    {"tacker_ng/tests/functional/openstack/test_k8s_cluster_mgmt.py"}
)


def unit_of(nodeid: str) -> str:
    """The work unit of a test: its group in :data:`GROUPS`, itself (a
    module of :data:`SPLIT`), or its module."""
    module = nodeid.split("::", 1)[0]
    if module in SPLIT:
        return nodeid
    for group, members in GROUPS.items():
        for member in members:
            if module == member or (
                member.endswith("/") and module.startswith(member)
            ):
                return group
    return module


def order(units: list[str], costs: dict[str, float]) -> list[str]:
    """Units longest first (ties: collection order)."""
    position = {u: i for i, u in enumerate(units)}
    return sorted(
        units, key=lambda u: (-costs.get(u, UNKNOWN_COST), position[u])
    )


class LaneScheduling(LoadGroupScheduling):
    """LoadGroupScheduling with LPT order and no early prefetch."""

    def __init__(self, config: pytest.Config, log=None) -> None:
        super().__init__(config, log)
        self.costs = load_costs()
        gate = os.environ.get("TACKER_NG_TEST_GATE")
        self.gate = Path(gate) if gate else None
        idle = os.environ.get("TACKER_NG_TEST_IDLE_FLAG")
        self.idle_flag = Path(idle) if idle else None

    def _held(self, node) -> bool:
        """The last worker (gwN, N highest) waits for the gate file."""
        if self.gate is None or len(self.nodes) < 2:
            return False
        if self.gate.exists():
            self.gate = None  # open for good
            return False
        last = max(self.nodes, key=lambda n: int(n.gateway.id[2:]))
        return node is last

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def schedule(self) -> None:
        """As LoadScopeScheduling.schedule, with the work queue in LPT
        order."""
        if self.collection is None and self.collection_is_completed:
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            collection = list(next(iter(self.registered_collections.values())))
            units: dict[str, dict[str, bool]] = {}
            for nodeid in collection:
                units.setdefault(unit_of(nodeid), {})[nodeid] = False
            for unit in order(list(units), self.costs):
                self.workqueue[unit] = units[unit]
            # LoadScopeScheduling.schedule builds its own queue only when
            # self.collection is None; it is set now and the queue kept.
            self.collection = collection
            if not collection:
                return
            extra = len(self.nodes) - len(self.workqueue)
            for _ in range(max(extra, 0)):
                unused, _work = self.assigned_work.popitem()
                unused.shutdown()
            for node in self.nodes:
                if self.workqueue and not self._held(node):
                    self._assign_work_unit(node)
            for node in self.nodes:
                self._reschedule(node)
            if not self.workqueue:
                for node in self.nodes:
                    node.shutdown()
            return
        super().schedule()

    def _reschedule(self, node) -> None:
        """Next unit only when the node's last test waits for it (a
        worker runs a test once it knows the next one)."""
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        if self._held(node) or self._pending_of(self.assigned_work[node]) > 1:
            return
        self._assign_work_unit(node)

    def mark_test_complete(self, node, item_index, duration=0) -> None:
        """As LoadScopeScheduling's, then raise the idle flag if the node
        ran its last test, and wake a held worker whose gate opened (or
        end it when no work is left)."""
        super().mark_test_complete(node, item_index, duration)
        done = not self._pending_of(self.assigned_work[node])
        if done and not self.workqueue and self.idle_flag is not None:
            self.idle_flag.touch()
            self.idle_flag = None
        for other in self.nodes:
            if other is not node and not self._pending_of(
                self.assigned_work.get(other, {})
            ):
                self._reschedule(other)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """LaneScheduling for runs started with ``--dist loadgroup``."""
    if config.getvalue("dist") == "loadgroup":
        return LaneScheduling(config, log)
    return None


class CostRecorder:
    """Sums setup + call + teardown time per unit on the controller."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[unit_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self) -> None:
        merged = load_costs(self.path)
        merged.update({u: round(s, 1) for u, s in self.seconds.items()})
        self.path.write_text(
            json.dumps(dict(sorted(merged.items())), indent=1)
        )


def _cpu() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


class CpuRecorder:
    """CPU seconds per module in this test process (self + reaped
    children), fixture setup and teardown included."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = defaultdict(float)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        before = _cpu()
        yield
        self.seconds[unit_of(item.nodeid)] += _cpu() - before

    def pytest_sessionfinish(self) -> None:
        # Merged: the services and the minicloud sessions both have a gw0.
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        path = Path(f"{self.path}.{worker}")
        out = load_costs(path)
        out.update({u: round(s, 1) for u, s in self.seconds.items()})
        path.write_text(json.dumps(dict(sorted(out.items())), indent=1))


def pytest_configure(config: pytest.Config) -> None:
    """Record unit costs when TACKER_NG_LANE_COSTS names a file (on the
    controller only: workers' reports reach it), CPU costs when
    TACKER_NG_CPU_COSTS does (in every test process)."""
    path = os.environ.get("TACKER_NG_LANE_COSTS")
    if path and not os.environ.get("PYTEST_XDIST_WORKER"):
        config.pluginmanager.register(CostRecorder(Path(path)), "lane-costs")
    cpu = os.environ.get("TACKER_NG_CPU_COSTS")
    if cpu and (
        os.environ.get("PYTEST_XDIST_WORKER")
        or not config.getvalue("numprocesses")
    ):
        config.pluginmanager.register(CpuRecorder(Path(cpu)), "cpu-costs")
