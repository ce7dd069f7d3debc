"""A small client of Prometheus's HTTP API for the functional tests.

Reads what tests need to assert on: instant queries (``/api/v1/query``)
and the scrape targets (``/api/v1/targets``), with waits that make
assertions exact instead of timing-dependent: :meth:`PromApi.wait_scraped`
returns once every matching target has been scraped after a given
moment, so a value set at an exporter before that moment is the one an
instant query returns.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from typing import Any

import requests

Labels = dict[str, str]


class PromApiError(AssertionError):
    """Prometheus answered an error (bad PromQL, server trouble)."""


def _parse_time(text: str) -> float:
    """Prometheus's RFC 3339 times (nanoseconds, ``Z``) as epoch seconds."""
    if text.startswith("0001-01-01"):
        return 0.0
    head, _, frac = text.rstrip("Z").partition(".")
    frac = frac.split("+")[0].split("-")[0]
    base = datetime.datetime.fromisoformat(head).replace(tzinfo=datetime.UTC)
    return base.timestamp() + (float(f"0.{frac}") if frac else 0.0)


def _matches(labels: Labels, wanted: Labels) -> bool:
    return all(labels.get(k) == v for k, v in wanted.items())


class PromApi:
    """Instant queries and target states of one Prometheus server."""

    def __init__(self, url: str, timeout: float = 10) -> None:
        self.url = url.rstrip("/")
        self.timeout = timeout

    def ready(self) -> bool:
        """True once the server answers ``/-/ready`` with 200."""
        return (
            requests.get(f"{self.url}/-/ready", timeout=2).status_code == 200
        )

    def _get(self, path: str, **params: Any) -> Any:
        resp = requests.get(
            f"{self.url}{path}", params=params, timeout=self.timeout
        )
        body = resp.json()
        if resp.status_code != 200 or body.get("status") != "success":
            raise PromApiError(
                f"{path} {params}: {resp.status_code} "
                f"{body.get('errorType')}: {body.get('error')}"
            )
        return body["data"]

    # -- queries -------------------------------------------------------
    def query(self, promql: str, at: float | None = None) -> list[dict]:
        """An instant query's vector: ``[{"metric": {...}, "value":
        [t, "v"]}]`` (a scalar result comes back as one element)."""
        params: dict[str, Any] = {"query": promql}
        if at is not None:
            params["time"] = f"{at:.3f}"
        data = self._get("/api/v1/query", **params)
        if data["resultType"] in ("scalar", "string"):
            return [{"metric": {}, "value": data["result"]}]
        if data["resultType"] != "vector":
            raise PromApiError(f"{promql}: a {data['resultType']} result")
        return data["result"]

    def values(
        self, promql: str, by: tuple[str, ...] = ()
    ) -> dict[tuple[str, ...], float]:
        """The query's samples keyed by the values of labels ``by``."""
        return {
            tuple(s["metric"].get(label, "") for label in by): float(
                s["value"][1]
            )
            for s in self.query(promql)
        }

    def value(self, promql: str) -> float | None:
        """The one sample's value (None: empty result; more than one
        series is an error: the test's query is ambiguous)."""
        result = self.query(promql)
        if len(result) > 1:
            raise PromApiError(f"{promql}: {len(result)} series: {result}")
        return float(result[0]["value"][1]) if result else None

    # -- targets -------------------------------------------------------
    def targets(self, **wanted: str) -> list[dict]:
        """Active targets whose (discovered and final) labels include
        ``wanted``, e.g. ``targets(job="vnf", vnfcId="VDU1-0")``."""
        found = self._get("/api/v1/targets", state="active")
        return [
            t
            for t in found["activeTargets"]
            if _matches({**t["discoveredLabels"], **t["labels"]}, wanted)
        ]

    def wait_targets(
        self,
        count: int,
        health: str = "up",
        timeout: float = 30,
        **wanted: str,
    ) -> list[dict]:
        """Wait until exactly ``count`` matching targets exist, all with
        ``health`` (``up``: last scrape succeeded; ``down``)."""
        box: list[list[dict]] = [[]]

        def done() -> bool:
            box[0] = self.targets(**wanted)
            return len(box[0]) == count and all(
                t["health"] == health for t in box[0]
            )

        self._wait(
            done,
            timeout,
            f"{count} targets {wanted} {health}",
            lambda: box[0],
        )
        return box[0]

    def wait_scraped(
        self, since: float, timeout: float = 30, **wanted: str
    ) -> list[dict]:
        """Wait until every matching target (at least one) was scraped
        successfully after epoch second ``since``."""

        def done() -> list[dict] | None:
            found = self.targets(**wanted)
            ok = found and all(
                t["health"] == "up" and _parse_time(t["lastScrape"]) > since
                for t in found
            )
            return found if ok else None

        return self._wait(
            done,
            timeout,
            f"targets {wanted} scraped",
            lambda: self.targets(**wanted),
        )

    def wait_value(
        self,
        promql: str,
        predicate: Callable[[float | None], bool],
        timeout: float = 30,
    ) -> float | None:
        """Wait until the query's one value satisfies ``predicate``."""
        box: list[float | None] = []

        def check() -> bool:
            box[:] = [self.value(promql)]
            return predicate(box[0])

        self._wait(check, timeout, promql, lambda: box)
        return box[0]

    @staticmethod
    def _wait(
        check: Callable[[], Any],
        timeout: float,
        what: str,
        last: Callable[[], Any],
    ) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            result = check()
            if result:
                return result
            time.sleep(0.2)
        raise AssertionError(
            f"timed out after {timeout}s waiting for {what}; last: {last()}"
        )
