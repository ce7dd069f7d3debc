"""Benchmark: LCM throughput with 1, 2 and 4 conductors.

``--pairs`` instantiate + terminate pairs (the issue's figure: 2,000)
through tacker-ng-api (2 workers) and N tacker-ng-conductor processes on
RabbitMQ and MariaDB, each VNF on the test-only fake VIM whose every
call blocks ``--vim-wait`` seconds (``extra.call_wait``: an I/O wait, as
a real VIM's round trip, no CPU). ``--clients`` NFVO threads each run
pairs back to back (POST instantiate, wait COMPLETED, POST terminate,
wait COMPLETED). Per conductor count, one JSON figure set:

* ``ops_per_s``: completed operations per second of wall time;
* ``op_s``: p50/p99 of an op occ's duration (startTime to COMPLETED, as
  the database recorded them);
* ``sql_statements_per_op``: statements sent by every tacker-ng process
  (API workers and conductors, periodic jobs included) over the run,
  divided by the operations: counted in-process by a ``sitecustomize``
  that only this benchmark puts on the processes' path;
* ``conductor_cpu_ms_per_op`` / ``api_cpu_ms_per_op``: CPU seconds
  (utime + stime) of the conductors / the API over the run, per op;
* ``lost``: op occs not COMPLETED at the end (must be 0);
* the load average before and after.

    python tools/bench/lcm_throughput.py [--pairs 2000] [--conductors 1,2,4]
        [--vim-wait 0.5] [--clients 64] [--pool 64]

``--pool`` sets ``executor_thread_pool_size`` (the RPC executor's
threads per conductor): the concurrency the throughput should follow.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from concurrent import futures
from pathlib import Path

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

import requests  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from tacker_ng.db import models  # noqa: E402
from tacker_ng.db.types import utcnow  # noqa: E402
from tacker_ng.tests.functional import lcm_fixtures  # noqa: E402
from tools.bench import cpu  # noqa: E402

#: Counts every statement a process sends; flushed to a file per pid.
SITECUSTOMIZE = """
import os, time
from sqlalchemy import event
from sqlalchemy.engine import Engine

_DIR = os.environ["TACKER_NG_BENCH_SQL_DIR"]
_state = {"n": 0, "t": 0.0}


@event.listens_for(Engine, "before_cursor_execute")
def _count(*args, **kwargs):
    _state["n"] += 1
    now = time.monotonic()
    if now - _state["t"] > 0.5:
        _state["t"] = now
        with open(os.path.join(_DIR, str(os.getpid())), "w") as f:
            f.write(str(_state["n"]))
