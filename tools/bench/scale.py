"""Benchmark: the LCM API at telecom scale (issue #32).

Fills a scratch database on ``--backend`` (MariaDB or PostgreSQL) with
``--instances`` VNF instances (half INSTANTIATED with 4 VNFCs each in
instantiatedVnfInfo), ``--op-occs`` op occs and ``--subscriptions``
subscriptions through the product's tables (tools/bench/scale_fill.py),
then drives tacker-ng-api (``--workers`` gunicorn workers, noauth, pages
of 100, one conductor on the test fake VIM) with wrk at ``--concurrency``
for ``--duration`` seconds per figure:

list page 1 and page 500 of instances and of op occs, two filtered
instance lists (a top-level attribute and a nested one), the
subscriptions list, GET one instance and one op occ, POST create and
instantiate start (202). Each figure has req/s, p50/p99 (ms),
``cpu_ms_per_request`` (utime + stime of the API's whole process tree:
gunicorn master and workers, /proc deltas over the run, divided by the
requests) and ``sql_per_request``: what one request sent to the database,
from the API's own counter (``TACKER_NG_COUNT_SQL=1``, header
``X-Tacker-Ng-Sql``) over sequential sample requests after the run.

``--compare-tree PATH`` also measures, on the same data, an API running
the code of another checkout (e.g. a ``git worktree`` of the commit
before a change): the figures of both side by side.

Prints one JSON object.

    python tools/bench/scale.py --backend mariadb|postgresql
        [--instances 100000] [--op-occs 1000000] [--subscriptions 10000]
        [--duration 10] [--concurrency 8] [--compare-tree /tmp/before]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

from tacker_ng.db import statement_counter  # noqa: E402
from tacker_ng.tests.functional import lcm_fixtures, services  # noqa: E402
from tacker_ng.tests.functional import processes as procs  # noqa: E402
from tools.bench import cpu, scale_fill, wrk  # noqa: E402

V = {"Version": "2.0.0", "Accept": "application/json"}
LCM = "/vnflcm/v2"
PAGE = 100


def _get(url: str, headers: dict | None = None):
    req = urllib.request.Request(url, headers={**V, **(headers or {})})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return resp.status, dict(resp.headers), resp.read()


def _page_url(base: str, path: str, page: int) -> str:
    """The URL of page ``page`` (1-based), found by following the Link
    headers as a client would."""
    url = base + path
    for _ in range(page - 1):
        _, headers, _ = _get(url)
        url = re.fullmatch(r'<(.*)>; rel="next"', headers["Link"]).group(1)
    return url


def _sql_sample(send, samples: int = 10) -> dict | None:
    """Mean counts of ``samples`` sequential requests' X-Tacker-Ng-Sql."""
    seen = []
    for i in range(samples):
        headers = send(i)
        value = headers.get(statement_counter.HEADER)
        if value is None:
            return None  # an API without the counter (--compare-tree)
        seen.append(statement_counter.parse_header(value))
    keys = sorted({k for counts in seen for k in counts})
    return {
        k: round(statistics.fmean(c.get(k, 0) for c in seen), 2) for k in keys
    }


def _measure(pid: int, run) -> dict:
    load = os.getloadavg()[0]
    before = cpu.tree_seconds(pid)
    figures = run()
    used = cpu.tree_seconds(pid) - before
    figures["load_1m"] = round(load, 2)
    if figures.get("requests"):
        figures["cpu_ms_per_request"] = round(
            used * 1000 / figures["requests"], 3
        )
    return {
        k: figures[k]
        for k in (
            "req_per_s",
            "p50_ms",
            "p99_ms",
            "cpu_ms_per_request",
            "requests",
            "non_2xx",
            "load_1m",
        )  # fmt: skip
        if k in figures
    }


def _lua_paths(paths: list[str]) -> str:
    """A wrk ``request`` function walking ``paths`` (one per request)."""
    items = ",".join(json.dumps(p) for p in paths)
    return (
        f"local paths = {{{items}}}\nlocal n = 0\n"
        "request = function()\n  n = n + 1\n"
        "  return wrk.format(nil, paths[(n - 1) % #paths + 1])\nend\n"
    )


