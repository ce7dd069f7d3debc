"""The PM collector of a conductor: reports of the PM jobs due and
evaluations of the thresholds due, in this conductor's shards.

One pass (every ``[pm] collect_interval`` seconds):

* the PM jobs of its shards whose reporting period ended are grouped by
  (metric, collectionPeriod, reportingPeriod); each group is ONE range
  query for all its VNFs (:func:`.measure.measure_range`), then each job
  keeps its VNFs, sub-objects and period and publishes its report
  (:func:`.reporting.publish_report`: the database decides which
  collector reports a period);
* the thresholds due are claimed (one collector per round), grouped by
  metric, measured with ONE instant query per metric over
  ``[pm] threshold_interval``, and each value judged
  (:func:`.crossings.record_value`);
* expired reports are deleted.

Only INSTANTIATED instances are measured: a deleted instance's series
stay in Prometheus for a while and are no performance information. A
group whose query fails is left for the next pass (logged once per
pass, no traceback); its jobs are not moved on.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs
from tacker_ng.db.types import utcnow
from tacker_ng.pm import (
    bodies,
    crossings,
    measure,
    measurements,
    reporting,
    rules,
    shards,
)
from tacker_ng.pm.prometheus import Prometheus, PrometheusError

LOG = logging.getLogger(__name__)
#: Jobs or thresholds handled per pass (the rest wait for the next).
BATCH = 2_000


@dataclasses.dataclass
class PassReport:
    """Figures of one collection pass."""

    jobs: int = 0
    reports: int = 0
    thresholds: int = 0
    crossings: int = 0
    queries: int = 0
    failed_queries: int = 0
    expired_reports: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class _Group:
    measurement: measurements.Measurement
    collection_period: int
    vnf_ids: set[str] = dataclasses.field(default_factory=set)
    start: datetime.datetime | None = None
    end: datetime.datetime | None = None


def _value(measurement: measurements.Measurement, value: float) -> float:
    return int(round(value)) if measurement.integer else value


def _job_entries(
    job: Mapping[str, Any],
    wanted: list[measurements.Requested],
    samples: Mapping[str, measure.Samples],
    live: set[str],
) -> list[dict[str, Any]]:
    """The report entries of ``job`` from its groups' samples."""
    period = job["criteria"]["reportingPeriod"]
    end = job["next_report_at"]
    start = end - datetime.timedelta(seconds=period)
    objects = [i for i in job["object_instance_ids"] if i in live]
    subs = set(job.get("sub_object_instance_ids") or ())
    entries = []
    for req in wanted:
        found = samples.get(req.reported_as) or {}
        for (vnf_id, sub), series in sorted(
            found.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")
        ):
            if vnf_id not in objects or (
                req.object_instance_id not in (None, vnf_id)
            ):
                continue
            if subs and sub not in subs:
                continue
            kept = measure.within(series, start, end)
            if not kept:
                continue
            entries.append(
                bodies.report_entry(
                    job["object_type"],
                    vnf_id,
                    sub,
                    req.reported_as,
                    [
                        {"timeStamp": t, "value": _value(req.measurement, v)}
                        for t, v in kept
                    ],
                )
            )
    return entries


