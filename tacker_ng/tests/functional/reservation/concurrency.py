"""Concurrent admissions against a tight freepool (shared by the
functional test and tools/bench/lease_create.py)."""

import threading
import uuid

import sqlalchemy as sa

from tacker_ng import context as tcontext
from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import exceptions
from tacker_ng.reservation.admission import leases as manager

HOSTS = 3
SLOTS_PER_HOST = 2
WRITERS = 8


def make_freepool() -> None:
    """HOSTS hosts with room for SLOTS_PER_HOST 1-vCPU instances each."""
    with db_api.writer() as session:
        session.execute(sa.delete(models.HostAllocation))
        session.execute(sa.delete(models.ComputeHost))
        for i in range(HOSTS):
            session.add(
                models.ComputeHost(
                    hypervisor_hostname=f"tight-{i}",
                    service_name=f"tight-{i}",
                    vcpus=SLOTS_PER_HOST,
                    memory_mb=SLOTS_PER_HOST * 512,
                    local_gb=100,
                    reservable=True,
                    extra_capabilities={},
                    created_at=utcnow(),
                )
            )


def _clear_leases() -> None:
    with db_api.writer() as session:
        for model in (
            models.HostAllocation,
            models.LeaseEvent,
            models.InstanceReservation,
            models.HostReservation,
            models.Reservation,
            models.Lease,
        ):
            session.execute(sa.delete(model))


def overcommitted_hosts() -> int:
    """Hosts whose ledger holds more than their capacity (all leases of a
    trial share one window, so a sum is the peak)."""
    a, h = models.HostAllocation, models.ComputeHost
    with db_api.reader() as session:
        rows = session.execute(
            sa.select(h.id, h.vcpus, sa.func.sum(a.instances * a.vcpus))
            .join(a, a.host_id == h.id)
            .group_by(h.id, h.vcpus)
        ).all()
    return sum(1 for _, cap, used in rows if used > cap)


def _body(name: str) -> dict:
    return {
        "name": name,
        "start_date": "2091-01-01 00:00",
        "end_date": "2091-01-02 00:00",
        "reservations": [
            {
                "resource_type": "virtual:instance",
                "vcpus": 1,
                "memory_mb": 512,
                "disk_gb": 1,
                "amount": 2,
                "affinity": False,
            }
        ],
    }


def trial() -> dict:
    """WRITERS threads admit 2-host anti-affinity leases at once."""
    _clear_leases()
    barrier = threading.Barrier(WRITERS)
    results: list[str] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        ctx = tcontext.RequestContext(user_id="u", project_id=f"p{i}")
        barrier.wait()
        try:
            manager.create_lease(ctx, _body(f"w{i}-{uuid.uuid4().hex[:6]}"))
            outcome = "admitted"
        except exceptions.InsufficientCapacity:
            outcome = "rejected"
        except Exception as exc:  # noqa: BLE001 - reported to the test
            outcome = f"error: {type(exc).__name__}: {exc}"
        with lock:
            results.append(outcome)

    threads = [
        threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return {
        "admitted": results.count("admitted"),
        "rejected": results.count("rejected"),
        "errors": [r for r in results if r.startswith("error")],
        "overcommitted_hosts": overcommitted_hosts(),
    }


def run(trials: int) -> dict:
    """Many trials; totals of over-commits, admissions and errors."""
    make_freepool()
    totals = {
        "trials": trials,
        "overcommits": 0,
        "admitted": 0,
        "rejected": 0,
        "errors": 0,
    }
    for _ in range(trials):
        result = trial()
        totals["overcommits"] += result["overcommitted_hosts"]
        totals["admitted"] += result["admitted"]
        totals["rejected"] += result["rejected"]
        totals["errors"] += len(result["errors"])
        if result["errors"]:
            totals.setdefault("first_error", result["errors"][0])
    return totals
