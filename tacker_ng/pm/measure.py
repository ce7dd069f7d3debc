"""Measuring: one Prometheus query per metric for any number of VNFs.

A measurement of the table (:mod:`.measurements`) is rendered with a
regular expression of every VNF instance id asked for; each series of
the answer names its VNF (label ``vnfInstanceId``) and its sub-object
(the measurement's sub-object label: ``vnfcId`` or ``cpId``). So the
number of queries grows with the number of metrics, never with the
number of VNFs or VNFCs.

Reports use range queries on a grid of the collection period counted
from the epoch (:func:`grid`), so that jobs created at different moments
share one query; a job keeps the grid points inside its own reporting
period.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence

from tacker_ng.pm import measurements as m
from tacker_ng.pm.prometheus import Prometheus

#: (vnfInstanceId, sub-object id or None) -> value.
Values = dict[tuple[str, str | None], float]
#: (vnfInstanceId, sub-object id or None) -> [(time, value)], oldest first.
Samples = dict[tuple[str, str | None], list[tuple[datetime.datetime, float]]]
#: Prometheus refuses a range query of more than 11,000 points per series.
MAX_POINTS = 10_000
#: Ids per query: a regular expression of 2,000 UUIDs is about 74 kB.
MAX_IDS = 2_000


def _key(
    labels: Mapping[str, str], measurement: m.Measurement
) -> tuple[str, str | None] | None:
    vnf_id = labels.get("vnfInstanceId")
    if not vnf_id:
        return None
    return vnf_id, labels.get(measurement.sub_object_label) or None


def _chunks(ids: Iterable[str]) -> list[list[str]]:
    ordered = sorted(set(ids))
    return [ordered[i : i + MAX_IDS] for i in range(0, len(ordered), MAX_IDS)]


def measure(
    prom: Prometheus,
    measurement: m.Measurement,
    vnf_ids: Iterable[str],
    window: int,
    at: datetime.datetime | None = None,
) -> Values:
    """The metric over the last ``window`` seconds (at ``at``) of every
    sub-object of ``vnf_ids``."""
    out: Values = {}
    for chunk in _chunks(vnf_ids):
        query = m.render(measurement.query, chunk, window)
        for series in prom.instant(query, at):
            key = _key(series.labels, measurement)
            if key is not None:
                out[key] = series.last
    return out


def grid(
    start: datetime.datetime, end: datetime.datetime, step: int
) -> tuple[datetime.datetime, datetime.datetime] | None:
    """The first and last multiples of ``step`` seconds since the epoch
    in ``(start, end]``; None when there is none."""
    first = (int(start.timestamp()) // step + 1) * step
    last = int(end.timestamp()) // step * step
    if first > last:
        return None
    utc = datetime.UTC
    return (
        datetime.datetime.fromtimestamp(first, utc),
        datetime.datetime.fromtimestamp(last, utc),
    )


def measure_range(
    prom: Prometheus,
    measurement: m.Measurement,
    vnf_ids: Iterable[str],
    collection_period: int,
    start: datetime.datetime,
    end: datetime.datetime,
) -> Samples:
    """The metric over each collection period whose end is a grid point
    in ``(start, end]``, for every sub-object of ``vnf_ids``."""
    out: Samples = {}
    span = grid(start, end, collection_period)
    if span is None:
        return out
    step = datetime.timedelta(seconds=collection_period * MAX_POINTS)
    for chunk in _chunks(vnf_ids):
        query = m.render(measurement.query, chunk, collection_period)
        first, last = span
        while first <= last:
            upto = min(last, first + step)
            for series in prom.range(query, first, upto, collection_period):
                key = _key(series.labels, measurement)
                if key is not None:
                    out.setdefault(key, []).extend(series.samples)
            first = upto + datetime.timedelta(seconds=collection_period)
    return out


def within(
    samples: Sequence[tuple[datetime.datetime, float]],
    start: datetime.datetime,
    end: datetime.datetime,
) -> list[tuple[datetime.datetime, float]]:
    """The samples in ``(start, end]``."""
    return [s for s in samples if start < s[0] <= end]