class Collector:
    """One conductor's collector (see the module doc)."""

    def __init__(
        self,
        host: str,
        live_hosts: Callable[[], Iterable[str]],
        prometheus: Prometheus,
        conf: cfg.ConfigOpts = cfg.CONF,
    ) -> None:
        self.host = host
        self.live_hosts = live_hosts
        self.prometheus = prometheus
        self.conf = conf

    def run(self, now: datetime.datetime | None = None) -> dict[str, Any]:
        """One pass; returns its figures."""
        started = time.perf_counter()
        now = now or utcnow()
        report = PassReport()
        owned = shards.owned(self.host, list(self.live_hosts()))
        table = measurements.table(self.conf)
        queries_before = self.prometheus.queries
        failures: list[str] = []
        self._jobs(owned, now, table, report, failures)
        self._thresholds(owned, now, table, report, failures)
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                report.expired_reports = reporting.expire_reports(session, now)
        report.queries = self.prometheus.queries - queries_before
        report.failed_queries = len(failures)
        if failures:
            LOG.warning(
                "PM collection: %d of %d Prometheus queries failed; their "
                "jobs and thresholds wait for the next pass. First: %s",
                len(failures),
                report.queries,
                failures[0],
            )
        report.seconds = round(time.perf_counter() - started, 3)
        LOG.debug("PM collection pass: %s", report.as_dict())
        return report.as_dict()

    # -- PM jobs -------------------------------------------------------

    def _jobs(
        self,
        owned: frozenset[int],
        now: datetime.datetime,
        table: Mapping[str, measurements.Measurement],
        report: PassReport,
        failures: list[str],
    ) -> None:
        with db_api.reader() as session:
            due = reporting.jobs_due(session, now, owned, BATCH)
            live = pm_jobs.instantiated_among(
                session, (i for j in due for i in j["object_instance_ids"])
            )
        report.jobs = len(due)
        groups: dict[tuple[str, int, int], _Group] = {}
        wanted: dict[str, list[tuple[measurements.Requested, tuple]]] = {}
        for job in due:
            criteria = job["criteria"]
            cp, rp = criteria["collectionPeriod"], criteria["reportingPeriod"]
            end = job["next_report_at"]
            start = end - datetime.timedelta(seconds=rp)
            ids = [i for i in job["object_instance_ids"] if i in live]
            for req in measurements.requested(
                criteria, job["object_type"], table
            ):
                key = (req.measurement.name, cp, rp)
                group = groups.setdefault(key, _Group(req.measurement, cp))
                group.vnf_ids.update(ids)
                group.start = min(group.start or start, start)
                group.end = max(group.end or end, end)
                wanted.setdefault(job["id"], []).append((req, key))
        results: dict[tuple, measure.Samples] = {}
        for key, group in groups.items():
            if not group.vnf_ids:
                results[key] = {}
                continue
            try:
                results[key] = measure.measure_range(
                    self.prometheus,
                    group.measurement,
                    group.vnf_ids,
                    group.collection_period,
                    group.start,
                    group.end,
                )
            except (PrometheusError, ValueError) as exc:
                failures.append(f"{group.measurement.name}: {exc}")
        for job in due:
            asked = wanted.get(job["id"], [])
            if any(key not in results for _req, key in asked):
                continue  # a query failed: the next pass reports it
            samples = {req.reported_as: results[key] for req, key in asked}
            entries = _job_entries(job, [r for r, _ in asked], samples, live)
            for attempt in db_api.retrying():
                with attempt, db_api.writer() as session:
                    made = reporting.publish_report(
                        session, job, entries, now, self.conf
                    )
            report.reports += made is not None

    # -- thresholds ----------------------------------------------------

    def _thresholds(
        self,
        owned: frozenset[int],
        now: datetime.datetime,
        table: Mapping[str, measurements.Measurement],
        report: PassReport,
        failures: list[str],
    ) -> None:
        with db_api.reader() as session:
            due = crossings.thresholds_due(session, now, owned, BATCH)
            live = pm_jobs.instantiated_among(
                session, (t["object_instance_id"] for t in due)
            )
        claimed = []
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                claimed = [
                    t
                    for t in due
                    if crossings.claim(session, t, now, self.conf)
                    and t["object_instance_id"] in live
                ]
        report.thresholds = len(claimed)
        by_metric: dict[str, list[Mapping[str, Any]]] = (
            collections.defaultdict(list)
        )
        for threshold in claimed:
            name, _ = rules.split_metric(
                threshold["criteria"]["performanceMetric"]
            )
            if name in table:
                by_metric[name].append(threshold)
        window = self.conf.pm.threshold_interval
        for name, group in sorted(by_metric.items()):
            try:
                values = measure.measure(
                    self.prometheus,
                    table[name],
                    {t["object_instance_id"] for t in group},
                    window,
                    now,
                )
            except (PrometheusError, ValueError) as exc:
                failures.append(f"{name}: {exc}")
                continue
            for threshold in group:
                report.crossings += self._judge(threshold, values, now)

    def _judge(
        self,
        threshold: Mapping[str, Any],
        values: measure.Values,
        now: datetime.datetime,
    ) -> int:
        vnf_id = threshold["object_instance_id"]
        subs = set(threshold.get("sub_object_instance_ids") or ())
        mine = sorted(
            (sub, value)
            for (vid, sub), value in values.items()
            if vid == vnf_id and (not subs or sub in subs)
        )
        if not mine:
            return 0
        crossed = 0
        for attempt in db_api.retrying():
            crossed = 0
            with attempt, db_api.writer() as session:
                for sub, value in mine:
                    direction = crossings.record_value(
                        session, threshold, vnf_id, sub, value, None, now,
                        self.conf,
                    )  # fmt: skip
                    crossed += direction is not None
        return crossed
