"""Benchmark: SOL003 LCM API with 10,000 VNF instances in MariaDB.

tacker-ng-api with 2 gunicorn workers, concurrency 8, keep-alive:
``GET /vnflcm/v2/vnf_instances`` (first page of 100, SOL default
attribute selection) and ``POST /vnflcm/v2/vnf_instances``. Prints one
JSON object: per run req/s, p50/p90/p99 and ``cpu_ms_per_request``, the
API workers' CPU (utime + stime from /proc) divided by the requests.

    python tools/bench/lcm_api.py [--instances 10000] [--duration 10]
        [--db mysql+pymysql://root@127.0.0.1:3306/]
"""

import argparse
import json
import os
import sys
import tempfile
import uuid

import sqlalchemy as sa

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

from tacker_ng import context as tcontext  # noqa: E402
from tacker_ng.db import models  # noqa: E402
from tacker_ng.db.types import utcnow  # noqa: E402
from tacker_ng.tests import fixtures, lcm_packages  # noqa: E402
from tools.bench import cpu, loadgen, server, wrk  # noqa: E402

V = {"Version": "2.0.0", "Accept": "application/json"}


def _vnfc(vdu: str, index: int) -> dict:
    return {
        "id": str(uuid.uuid4()),
        "vduId": vdu,
        "computeResource": {
            "vimConnectionId": "vim1",
            "resourceId": str(uuid.uuid4()),
            "vimLevelResourceType": "OS::Nova::Server",
        },
        "zoneId": f"AZ-{index % 3 + 1}",
        "metadata": {"index": index},
    }


def seed(url: str, package: dict, count: int) -> None:
    """``count`` instances, half INSTANTIATED with three VNFCs."""
    engine = sa.create_engine(url)
    now = utcnow()
    rows = []
    for i in range(count):
        instantiated = i % 2 == 0
        rows.append(
            {
                "id": str(uuid.uuid4()),
                "vnf_instance_name": f"bench-{i}",
                "vnfd_id": package["vnfd_id"],
                "vnf_provider": package["vnf_provider"],
                "vnf_product_name": package["vnf_product_name"],
                "vnf_software_version": package["vnf_software_version"],
                "vnfd_version": package["vnfd_version"],
                "instantiation_state": "INSTANTIATED"
                if instantiated
                else "NOT_INSTANTIATED",
                "instantiated_vnf_info": {
                    "flavourId": "simple",
                    "vnfState": "STARTED",
                    "vnfcResourceInfo": [
                        _vnfc("VDU1", 0),
                        _vnfc("VDU2", 0),
                        _vnfc("VDU2", 1),
                    ],
                }
                if instantiated
                else None,
                "vim_connection_info": {
                    "vim1": {
                        "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
                        "accessInfo": {
                            "username": "u",
                            "password": "fernet:x",
                        },
                    }
                },
                "metadata": {"owner": "bench", "i": i},
                "project_id": "default",
                "version": 1,
                "created_at": now,
            }
        )
    with engine.begin() as conn:
        for start in range(0, count, 1000):
            conn.execute(
                sa.insert(models.VnfInstance.__table__),
                rows[start : start + 1000],
            )
        # A long-lived database has current statistics; a table filled in
        # one second has not, and MariaDB would then ignore the indexes.
        conn.exec_driver_sql("ANALYZE TABLE vnf_instances")
    engine.dispose()


def _with_cpu(base, run) -> dict:
    """``run()``'s figures plus the API's CPU milliseconds per request,
    from /proc utime + stime deltas over the run: ``cpu_ms_per_request``
    for the gunicorn workers (where requests are served; the figure of
    issue #17), ``api_cpu_ms_per_request`` with the master too."""
    tree = cpu.tree_seconds(base.pid)
    workers = cpu.workers_seconds(base.pid)
    figures = run()
    tree = cpu.tree_seconds(base.pid) - tree
    workers = cpu.workers_seconds(base.pid) - workers
    requests = figures.get("requests") or 0
    if requests:
        figures["cpu_ms_per_request"] = round(workers * 1000 / requests, 3)
        figures["api_cpu_ms_per_request"] = round(tree * 1000 / requests, 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=10000)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="[api] threads per worker (default: the option's default)",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="Admin URL of the MariaDB server; default: the mysqlclient "
        "driver when installed, else PyMySQL, as root on 127.0.0.1.",
    )
    parser.add_argument(
        "--python-client",
        action="store_true",
        help="Use the Python load generator, not wrk.",
    )
    args = parser.parse_args()
    if args.db is None:
        args.db = server.mysql_admin_url()

    name = f"tacker_ng_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(args.db, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name} CHARACTER SET utf8mb4")
    url = (
        sa.make_url(args.db)
        .set(database=name)
        .render_as_string(hide_password=False)
    )
    state = tempfile.mkdtemp(prefix="tacker-ng-bench-")
    try:
        sections = {
            "database": {"connection": url},
            "api": {"max_page_size": 100},
        }
        if args.threads:
            sections["api"]["threads"] = args.threads
        with server.api_server(
            workers=args.workers, sections=sections, state=state
        ) as base:
            with fixtures.config(state), fixtures.database(url, migrate=False):
                package = lcm_packages.onboard(
                    tcontext.get_admin_context(),
                    lcm_packages.build(hooks=False),
                )
            seed(url, package, args.instances)
            body = json.dumps(
                {"vnfdId": package["vnfd_id"], "vnfInstanceName": "created"}
            ).encode()
            headers = {**V, "Content-Type": "application/json"}
            if wrk.available() and not args.python_client:
                listing = _with_cpu(
                    base,
                    lambda: wrk.run(
                        base + "/vnflcm/v2/vnf_instances",
                        headers=V,
                        concurrency=args.concurrency,
                        duration=args.duration,
                    ),
                )
                create = _with_cpu(
                    base,
                    lambda: wrk.run(
                        base + "/vnflcm/v2/vnf_instances",
                        "POST",
                        body,
                        headers,
                        concurrency=args.concurrency,
                        duration=args.duration,
                    ),
                )
            else:
                listing = _with_cpu(
                    base,
                    lambda: loadgen.run(
                        base,
                        lambda i: ("GET", "/vnflcm/v2/vnf_instances", None, V),
                        concurrency=args.concurrency,
                        duration=args.duration,
                    ),
                )
                create = _with_cpu(
                    base,
                    lambda: loadgen.run(
                        base,
                        lambda i: (
                            "POST",
                            "/vnflcm/v2/vnf_instances",
                            body,
                            headers,
                        ),
                        concurrency=args.concurrency,
                        duration=args.duration,
                        expect=(201,),
                    ),
                )
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        admin.dispose()
    print(
        json.dumps(
            {
                "benchmark": "SOL003 LCM API",
                "server": f"tacker-ng-api, {args.workers} workers (gthread), "
                "noauth",
                "database": "MariaDB",
                "driver": sa.make_url(args.db).drivername,
                "instances": args.instances,
                "list_first_page_100": listing,
                "create": create,
            }
        )
    )


if __name__ == "__main__":
    main()
