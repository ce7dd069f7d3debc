"""A stand-in of :class:`tacker_ng.pm.prometheus.Prometheus` for unit
tests: answers from a table of series, counts and records queries."""

import datetime
import re

from tacker_ng.pm.prometheus import PrometheusError, Series


class FakePrometheus:
    def __init__(self, series=None, fail=None):
        #: [(labels, value)]: every query answers the series whose
        #: vnfInstanceId its regular expression matches.
        self.series = list(series or [])
        self.fail = fail
        self.queries = 0
        self.sent = []

    def _matching(self, promql):
        found = re.search(r'vnfInstanceId=~"([^"]*)"', promql)
        ids = set(found.group(1).split("|")) if found else set()
        return [
            (lab, v) for lab, v in self.series if lab["vnfInstanceId"] in ids
        ]

    def instant(self, promql, at=None):
        self.queries += 1
        self.sent.append(("instant", promql, at))
        if self.fail:
            raise PrometheusError(self.fail)
        at = at or datetime.datetime.now(datetime.UTC)
        return [Series(lab, ((at, v),)) for lab, v in self._matching(promql)]

    def range(self, promql, start, end, step):
        self.queries += 1
        self.sent.append(("range", promql, (start, end, step)))
        if self.fail:
            raise PrometheusError(self.fail)
        points = []
        t = start
        while t <= end:
            points.append(t)
            t += datetime.timedelta(seconds=step)
        return [
            Series(lab, tuple((p, v) for p in points))
            for lab, v in self._matching(promql)
        ]