"""


def _statements(directory: Path) -> int:
    return sum(int(p.read_text() or 0) for p in directory.iterdir())


def _seed(sql_url: str, package: dict, count: int) -> list[str]:
    ids = [str(uuid.uuid4()) for _ in range(count)]
    engine = sa.create_engine(sql_url)
    now = utcnow()
    with engine.begin() as conn:
        conn.execute(
            sa.insert(models.VnfInstance.__table__),
            [
                {
                    "id": i,
                    "vnfd_id": package["vnfd_id"],
                    "vnf_provider": package["vnf_provider"],
                    "vnf_product_name": package["vnf_product_name"],
                    "vnf_software_version": package["vnf_software_version"],
                    "vnfd_version": package["vnfd_version"],
                    "instantiation_state": "NOT_INSTANTIATED",
                    "vim_connection_info": None,
                    "project_id": "default",
                    "version": 1,
                    "created_at": now,
                }
                for i in ids
            ],
        )
    engine.dispose()
    return ids


class Watcher:
    """One thread reads the awaited op occs' states for every client (one
    SELECT per 50 ms, not one GET per waiting client)."""

    FINAL = ("COMPLETED", "FAILED_TEMP", "FAILED", "ROLLED_BACK")

    def __init__(self, sql_url: str) -> None:
        self.engine = sa.create_engine(sql_url)
        self.awaited: set[str] = set()
        self.done: dict[str, str] = {}
        self.cond = threading.Condition()
        self.stop = False
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        query = sa.text(
            "SELECT id, operation_state FROM vnf_lcm_op_occs "
            "WHERE id IN :ids AND operation_state IN :final"
        ).bindparams(
            sa.bindparam("ids", expanding=True),
            sa.bindparam("final", expanding=True),
        )
        while not self.stop:
            with self.cond:
                ids = list(self.awaited)
            if ids:
                with self.engine.connect() as conn:
                    rows = conn.execute(
                        query, {"ids": ids, "final": list(self.FINAL)}
                    ).all()
                with self.cond:
                    for occ_id, state in rows:
                        self.done[occ_id] = state
                        self.awaited.discard(occ_id)
                    self.cond.notify_all()
            time.sleep(0.05)

    def wait(self, occ_id: str, timeout: float = 600) -> str:
        deadline = time.monotonic() + timeout
        with self.cond:
            if occ_id not in self.done:
                self.awaited.add(occ_id)
            while occ_id not in self.done:
                if not self.cond.wait(deadline - time.monotonic()):
                    return "TIMEOUT"
            return self.done[occ_id]


def _one_count(args, conductors: int, tmp: Path) -> dict:
    sql_dir = tmp / "sql"
    sql_dir.mkdir()
    site = tmp / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    os.environ["TACKER_NG_BENCH_SQL_DIR"] = str(sql_dir)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(site), os.environ.get("PYTHONPATH")) if p
    )
    hosts = tuple(f"bench-{i}" for i in range(conductors))
    extra: dict = {"DEFAULT": {"debug": False}}
    if args.pool:
        extra["DEFAULT"]["executor_thread_pool_size"] = args.pool
    with lcm_fixtures.lcm_deployment(
        tmp, "mariadb", conductors=hosts, extra=extra
    ) as dep:
        ids = _seed(dep.sql_url, dep.package, args.pairs)
        vim = lcm_fixtures.fake_vim()
        vim["vim1"]["extra"]["call_wait"] = args.vim_wait
        watcher = Watcher(dep.sql_url)
        headers = {**dep.auth, "Version": "2.0.0"}
        session = threading.local()

        def post(instance_id: str, task: str, body: dict) -> str:
            if not hasattr(session, "s"):
                session.s = requests.Session()
            url = f"{dep.url}/vnflcm/v2/vnf_instances/{instance_id}/{task}"
            try:
                resp = session.s.post(
                    url, json=body, headers=headers, timeout=60
                )
            except requests.ConnectionError:
                # gunicorn closed an idle keep-alive connection as we sent
                # on it; sending again is safe (a second start of the same
                # task would be a 409: one operation per VNF).
                session.s = requests.Session()
                resp = session.s.post(
                    url, json=body, headers=headers, timeout=60
                )
            if resp.status_code != 202:
                raise RuntimeError(f"{task}: {resp.status_code} {resp.text}")
            return resp.headers["Location"].rsplit("/", 1)[1]

        errors: list[str] = []

        def pair(instance_id: str) -> list[str]:
            occs: list[str] = []
            for task, body in (
                (
                    "instantiate",
                    {"flavourId": "simple", "vimConnectionInfo": vim},
                ),
                ("terminate", {"terminationType": "FORCEFUL"}),
            ):
                try:
                    occ = post(instance_id, task, body)
                except (RuntimeError, requests.RequestException) as exc:
                    errors.append(str(exc)[:300])
                    break
                occs.append(occ)
                if watcher.wait(occ) != "COMPLETED":
                    break
            return occs

        time.sleep(1.5)
        load_before = os.getloadavg()
        statements = _statements(sql_dir)
        pids = [p.popen.pid for p in dep.conductors.values()]
        api_pid = dep.api.popen.pid
        cpu_c = sum(cpu.tree_seconds(pid) for pid in pids)
        cpu_a = cpu.tree_seconds(api_pid)
        t0 = time.monotonic()
        with futures.ThreadPoolExecutor(args.clients) as pool:
            occ_lists = list(pool.map(pair, ids))
        wall = time.monotonic() - t0
        cpu_c = sum(cpu.tree_seconds(pid) for pid in pids) - cpu_c
        cpu_a = cpu.tree_seconds(api_pid) - cpu_a
        time.sleep(1.5)
        statements = _statements(sql_dir) - statements
        load_after = os.getloadavg()
        watcher.stop = True
        occs = [o for group in occ_lists for o in group]
        engine = sa.create_engine(dep.sql_url)
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text(
                    "SELECT operation_state, start_time, state_entered_time "
                    "FROM vnf_lcm_op_occs"
                )
            ).all()
            failures = [
                dict(r._mapping)
                for r in conn.execute(
                    sa.text(
                        "SELECT id, operation, operation_state, error "
                        "FROM vnf_lcm_op_occs "
                        "WHERE operation_state <> 'COMPLETED' LIMIT 5"
                    )
                )
            ]
        engine.dispose()
        if failures:
            keep = Path(tempfile.mkdtemp(prefix="lcm-throughput-logs-"))
            for log in tmp.glob("*.log"):
                (keep / log.name).write_bytes(log.read_bytes())
            failures.append({"logs": str(keep)})
    completed = [r for r in rows if r[0] == "COMPLETED"]
    durations = sorted(
        (r[2] - r[1]).total_seconds() for r in completed if r[1] and r[2]
    )
    expected = 2 * args.pairs
    return {
        "conductors": conductors,
        "operations": len(occs),
        "completed": len(completed),
        "lost": expected - len(completed),
        "wall_s": round(wall, 1),
        "ops_per_s": round(len(completed) / wall, 2),
        "op_s": {
            "p50": round(statistics.median(durations), 3),
            "p99": round(durations[int(len(durations) * 0.99) - 1], 3),
        },
        "sql_statements_per_op": round(statements / max(len(occs), 1), 1),
        "conductor_cpu_ms_per_op": round(cpu_c * 1000 / max(len(occs), 1), 1),
        "api_cpu_ms_per_op": round(cpu_a * 1000 / max(len(occs), 1), 1),
        "failures": failures,
        "errors": errors,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--conductors", default="1,2,4")
    parser.add_argument("--vim-wait", type=float, default=0.5)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument(
        "--pool",
        type=int,
        default=None,
        help="executor_thread_pool_size (default: the option's default)",
    )
    args = parser.parse_args()
    runs = []
    for count in (int(c) for c in args.conductors.split(",")):
        with tempfile.TemporaryDirectory(prefix="tacker-ng-bench-") as tmp:
            runs.append(_one_count(args, count, Path(tmp)))
    base = runs[0]["ops_per_s"]
    for run in runs:
        run["speedup"] = round(run["ops_per_s"] / base, 2) if base else None
    print(
        json.dumps(
            {
                "benchmark": "LCM throughput (instantiate + terminate)",
                "database": "MariaDB",
                "bus": "RabbitMQ",
                "api_workers": 2,
                "pairs": args.pairs,
                "vim_wait_s": args.vim_wait,
                "clients": args.clients,
                "executor_thread_pool_size": args.pool or "default",
                "runs": runs,
            }
        )
    )


if __name__ == "__main__":
    main()
