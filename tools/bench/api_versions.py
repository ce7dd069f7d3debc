"""Benchmark: GET /vnflcm/v2/api_versions against tacker-ng-api.

tacker-ng-api with 2 gunicorn workers (gthread), concurrency 8, keep-alive
connections; prints one JSON object with req/s and latency percentiles.

    python tools/bench/api_versions.py [--duration 10] [--auth noauth]
"""

import argparse
import base64
import json
import os
import sys

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

from tools.bench import loadgen, server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--auth", choices=["noauth", "http_basic"], default="noauth"
    )
    args = parser.parse_args()

    headers = {"Accept": "application/json"}
    sections: dict[str, dict] = {"api": {"auth_strategy": args.auth}}
    if args.auth == "http_basic":
        import tempfile

        import bcrypt

        htpasswd = os.path.join(tempfile.mkdtemp(), "htpasswd")
        digest = bcrypt.hashpw(b"bench", bcrypt.gensalt(rounds=4)).decode()
        with open(htpasswd, "w") as f:
            f.write(f"bench:{digest}\n")
        sections["oslo_middleware"] = {"http_basic_auth_user_file": htpasswd}
        headers["Authorization"] = (
            "Basic " + base64.b64encode(b"bench:bench").decode()
        )

    with server.api_server(workers=args.workers, sections=sections) as url:
        result = loadgen.run(
            url,
            lambda i: ("GET", "/vnflcm/v2/api_versions", None, headers),
            concurrency=args.concurrency,
            duration=args.duration,
        )
    result.update(
        {
            "benchmark": "GET /vnflcm/v2/api_versions",
            "server": f"tacker-ng-api, {args.workers} workers (gthread)",
            "auth": args.auth,
        }
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
