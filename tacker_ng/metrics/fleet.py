"""A prometheus-client collector of the fleet's figures in the database.

Runs :func:`tacker_ng.db.fleet_metrics.snapshot` (one statement) once per
scrape and turns its rows into metric families. A scrape while the
database is unreachable still answers: ``tacker_ng_database_up`` is 0 and
the database's families are absent (Prometheus marks them stale instead
of keeping old values).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from oslo_log import log as logging
from prometheus_client import core

from tacker_ng import connectivity
from tacker_ng.db import fleet_metrics
from tacker_ng.db.types import utcnow

LOG = logging.getLogger(__name__)
P = "tacker_ng_"


def _families(snap: fleet_metrics.FleetSnapshot) -> Iterator[core.Metric]:
    occs = core.GaugeMetricFamily(
        f"{P}vnf_lcm_op_occs",
        "VNF LCM operation occurrences in the database, by operation "
        "and operationState.",
        labels=["operation", "state"],
    )
    took = core.HistogramMetricFamily(
        f"{P}vnf_lcm_op_occ_duration_seconds",
        "Seconds from startTime to stateEnteredTime of the op occs that "
        "reached a final state (COMPLETED, FAILED, ROLLED_BACK) within "
        "[metrics] duration_window.",
        labels=["operation", "state"],
    )
    for group in snap.op_occs:
        occs.add_metric([group.operation, group.state], group.count)
    for done in snap.durations:
        buckets = [
            (repr(le), n)
            for le, n in zip(
                fleet_metrics.DURATION_BUCKETS, done.buckets, strict=True
            )
        ]
        buckets.append(("+Inf", done.count))
        took.add_metric([done.operation, done.state], buckets, done.total)
    yield occs
    yield took
    yield core.GaugeMetricFamily(
        f"{P}notifications_pending",
        "Notifications in the outbox not delivered yet (all subscriptions).",
        value=snap.notifications_pending,
    )
    yield core.GaugeMetricFamily(
        f"{P}notifications_oldest_pending_age_seconds",
        "Seconds since the oldest undelivered notification was queued "
        "(0 when none waits).",
        value=snap.oldest_notification_age,
    )
    yield from _conductor_families(snap.conductors)


def _conductor_families(
    conductors: list[fleet_metrics.ConductorFigures],
) -> Iterator[core.Metric]:
    up = core.GaugeMetricFamily(
        f"{P}conductor_online",
        "1 for a conductor registered online, 0 for one that went offline.",
        labels=["conductor"],
    )
    age = core.GaugeMetricFamily(
        f"{P}conductor_heartbeat_age_seconds",
        "Seconds since the conductor's last heartbeat.",
        labels=["conductor"],
    )
    cycle = core.GaugeMetricFamily(
        f"{P}observer_cycle_seconds",
        "Duration of the conductor's last observation cycle (reported "
        "with its heartbeat).",
        labels=["conductor"],
    )
    for c in conductors:
        up.add_metric([c.hostname], 1 if c.online else 0)
        age.add_metric([c.hostname], c.heartbeat_age)
        if c.observe_cycle_seconds is not None:
            cycle.add_metric([c.hostname], c.observe_cycle_seconds)
    yield from (up, age, cycle)
    # The jobboard is shared: what the freshest online conductor saw.
    seen = [c for c in conductors if c.online and c.jobboard_jobs is not None]
    if seen:
        fresh = min(seen, key=lambda c: c.heartbeat_age)
        board = core.GaugeMetricFamily(
            f"{P}jobboard_jobs",
            "LCM jobs on the jobboard (posted, not consumed), by whether "
            "a conductor holds them, as the conductor with the freshest "
            "heartbeat last saw it.",
            labels=["state"],
        )
        unclaimed = fresh.jobboard_unclaimed or 0
        board.add_metric(["unclaimed"], unclaimed)
        board.add_metric(["claimed"], max(0, fresh.jobboard_jobs - unclaimed))
        yield board


class FleetCollector:
    """prometheus-client custom collector: one query per ``collect``."""

    def __init__(self, window: float = 86400.0) -> None:
        #: Seconds back over which finished op occs' durations count.
        self.window = window
        self._health = connectivity.ConnectionHealth("metrics database", LOG)

    def describe(self) -> list:
        """Nothing up front: describing would run the query at
        registration time."""
        return []

    def collect(self) -> Iterator[core.Metric]:
        start = time.perf_counter()
        try:
            snap = fleet_metrics.snapshot(utcnow(), self.window)
        except Exception as exc:
            if not self._health.failed(exc):
                LOG.exception("Reading the fleet's metrics failed")
            snap = None
        else:
            self._health.ok()
        yield core.GaugeMetricFamily(
            f"{P}database_up",
            "1 when this scrape could read the fleet's figures from the "
            "database.",
            value=0 if snap is None else 1,
        )
        if snap is None:
            return
        yield core.GaugeMetricFamily(
            f"{P}metrics_query_seconds",
            "Seconds this scrape's one database query took.",
            value=time.perf_counter() - start,
        )
        yield from _families(snap)
