"""The conductor's PM periodic jobs, and the measuring function that
automatic scaling shares with them.

Nothing runs without ``[pm] prometheus_url``: PM jobs and thresholds can
still be created through the API, but no report is made and no VNF is
scaled automatically. One Prometheus client serves both jobs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from oslo_config import cfg

from tacker_ng import periodic
from tacker_ng.pm import autoscale, collector, measure, measurements
from tacker_ng.pm.prometheus import Prometheus

#: (metric name of the table, VNF instance ids, window seconds)
#: -> {(vnfInstanceId, vnfcId or None): value}; one query for all ids.
Measure = Callable[
    [str, Sequence[str], int], Mapping[tuple[str, str | None], float]
]


def measurer(
    prometheus: Prometheus, conf: cfg.ConfigOpts = cfg.CONF
) -> Measure:
    """A :data:`Measure` over ``prometheus`` and the table in force."""

    def run(
        name: str, vnf_ids: Sequence[str], window: int
    ) -> Mapping[tuple[str, str | None], float]:
        return measure.measure(
            prometheus, measurements.table(conf)[name], vnf_ids, window
        )

    return run


def periodic_jobs(
    conf: cfg.ConfigOpts,
    host: str,
    live_hosts: Callable[[], Iterable[str]],
    cast: autoscale.Cast,
    rollback_cast: autoscale.Cast | None = None,
    prometheus: Prometheus | None = None,
) -> list[periodic.PeriodicJob]:
    """The collector's pass and automatic scaling's (none without
    ``[pm] prometheus_url``); ``cast`` runs an op occ, ``rollback_cast``
    rolls one back."""
    if not conf.pm.prometheus_url:
        return []
    prometheus = prometheus or Prometheus(conf)
    pass_ = collector.Collector(host, live_hosts, prometheus, conf)
    return [
        periodic.PeriodicJob(
            "pm_collect", conf.pm.collect_interval, pass_.run
        ),
        autoscale.periodic_job(
            conf,
            host,
            live_hosts,
            measurer(prometheus, conf),
            cast,
            rollback_cast,
        ),
    ]
