"""Benchmark: the one database statement behind each ``/metrics`` scrape.

Fills a real database with ``--op-occs`` op occurrences (spread over
operations and states, on ``--op-occs / 10`` VNF instances), ``--pending``
undelivered notifications beside ten times as many delivered ones, and
``--conductors`` conductor rows (op occs started evenly over ``--days``
days), then times
:func:`tacker_ng.db.fleet_metrics.snapshot` (best and median of
``--repeat``). Prints one JSON object.

    python tools/bench/metrics_query.py [--backend sqlite|mariadb|postgresql]
        [--op-occs 100000] [--pending 1000] [--conductors 10]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

import sqlalchemy as sa  # noqa: E402

from tacker_ng.db import fleet_metrics, models  # noqa: E402
from tacker_ng.db.types import utcnow  # noqa: E402
from tacker_ng.tests import fixtures  # noqa: E402
from tools.bench.observer import _database  # noqa: E402

STATES = ("COMPLETED",) * 8 + ("FAILED", "ROLLED_BACK", "FAILED_TEMP")
OPS = ("INSTANTIATE", "SCALE", "HEAL", "TERMINATE", "CHANGE_EXT_CONN")


def _fill(
    engine, occs: int, pending: int, conductors: int, days: float
) -> None:
    now = utcnow()
    rng = random.Random(1)
    instances = [str(uuid.uuid4()) for _ in range(max(1, occs // 10))]
    with engine.begin() as conn:
        conn.execute(
            sa.insert(models.VnfInstance),
            [
                {"id": i, "vnfd_id": "d", "vnf_provider": "p",
                 "vnf_product_name": "n", "vnf_software_version": "1",
                 "vnfd_version": "1", "instantiation_state": "INSTANTIATED",
                 "created_at": now}
                for i in instances
            ],
        )  # fmt: skip
        for start in range(0, occs, 5000):
            rows = []
            for _ in range(start, min(occs, start + 5000)):
                began = now - datetime.timedelta(days=rng.random() * days)
                rows.append(
                    {"id": str(uuid.uuid4()),
                     "vnf_instance_id": rng.choice(instances),
                     "operation": rng.choice(OPS),
                     "operation_state": rng.choice(STATES),
                     "start_time": began,
                     "state_entered_time": began + datetime.timedelta(
                         seconds=rng.expovariate(1 / 60)),
                     "created_at": began}
                )  # fmt: skip
            conn.execute(sa.insert(models.VnfLcmOpOcc), rows)
        conn.execute(
            sa.insert(models.LcmNotification),
            [
                {"subscription_id": "s", "notification_type": "t",
                 "payload": {}, "next_attempt_at": now, "created_at": now,
                 "delivered_at": None if n < pending else now}
                for n in range(pending * 11)
            ],
        )  # fmt: skip
        conn.execute(
            sa.insert(models.Conductor),
            [
                {"hostname": f"cond-{n}", "online": True, "rpc_version": "1",
                 "started_at": now, "heartbeat_at": now, "created_at": now,
                 "observe_cycle_seconds": 1.5, "jobboard_jobs": 3,
                 "jobboard_unclaimed": 0}
                for n in range(conductors)
            ],
        )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--backend", choices=["sqlite", "mariadb", "postgresql"],
        default="sqlite",
    )  # fmt: skip
    parser.add_argument("--op-occs", type=int, default=100000)
    parser.add_argument("--pending", type=int, default=1000)
    parser.add_argument("--conductors", type=int, default=10)
    parser.add_argument(
        "--days", type=float, default=365.0,
        help="op occs started evenly over this many days back",
    )  # fmt: skip
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        fixtures.config(tmp),
        _database(args.backend, tmp) as engine,
    ):
        _fill(engine, args.op_occs, args.pending, args.conductors, args.days)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            snap = fleet_metrics.snapshot(utcnow())
            times.append(time.perf_counter() - start)
        print(
            json.dumps(
                {
                    "backend": args.backend,
                    "op_occs": args.op_occs,
                    "pending": args.pending,
                    "conductors": args.conductors,
                    "days": args.days,
                    "groups": len(snap.op_occs),
                    "query_ms_best": round(min(times) * 1000, 2),
                    "query_ms_median": round(
                        statistics.median(times) * 1000, 2
                    ),
                }
            )
        )


if __name__ == "__main__":
    main()