def _run_api(args, base: str, pid: int, package: dict, ids: dict) -> dict:
    """Every figure against the API at ``base`` (master ``pid``)."""
    out: dict[str, dict] = {}

    def load(name, url, method="GET", body=None, headers=None, lua=""):
        out[name] = _measure(
            pid,
            lambda: wrk.run(
                url,
                method,
                body,
                {**V, **(headers or {})},
                concurrency=args.concurrency,
                duration=args.duration,
                lua=lua,
            ),
        )

    def sample_get(name, url):
        out[name]["sql_per_request"] = _sql_sample(lambda i: _get(url)[1])

    # Page 500 (or the last full one of a smaller fill).
    deep_i = min(500, max(1, args.instances // PAGE))
    deep_o = min(500, max(1, args.op_occs // PAGE))
    gets = {
        "instances_page_1": _page_url(base, f"{LCM}/vnf_instances", 1),
        "instances_page_500": _page_url(base, f"{LCM}/vnf_instances", deep_i),
        "op_occs_page_1": _page_url(base, f"{LCM}/vnf_lcm_op_occs", 1),
        "op_occs_page_500": _page_url(base, f"{LCM}/vnf_lcm_op_occs", deep_o),
        # Percent-encoded: wrk's URL parser refuses "(" and ",".
        "instances_filter_state": base
        + f"{LCM}/vnf_instances?filter="
        + quote("(eq,instantiationState,INSTANTIATED)", safe=""),
        "instances_filter_nested": base
        + f"{LCM}/vnf_instances?filter="
        + quote("(eq,instantiatedVnfInfo/vnfState,STARTED)", safe=""),
        "subscriptions_page_1": base + f"{LCM}/subscriptions",
        "get_instance": base + f"{LCM}/vnf_instances/{ids['instance']}",
        "get_op_occ": base + f"{LCM}/vnf_lcm_op_occs/{ids['op_occ']}",
    }
    for name, url in gets.items():
        status, _, body = _get(url)
        assert status == 200, (name, status)
        load(name, url)
        out[name]["items"] = (
            len(json.loads(body)) if body.startswith(b"[") else 1
        )
        sample_get(name, url)
    create = json.dumps(
        {"vnfdId": package["vnfd_id"], "vnfInstanceName": "created"}
    ).encode()
    json_headers = {"Content-Type": "application/json"}
    load("create", base + f"{LCM}/vnf_instances", "POST", create, json_headers)

    def post(path, body):
        req = urllib.request.Request(
            base + path,
            data=body,
            method="POST",
            headers={**V, **json_headers},
        )
        with urllib.request.urlopen(req, timeout=60) as resp:
            return dict(resp.headers)

    out["create"]["sql_per_request"] = _sql_sample(
        lambda i: post(f"{LCM}/vnf_instances", create)
    )
    vim = lcm_fixtures.fake_vim()
    start = json.dumps({"flavourId": "simple", "vimConnectionInfo": vim})
    targets = ids["instantiate"]
    paths = [f"{LCM}/vnf_instances/{i}/instantiate" for i in targets[10:]]
    load(
        "instantiate_start",
        base + paths[0],
        "POST",
        start.encode(),
        json_headers,
        _lua_paths(paths),
    )
    out["instantiate_start"]["sql_per_request"] = _sql_sample(
        lambda i: post(
            f"{LCM}/vnf_instances/{targets[i]}/instantiate", start.encode()
        )
    )
    return out


@contextlib.contextmanager
def _second_api(dep, tree: str, tmp: Path):
    """tacker-ng-api of the checkout ``tree`` on the same database."""
    port = services.free_port()
    conf = procs.write_config(
        str(tmp / "compare.conf"),
        {"api": {"port": port, "public_endpoint": f"http://127.0.0.1:{port}"}},
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tree, *_plugins(dep)])}
    proc = procs.Process(
        "api-compare",
        [procs.script("tacker-ng-api"), "--config-file", dep.conf_path,
         "--config-file", conf],
        str(tmp / "api-compare.log"),
        env=env,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        procs.wait_http(f"{url}/", proc)
        yield url, proc.popen.pid
    finally:
        proc.stop()


def _plugins(dep) -> list[str]:
    return [str(Path(dep.state_path) / "plugins")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--backend", choices=["mariadb", "postgresql"], default="mariadb"
    )
    parser.add_argument("--instances", type=int, default=100_000)
    parser.add_argument("--op-occs", type=int, default=1_000_000)
    parser.add_argument("--subscriptions", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=5000)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare-tree", default=None)
    args = parser.parse_args()
    if not wrk.available():
        raise SystemExit("scale.py needs wrk (apt-get install wrk)")
    os.environ[statement_counter.ENV] = "1"
    extra = {
        "DEFAULT": {"debug": False},
        "api": {
            "auth_strategy": "noauth",
            "max_page_size": PAGE,
            "workers": args.workers,
        },
    }
    result: dict = {
        "benchmark": "scale (issue #32)",
        "backend": args.backend,
        "instances": args.instances,
        "op_occs": args.op_occs,
        "subscriptions": args.subscriptions,
        "page_size": PAGE,
        "api_workers": args.workers,
        "generator": f"wrk -t1 -c{args.concurrency} -d{int(args.duration)}s",
        "cpu_count": os.cpu_count(),
    }
    with (
        tempfile.TemporaryDirectory(prefix="tacker-ng-scale-") as tmp,
        lcm_fixtures.lcm_deployment(
            Path(tmp), args.backend, conductors=("bench-0",), extra=extra
        ) as dep,
    ):
        started = time.perf_counter()
        result["fill_s"] = scale_fill.fill(
            dep.sql_url,
            dep.package,
            args.instances,
            args.op_occs,
            args.subscriptions,
            args.batch,
        )
        result["fill_s"]["total_s"] = round(time.perf_counter() - started, 1)
        ids = {
            "instance": scale_fill.instance_id(args.instances // 2 * 2 - 2),
            "op_occ": scale_fill.op_occ_id(args.op_occs // 2),
            "instantiate": scale_fill.not_instantiated(
                args.instances, args.instances // 2
            ),
        }
        base = dep.url
        pid = dep.api.popen.pid
        if args.compare_tree:
            with _second_api(dep, args.compare_tree, Path(tmp)) as (
                other,
                other_pid,
            ):
                half = len(ids["instantiate"]) // 2
                result["compare"] = {
                    "tree": args.compare_tree,
                    **_run_api(
                        args,
                        other,
                        other_pid,
                        dep.package,
                        {**ids, "instantiate": ids["instantiate"][half:]},
                    ),
                }
                ids["instantiate"] = ids["instantiate"][:half]
        result["figures"] = _run_api(args, base, pid, dep.package, ids)
    result["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
