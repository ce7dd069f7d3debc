"""A small client of Prometheus's HTTP API (``/api/v1/query`` and
``/api/v1/query_range``): what the PM collector and automatic scaling
read their measurements from.

Queries are sent as POST forms: a query covering a thousand VNF instance
ids is longer than a URL should be. One client may be used by several
threads at once (the collector sends a pass's queries side by side).
An answer that is not a success (Prometheus down, a bad query of
``[pm] measurements_file``, a timeout) is :class:`PrometheusError` with
Prometheus's own words; the caller logs it once per pass and decides
nothing. Values that are not numbers (``NaN``: a division by zero in a
query; ``+Inf``) are dropped: they are no measurement.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import threading
from collections.abc import Mapping
from typing import Any

import orjson
import requests
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import outbound

LOG = logging.getLogger(__name__)


class PrometheusError(Exception):
    """Prometheus did not answer a query with data."""


@dataclasses.dataclass(frozen=True)
class Series:
    """One series of an answer: its labels and its samples, oldest
    first, each (UTC time, value)."""

    labels: Mapping[str, str]
    samples: tuple[tuple[datetime.datetime, float], ...]

    @property
    def last(self) -> float:
        return self.samples[-1][1]


def _time(value: Any) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(float(value), datetime.UTC)


def _samples(pairs: list[Any]) -> tuple[tuple[datetime.datetime, float], ...]:
    out = []
    for stamp, text in pairs:
        value = float(text)
        if math.isfinite(value):
            out.append((_time(stamp), value))
    return tuple(out)


def parse(answer: Any) -> list[Series]:
    """The series of a query answer (vector or matrix)."""
    if not isinstance(answer, Mapping) or answer.get("status") != "success":
        error = answer.get("error") if isinstance(answer, Mapping) else None
        raise PrometheusError(error or f"unexpected answer: {answer!r:.200}")
    data = answer.get("data") or {}
    kind = data.get("resultType")
    if kind not in ("vector", "matrix"):
        raise PrometheusError(f"result type {kind!r} is not a vector")
    out = []
    for item in data.get("result") or []:
        if kind == "vector":
            samples = _samples([item["value"]])
        else:
            samples = _samples(item["values"])
        if samples:
            out.append(Series(dict(item.get("metric") or {}), samples))
    return out


class Prometheus:
    """Prometheus at ``[pm] prometheus_url``."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.url = conf.pm.prometheus_url.rstrip("/")
        self.timeout = conf.pm.prometheus_timeout
        self.session = requests.Session()
        if conf.pm.prometheus_username:
            self.session.auth = (
                conf.pm.prometheus_username,
                conf.pm.prometheus_password,
            )
        if conf.pm.prometheus_ca_file:
            self.session.verify = conf.pm.prometheus_ca_file
        cert = outbound.client_cert("pm", "Prometheus", conf)
        if cert is not None:
            self.session.cert = cert
        #: Queries sent (the collector's figures count them).
        self.queries = 0
        self._lock = threading.Lock()

    def _post(self, path: str, form: dict[str, str]) -> list[Series]:
        with self._lock:  # the collector sends its queries side by side
            self.queries += 1
        try:
            resp = self.session.post(
                f"{self.url}{path}", data=form, timeout=self.timeout
            )
        except requests.RequestException as exc:
            raise PrometheusError(
                f"Prometheus at {self.url} could not be reached: "
                f"{type(exc).__name__}"
            ) from exc
        try:
            answer = orjson.loads(resp.content)
        except orjson.JSONDecodeError:
            raise PrometheusError(
                f"Prometheus answered {resp.status_code} without JSON"
            ) from None
        return parse(answer)

    def instant(
        self, promql: str, at: datetime.datetime | None = None
    ) -> list[Series]:
        """The query's value at ``at`` (now when None)."""
        form = {"query": promql}
        if at is not None:
            form["time"] = f"{at.timestamp():.3f}"
        return self._post("/api/v1/query", form)

    def range(
        self,
        promql: str,
        start: datetime.datetime,
        end: datetime.datetime,
        step: int,
    ) -> list[Series]:
        """The query evaluated at ``start``, ``start + step`` ... ``end``."""
        return self._post(
            "/api/v1/query_range",
            {
                "query": promql,
                "start": f"{start.timestamp():.3f}",
                "end": f"{end.timestamp():.3f}",
                "step": str(int(step)),
            },
        )
