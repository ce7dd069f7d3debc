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
from concurrent import futures
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
#: Prometheus queries of a pass sent at the same time, at most.
QUERY_THREADS = 4
#: Reports published, or thresholds judged, per write transaction.
WRITE_BATCH = 200


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


#: VNF instance id -> [(sub-object id, samples)], sub-objects sorted.
ByVnf = dict[str, list[tuple[str | None, list]]]


def _by_vnf(samples: measure.Samples) -> ByVnf:
    out: ByVnf = {}
    for (vnf_id, sub), series in samples.items():
        out.setdefault(vnf_id, []).append((sub, series))
    for subs in out.values():
        subs.sort(key=lambda item: item[0] or "")
    return out


def _job_entries(
    job: Mapping[str, Any],
    wanted: list[measurements.Requested],
    samples: Mapping[str, ByVnf],
    live: set[str],
) -> list[dict[str, Any]]:
    """The report entries of ``job`` from its groups' samples."""
    period = job["criteria"]["reportingPeriod"]
    end = job["next_report_at"]
    start = end - datetime.timedelta(seconds=period)
    objects = sorted(i for i in set(job["object_instance_ids"]) if i in live)
    subs = set(job.get("sub_object_instance_ids") or ())
    entries = []
    for req in wanted:
        found = samples.get(req.reported_as) or {}
        for vnf_id in objects:
            if req.object_instance_id not in (None, vnf_id):
                continue
            for sub, series in found.get(vnf_id, ()):
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
                            {
                                "timeStamp": t,
                                "value": _value(req.measurement, v),
                            }
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
        results: dict[tuple, ByVnf] = {}
        asked = {k: g for k, g in groups.items() if g.vnf_ids}
        results.update({k: {} for k in groups if k not in asked})
        for key, outcome in self._side_by_side(
            asked,
            lambda _key, g: _by_vnf(
                measure.measure_range(
                    self.prometheus,
                    g.measurement,
                    g.vnf_ids,
                    g.collection_period,
                    g.start,
                    g.end,
                )
            ),
        ):
            if isinstance(outcome, Exception):
                name = asked[key].measurement.name
                failures.append(f"{name}: {outcome}")
            else:
                results[key] = outcome
        ready = []
        for job in due:
            asked = wanted.get(job["id"], [])
            if any(key not in results for _req, key in asked):
                continue  # a query failed: the next pass reports it
            samples = {req.reported_as: results[key] for req, key in asked}
            entries = _job_entries(job, [r for r, _ in asked], samples, live)
            ready.append((job, entries))
        for i in range(0, len(ready), WRITE_BATCH):
            chunk = ready[i : i + WRITE_BATCH]
            for attempt in db_api.retrying():
                with attempt, db_api.writer() as session:
                    made = reporting.publish_reports(
                        session, chunk, now, self.conf
                    )
            report.reports += sum(m is not None for m in made)

    def _side_by_side(
        self, groups: Mapping[Any, Any], query: Callable[[Any, Any], Any]
    ) -> list[tuple[Any, Any]]:
        """(key, ``query(key, group)`` or the PrometheusError/ValueError it
        raised) of each group, the queries sent side by side: Prometheus
        evaluates them on its cores while this conductor waits once."""
        if not groups:
            return []

        def one(item: tuple[Any, Any]) -> tuple[Any, Any]:
            key, group = item
            try:
                return key, query(key, group)
            except (PrometheusError, ValueError) as exc:
                return key, exc

        workers = min(QUERY_THREADS, len(groups))
        with futures.ThreadPoolExecutor(workers, "pm-query") as pool:
            return list(pool.map(one, groups.items()))

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
        claimed: list[Mapping[str, Any]] = []
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                claimed = crossings.claim_all(session, due, now, self.conf)
        claimed = [t for t in claimed if t["object_instance_id"] in live]
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
        measured = self._side_by_side(
            by_metric,
            lambda name, group: measure.measure(
                self.prometheus,
                table[name],
                {t["object_instance_id"] for t in group},
                window,
                now,
            ),
        )
        for name, values in sorted(measured, key=lambda kv: kv[0]):
            if isinstance(values, Exception):
                failures.append(f"{name}: {values}")
                continue
            group = by_metric[name]
            by_vnf: dict[str, list[tuple[str | None, float]]] = {}
            for (vnf_id, sub), value in values.items():
                by_vnf.setdefault(vnf_id, []).append((sub, value))
            for i in range(0, len(group), WRITE_BATCH):
                report.crossings += self._judge(
                    group[i : i + WRITE_BATCH], by_vnf, now
                )

    def _judge(
        self,
        thresholds: list[Mapping[str, Any]],
        by_vnf: Mapping[str, list[tuple[str | None, float]]],
        now: datetime.datetime,
    ) -> int:
        """Record the values of ``thresholds`` (one transaction); the
        number of crossings."""
        todo = []
        for threshold in thresholds:
            vnf_id = threshold["object_instance_id"]
            subs = set(threshold.get("sub_object_instance_ids") or ())
            todo.extend(
                (threshold, vnf_id, sub, value)
                for sub, value in sorted(
                    by_vnf.get(vnf_id, ()), key=lambda sv: sv[0] or ""
                )
                if not subs or sub in subs
            )
        if not todo:
            return 0
        crossed = 0
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                crossed = crossings.record_values(
                    session, todo, now, self.conf
                )
        return crossed
