"""Benchmark: what counting and timing a request costs the API.

Calls a WSGI app that does nothing, bare and wrapped in
:class:`tacker_ng.metrics.api_requests.RequestMetrics` (route templates
of the whole API, a path with an id), in one process (tacker-ng-all) and
with prometheus-client's multiprocess files (tacker-ng-api's workers),
each in a fresh interpreter; prints one JSON object with the added
microseconds per request (best of ``--repeat`` runs of ``--calls``).

    python tools/bench/metrics_overhead.py [--calls 200000] [--repeat 5]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import timeit

REPO = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
PATH = "/vnflcm/v2/vnf_instances/5f0c3c1e-8a4e-4a86-9e53-3a9f2bcb0d71"


def _measure(calls: int, repeat: int, multiprocess: bool) -> dict:
    sys.path.insert(0, os.path.abspath(REPO))
    from tacker_ng.api import openapi
    from tacker_ng.metrics import api_requests, routes

    if multiprocess:
        api_requests.use_multiprocess_dir(tempfile.mkdtemp())
    templates = routes.RouteTemplates(
        [*openapi.build_document()["paths"], *routes.EXTRA_TEMPLATES]
    )

    def app(environ, start_response):
        start_response("200 OK", [])
        return [b""]

    counted = api_requests.RequestMetrics(app, templates)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": PATH}

    def start(status, headers, exc_info=None):
        return None

    def best(target) -> float:
        times = timeit.repeat(
            lambda: target(environ, start), number=calls, repeat=repeat
        )
        return min(times) / calls * 1e6

    bare = best(app)
    wrapped = best(counted)
    route = min(
        timeit.repeat(
            lambda: templates.label(PATH, 200), number=calls, repeat=repeat
        )
    )
    return {
        "bare_us": round(bare, 3),
        "wrapped_us": round(wrapped, 3),
        "overhead_us": round(wrapped - bare, 3),
        "route_label_us": round(route / calls * 1e6, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mode", choices=["single", "multiprocess"])
    args = parser.parse_args()
    if args.mode:
        result = _measure(args.calls, args.repeat, args.mode != "single")
        print(json.dumps(result))
        return
    out = {"calls": args.calls, "repeat": args.repeat}
    for mode in ("single", "multiprocess"):
        done = subprocess.run(
            [sys.executable, __file__, "--mode", mode,
             "--calls", str(args.calls), "--repeat", str(args.repeat)],
            capture_output=True, text=True, check=True, cwd=REPO,
        )  # fmt: skip
        out[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
