"""Benchmark: one PM collection pass for a fleet, on a real Prometheus.

``--vnfs`` VNF instances (INSTANTIATED) of ``--vnfcs`` VNFCs each; every
VNFC is a target of a real Prometheus (Debian's, scraping the test
exporter, one path per VNFC, every ``--scrape`` seconds); one PM job per
VNF asking for the 4 compute metrics (mean CPU, memory, disk and peak
CPU) with a collection and reporting period of ``--period`` seconds, and
one threshold per VNF on mean CPU, all due. Then times ONE pass of the
conductor's collector (:class:`tacker_ng.pm.collector.Collector`): what
a conductor does once per period. Prints one JSON object: the pass's
wall time, its CPU seconds (this process: queries' JSON, report rows),
Prometheus's CPU seconds during the pass, Prometheus queries sent,
reports and report entries written, threshold values judged; and the
cost of writing every VNF's service discovery file
(:mod:`tacker_ng.pm.discovery`).

    python tools/bench/pm.py [--vnfs 1000] [--vnfcs 4] [--period 60]
        [--scrape 15] [--backend sqlite|mariadb|postgresql]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
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

from tacker_ng.convergence import drift, scrape_targets  # noqa: E402
from tacker_ng.convergence.desired import DesiredVnfc  # noqa: E402
from tacker_ng.db import models, models_pm  # noqa: E402
from tacker_ng.pm import collector, discovery, shards  # noqa: E402
from tacker_ng.pm.prometheus import Prometheus  # noqa: E402
from tacker_ng.tests import fixtures  # noqa: E402
from tacker_ng.tests.functional.fixtures import prometheus  # noqa: E402
from tools.bench.observer import _database  # noqa: E402
from tools.simcloud.exporter import client as exporter_client  # noqa: E402

METRICS = [
    "VCpuUsageMeanVnf",
    "VMemoryUsageMeanVnf",
    "VDiskUsageMeanVnf",
    "VCpuUsagePeakVnf",
]


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _fill(engine, vnf_ids: list[str], period: int, now) -> None:
    created = now - datetime.timedelta(seconds=period)
    with engine.begin() as conn:
        conn.execute(
            sa.insert(models.VnfInstance),
            [
                {"id": i, "vnfd_id": "d", "vnf_provider": "p",
                 "vnf_product_name": "n", "vnf_software_version": "1",
                 "vnfd_version": "1", "instantiation_state": "INSTANTIATED",
                 "created_at": created}
                for i in vnf_ids
            ],
        )  # fmt: skip
        jobs, thresholds = [], []
        for vnf_id in vnf_ids:
            job_id, th_id = str(uuid.uuid4()), str(uuid.uuid4())
            jobs.append(
                {"id": job_id, "object_type": "Vnf",
                 "object_instance_ids": [vnf_id],
                 "criteria": {"performanceMetric": METRICS,
                              "collectionPeriod": period,
                              "reportingPeriod": period},
                 "callback_uri": "http://127.0.0.1:9/pm",
                 "project_id": "bench", "shard": shards.shard_of(job_id),
                 "next_report_at": now, "created_at": created}
            )  # fmt: skip
            thresholds.append(
                {"id": th_id, "object_type": "Vnf",
                 "object_instance_id": vnf_id,
                 "criteria": {"performanceMetric": "VCpuUsageMeanVnf",
                              "thresholdType": "SIMPLE",
                              "simpleThresholdDetails": {
                                  "thresholdValue": 90, "hysteresis": 2}},
                 "callback_uri": "http://127.0.0.1:9/th",
                 "project_id": "bench", "shard": shards.shard_of(th_id),
                 "next_check_at": now, "created_at": created}
            )  # fmt: skip
        conn.execute(sa.insert(models_pm.PmJob), jobs)
        conn.execute(sa.insert(models_pm.PmThreshold), thresholds)


def _targets(exporter, vnf_ids: list[str], vnfcs: int) -> list[dict]:
    netloc = exporter.url.split("://", 1)[1]
    return [
        {
            "targets": [netloc],
            "labels": {
                "vnfInstanceId": vnf_id,
                "vnfcId": f"vnfc-{n * vnfcs + k}",
                "__metrics_path__": f"/vnfcs/vnfc-{n * vnfcs + k}/metrics",
            },
        }
        for n, vnf_id in enumerate(vnf_ids)
        for k in range(vnfcs)
    ]


def _wait_scraped(prom, count: int, samples: int, timeout: float) -> float:
    query = (
        "count(count_over_time(node_memory_MemTotal_bytes"
        f'{{job="bench"}}[10m]) >= {samples})'
    )
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if (prom.value(query) or 0) >= count:
            return time.monotonic() - start
        time.sleep(1)
    raise SystemExit(f"Prometheus did not scrape {count} targets in time")


def _discovery_cost(tmp: str, vnf_ids: list[str], vnfcs: int) -> dict:
    files = discovery.TargetFiles(os.path.join(tmp, "sd"))
    judged = []
    for n, vnf_id in enumerate(vnf_ids):
        for k in range(vnfcs):
            address = f"10.{n // 250}.{n % 250}.{k + 2}"
            judged.append(
                drift.Observation(
                    DesiredVnfc(vnf_id, f"c{k}", "VDU1", None, f"s{k}"),
                    drift.ObservedServer(
                        f"s{k}", "ACTIVE",
                        addresses=(("net", address, 4, "fixed"),),
                    ),
                    True,
                    None,
                )
            )  # fmt: skip
    vim = {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}
    out = {}
    for label in ("first_write", "unchanged"):
        cpu, wall = time.process_time(), time.perf_counter()
        changed = scrape_targets.publish(files, vim, vnf_ids, judged)
        out[f"discovery_{label}_ms"] = round(
            (time.perf_counter() - wall) * 1000, 1
        )
        out[f"discovery_{label}_cpu_ms"] = round(
            (time.process_time() - cpu) * 1000, 1
        )
        out[f"discovery_{label}_files_changed"] = changed
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vnfs", type=int, default=1000)
    parser.add_argument("--vnfcs", type=int, default=4)
    parser.add_argument("--period", type=int, default=60)
    parser.add_argument("--scrape", type=int, default=15)
    parser.add_argument(
        "--backend", choices=["sqlite", "mariadb", "postgresql"],
        default="sqlite",
    )  # fmt: skip
    parser.add_argument(
        "--profile", metavar="FILE", help="write the pass's cProfile stats"
    )
    args = parser.parse_args()
    vnf_ids = [str(uuid.uuid4()) for _ in range(args.vnfs)]
    total = args.vnfs * args.vnfcs
    with (
        tempfile.TemporaryDirectory() as tmp,
        fixtures.config(tmp) as conf,
        _database(args.backend, tmp) as engine,
        exporter_client.running("--vnfcs", str(total)) as exporter,
        prometheus.running() as prom,
    ):
        prom.add_job(
            "bench",
            scrape_interval=f"{args.scrape}s",
            scrape_timeout=f"{min(args.scrape, 10)}s",
        )
        prom.write_targets(
            "fleet", _targets(exporter, vnf_ids, args.vnfcs), job="bench"
        )
        # rate() needs two samples in a collection period; three to be
        # safe, and every target scraped that often.
        warm = _wait_scraped(prom, total, 3, args.scrape * 6 + 120)
        # Due at the next multiple of the period (the collector's grid):
        # its collection window then holds samples of every target.
        grid = (int(time.time()) // args.period + 1) * args.period
        time.sleep(max(0.0, grid - time.time()) + 1)
        now = datetime.datetime.fromtimestamp(grid, datetime.UTC)
        _fill(engine, vnf_ids, args.period, now)
        conf.set_override("prometheus_url", prom.url, "pm")
        conf.set_override("threshold_interval", args.period, "pm")
        client = Prometheus(conf)
        pass_ = collector.Collector("bench", lambda: ["bench"], client, conf)
        prom_cpu = _cpu_of(prom.process.pid)
        cpu, wall = time.process_time(), time.perf_counter()
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            figures = profiler.runcall(
                pass_.run, now + datetime.timedelta(seconds=1)
            )
            profiler.dump_stats(args.profile)
        else:
            figures = pass_.run(now + datetime.timedelta(seconds=1))
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        prom_cpu = _cpu_of(prom.process.pid) - prom_cpu
        with engine.connect() as conn:
            entries = conn.execute(
                sa.select(sa.func.count()).select_from(models_pm.PmReportEntry)
            ).scalar()
        # One metric's range query as the collector sends it (a regular
        # expression of every VNF id) beside one that matches any VNF.
        from tacker_ng.pm import measurements as m

        template = m.DEFAULTS["VCpuUsageMeanVnf"].query
        step = datetime.timedelta(seconds=args.period)
        timings = {}
        for label, promql in (
            ("ids", m.render(template, vnf_ids, args.period)),
            ("any", template.replace("{vnf_instance_ids}", ".+").replace(
                "{collection_period}", str(args.period))),
        ):  # fmt: skip
            began = time.perf_counter()
            client.range(promql, now - step, now, args.period)
            timings[f"one_query_{label}_ms"] = round(
                (time.perf_counter() - began) * 1000, 1
            )
        result = {
            **timings,
            "backend": args.backend,
            "vnfs": args.vnfs,
            "vnfcs": total,
            "metrics": len(METRICS),
            "period_s": args.period,
            "warm_up_s": round(warm, 1),
            "pass_wall_s": round(wall, 3),
            "pass_cpu_s": round(cpu, 3),
            "prometheus_cpu_s": round(prom_cpu, 3),
            "prometheus_queries": figures["queries"],
            "failed_queries": figures["failed_queries"],
            "reports": figures["reports"],
            "report_entries": entries,
            "thresholds_judged": figures["thresholds"],
            "goal_queries_per_period": len(METRICS) + 1,
            "goal_pass_s": 2.0,
            **_discovery_cost(tmp, vnf_ids, args.vnfcs),
        }
        print(json.dumps(result))


if __name__ == "__main__":
    main()
