"""Benchmark: lease admission at scale, and under concurrency.

On MariaDB: 1,000 freepool hosts and 1,000 overlapping reservations, then
POST /reservation/v1/leases (virtual:instance, anti-affinity) against
tacker-ng-api with 2 workers, one request at a time; SQL statements per
admission counted with a ``before_cursor_execute`` listener at two sizes;
and the concurrent-writers trials (8 threads, tight freepool) with the
row locks, plus the same trials with the lock and re-check removed, to
show what they prevent. Prints one JSON object.

    python tools/bench/lease_create.py [--hosts 1000] [--leases 1000]
        [--duration 10] [--trials 1000] [--naive-trials 100]
"""

import argparse
import contextlib
import itertools
import json
import os
import sys
import tempfile
import time

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)


from tools.bench import server  # noqa: E402

# services reads it at import: the C driver when installed (as lcm_api).
os.environ.setdefault("TACKER_NG_TEST_MYSQL_URL", server.mysql_admin_url())

from tacker_ng import context as tcontext  # noqa: E402
from tacker_ng.db import api as db_api  # noqa: E402
from tacker_ng.db import models_reservation as models  # noqa: E402
from tacker_ng.db.types import utcnow  # noqa: E402
from tacker_ng.reservation import allocation
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import ledger
from tacker_ng.tests import fixtures  # noqa: E402
from tacker_ng.tests.functional import services  # noqa: E402
from tacker_ng.tests.functional.reservation import concurrency  # noqa: E402
from tools.bench import loadgen  # noqa: E402

WINDOW = ("2090-06-01 00:00", "2090-06-30 00:00")


def _body(name: str, day: int) -> dict:
    return {
        "name": name,
        "start_date": f"2090-06-{1 + day % 20:02d} 00:00",
        "end_date": f"2090-06-{8 + day % 20:02d} 00:00",
        "reservations": [
            {
                "resource_type": "virtual:instance",
                "vcpus": 1,
                "memory_mb": 1024,
                "disk_gb": 10,
                "amount": 2,
                "affinity": False,
            }
        ],
        "events": [],
    }


def _seed(hosts: int, leases: int) -> None:
    now = utcnow()
    with db_api.writer() as session:
        session.bulk_insert_mappings(
            models.ComputeHost,
            [
                {
                    "hypervisor_hostname": f"cmp-{i:05d}",
                    "service_name": f"cmp-{i:05d}",
                    "availability_zone": f"AZ-{i % 5}",
                    "vcpus": 64,
                    "memory_mb": 262144,
                    "local_gb": 2000,
                    "reservable": True,
                    "extra_capabilities": {},
                    "created_at": now,
                }
                for i in range(hosts)
            ],
        )
    ctx = tcontext.RequestContext(user_id="bench", project_id="bench")
    for i in range(leases):
        manager.create_lease(ctx, _body(f"seed-{i}", i))


@contextlib.contextmanager
def _counting(engine):
    import sqlalchemy as sa

    seen: list[str] = []

    def listener(conn, cursor, statement, *args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", listener)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", listener)


def _statements(engine, name: str) -> int:
    ctx = tcontext.RequestContext(user_id="bench", project_id="count")
    with _counting(engine) as seen:
        manager.create_lease(ctx, _body(name, 3))
    return len(seen)


def _post_latency(url: str, duration: float) -> dict:
    names = itertools.count()
    headers = {"Content-Type": "application/json"}

    def request(i: int):
        body = json.dumps(_body(f"post-{next(names)}", i)).encode()
        return ("POST", "/reservation/v1/leases", body, headers)

    return loadgen.run(
        url,
        request,
        concurrency=1,
        duration=duration,
        warmup=1.0,
        expect=(201,),
    )


@contextlib.contextmanager
def _naive():
    """The admission without its lock and re-check: Blazar's race."""
    real_lock, real_fits = ledger.lock_hosts, allocation.fits
    ledger.lock_hosts = lambda session, ids: []
    allocation.fits = lambda *a, **k: True
    try:
        yield
    finally:
        ledger.lock_hosts, allocation.fits = real_lock, real_fits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hosts", type=int, default=1000)
    parser.add_argument("--leases", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--naive-trials", type=int, default=100)
    args = parser.parse_args()
    result: dict = {
        "benchmark": "reservation lease admission",
        "db": "mariadb",
        "driver": services.MYSQL_ADMIN_URL.split(":", 1)[0],
    }
    state = tempfile.mkdtemp(prefix="tacker-ng-bench-")

    with services.scratch_database("mariadb") as url:
        with fixtures.config(state), fixtures.database(url) as engine:
            t0 = time.monotonic()
            _seed(10, 10)
            small = _statements(engine, "count-small")
            with db_api.writer() as session:
                for model in (
                    models.HostAllocation,
                    models.LeaseEvent,
                    models.InstanceReservation,
                    models.Reservation,
                    models.Lease,
                    models.ComputeHost,
                ):
                    session.query(model).delete()
            _seed(args.hosts, args.leases)
            big = _statements(engine, "count-big")
            result["seed_s"] = round(time.monotonic() - t0, 1)
        result["sql_statements_per_admission"] = {
            "10_hosts_10_leases": small,
            f"{args.hosts}_hosts_{args.leases}_leases": big,
            "constant": small == big,
        }
        sections = {
            "database": {"connection": url},
            "reservation": {"event_interval": 3600},
        }
        with server.api_server(workers=2, sections=sections) as api:
            post = _post_latency(api, args.duration)
        result["post_leases"] = {
            "hosts": args.hosts,
            "overlapping_leases": args.leases,
            "api_workers": 2,
            **post,
        }

    with (
        services.scratch_database("mariadb") as url,
        fixtures.config(state),
        fixtures.database(url),
    ):
        t0 = time.monotonic()
        locked = concurrency.run(args.trials)
        locked["seconds"] = round(time.monotonic() - t0, 1)
        with _naive():
            naive = concurrency.run(args.naive_trials)
    result["concurrent_writers"] = {
        "writers": concurrency.WRITERS,
        "freepool": f"{concurrency.HOSTS} hosts x "
        f"{concurrency.SLOTS_PER_HOST} slots, 2-host anti-affinity leases",
        "with_row_locks": locked,
        "without_lock_and_recheck": naive,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
