"""Periodic jobs: declared by their domain, run by the conductor service.

A domain exposes ``periodic_jobs(conf) -> list[PeriodicJob]``; the
conductor collects them, runs each on a futurist worker, and when a job
names a duty (``leader``) only on the conductor elected for it
(:mod:`tacker_ng.coordination`). A job that raises runs again at its
next tick; a lost database, bus or Redis connection is logged once per
job and outage (:mod:`tacker_ng.connectivity`), any other error with its
traceback.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from futurist import periodics
from oslo_log import log as logging

from tacker_ng import connectivity, coordination

LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class PeriodicJob:
    """One periodic job of a domain."""

    #: Short name for logs, e.g. ``lease_events``.
    name: str
    #: Seconds between two runs.
    spacing: float
    run: Callable[[], object]
    #: Duty whose elected leader alone runs it; None: every conductor.
    leader: str | None = None
    run_immediately: bool = True


def as_futurist(
    job: PeriodicJob, coordinator: coordination.Coordinator
) -> tuple[Callable[[], None], None, None]:
    """``job`` as a futurist periodic callable (for a PeriodicWorker)."""
    election = coordinator.leader(job.leader) if job.leader else None
    health = connectivity.ConnectionHealth(f"periodic job {job.name}", LOG)

    @periodics.periodic(
        spacing=job.spacing, run_immediately=job.run_immediately
    )
    def tick() -> None:
        if election is not None and not election.is_leader():
            health.forget()  # the leader elsewhere runs it now
            return
        try:
            job.run()
        except Exception as exc:
            if not health.failed(exc):
                LOG.exception("Periodic job %s failed", job.name)
        else:
            health.ok()

    tick.__name__ = job.name
    return (tick, None, None)
