"""Benchmark: a conductor killed mid-instantiate, another one resumes it.

API + two conductors on RabbitMQ and MariaDB (or PostgreSQL) with the
Redis jobboard, the test fake VIM (its driver works ``--work`` seconds).
Each run instantiates one VNF undisturbed (the baseline), then another
whose conductor is killed (SIGKILL) while the driver works. Prints one
JSON object: seconds from the kill until the other conductor took the
op occ over (``resume_s``; bounded by ``claim_timeout``) and how much
longer the killed op took than the baseline (``delay_s``).

    python tools/bench/failover.py [--runs 3] [--claim-timeout 10]
        [--work 4] [--backend mariadb]
"""

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

from tacker_ng.tests.functional import lcm_fixtures  # noqa: E402
from tacker_ng.tests.functional import processes as procs  # noqa: E402


def _row(engine, occ_id: str) -> tuple[str | None, dict]:
    with engine.connect() as conn:
        row = conn.execute(
            sa.text(
                "SELECT conductor_host, progress FROM vnf_lcm_op_occs "
                "WHERE id = :id"
            ),
            {"id": occ_id},
        ).one()
    progress = row.progress
    if isinstance(progress, str):
        progress = json.loads(progress)
    return row.conductor_host, progress or {}


def _instance(dep, client) -> str:
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": dep.package["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def _instantiate(client, inst_id: str, work: float) -> tuple[str, float]:
    body = {
        "flavourId": "simple",
        "additionalParams": {"fake": {"sleep": work}},
    }
    return client.start(inst_id, "instantiate", body), time.monotonic()


def one_run(backend: str, claim_timeout: int, work: float) -> dict:
    """One deployment: a baseline instantiate, then a killed one."""
    tmp = Path(tempfile.mkdtemp(prefix="tacker-ng-failover-"))
    extra = {
        "conductor": {
            "jobboard_url": "redis://127.0.0.1:6379/0",
            "claim_timeout": claim_timeout,
        }
    }
    with lcm_fixtures.lcm_deployment(tmp, backend, extra=extra) as dep:
        client = dep.client()
        engine = sa.create_engine(dep.sql_url)
        try:
            occ_id, started = _instantiate(
                client, _instance(dep, client), work
            )
            client.wait(occ_id, ("COMPLETED",), timeout=120)
            baseline = time.monotonic() - started

            occ_id, started = _instantiate(
                client, _instance(dep, client), work
            )
            owner = procs.wait_for(
                lambda: (
                    (r := _row(engine, occ_id))[0]
                    and "hook:instantiate_start" in r[1].get("steps", [])
                    and r[0]
                ),
                60,
                "the driver step",
                interval=0.05,
            )
            survivor = next(h for h in dep.conductors if h != owner)
            os.killpg(dep.conductors[owner].popen.pid, signal.SIGKILL)
            killed = time.monotonic()
            procs.wait_for(
                lambda: _row(engine, occ_id)[0] == survivor,
                claim_timeout + 60,
                "the take-over",
                interval=0.05,
            )
            resumed = time.monotonic() - killed
            occ = client.wait(
                occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=120
            )
            total = time.monotonic() - started
        finally:
            engine.dispose()
    return {
        "state": occ["operationState"],
        "resume_s": round(resumed, 2),
        "baseline_total_s": round(baseline, 2),
        "killed_total_s": round(total, 2),
        "delay_s": round(total - baseline, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--claim-timeout", type=int, default=10)
    parser.add_argument("--work", type=float, default=4.0)
    parser.add_argument(
        "--backend", choices=["mariadb", "postgresql"], default="mariadb"
    )
    args = parser.parse_args()
    runs = [
        one_run(args.backend, args.claim_timeout, args.work)
        for _ in range(args.runs)
    ]
    resume = [r["resume_s"] for r in runs]
    delay = [r["delay_s"] for r in runs]
    print(
        json.dumps(
            {
                "benchmark": "conductor failover (kill -9 mid-instantiate)",
                "backend": args.backend,
                "claim_timeout_s": args.claim_timeout,
                "driver_work_s": args.work,
                "completed": sum(r["state"] == "COMPLETED" for r in runs),
                "runs": runs,
                "resume_s_median": statistics.median(resume),
                "resume_s_max": max(resume),
                "delay_s_median": statistics.median(delay),
            }
        )
    )


if __name__ == "__main__":
    main()
