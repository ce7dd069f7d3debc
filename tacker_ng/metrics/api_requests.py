"""API requests by method, route template and status, and their time.

:class:`RequestMetrics` is the outermost WSGI middleware, so it counts
every answer as the client gets it (ProblemDetails rewrites included).
It records when the response starts (``start_response``): for the
streamed package downloads that is the time to the first byte. The cost
per request is one dictionary lookup and two updates of
prometheus-client values (``tools/bench/metrics_overhead.py``).

tacker-ng-api serves from several gunicorn worker processes; a scrape
reaches one of them, so the workers share their values through
prometheus-client's multiprocess files (:func:`use_multiprocess_dir`,
called by the master before it forks). tacker-ng-all is one process and
needs none.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import prometheus_client
from prometheus_client import multiprocess, values

from tacker_ng.metrics import routes

METHODS = frozenset(
    {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
)

REQUESTS = prometheus_client.Counter(
    "tacker_ng_api_requests",
    "API requests answered, by method, route template and status code.",
    ["method", "route", "status"],
)
DURATION = prometheus_client.Histogram(
    "tacker_ng_api_request_duration_seconds",
    "Seconds from a request's arrival to the start of its response.",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

_MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def use_multiprocess_dir(path: str) -> None:
    """Keep every value in files under ``path`` from now on, shared by
    the processes forked after this call (gunicorn workers).

    prometheus-client picks its value store when it is imported, from
    the environment; the API's modules import it before tacker-ng-api's
    ``main`` runs, so the choice is made again here (its own
    ``get_value_class``), before any labelled value exists. Files of an
    earlier run in ``path`` are removed: counters start at zero with
    the server."""
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.unlink(os.path.join(path, name))
    os.environ[_MULTIPROC_ENV] = path
    values.ValueClass = values.get_value_class()


def registry(*collectors: Any) -> prometheus_client.CollectorRegistry:
    """A registry for one scrape: this process' metrics, or every
    worker's when they share files, plus ``collectors``."""
    scrape = prometheus_client.CollectorRegistry(auto_describe=False)
    path = os.environ.get(_MULTIPROC_ENV)
    if path:
        multiprocess.MultiProcessCollector(scrape, path)
    else:
        scrape.register(_Forward(prometheus_client.REGISTRY))
    for collector in collectors:
        scrape.register(collector)
    return scrape


class _Forward:
    """Collect another registry's metrics (the process-wide one)."""

    def __init__(self, source: prometheus_client.CollectorRegistry) -> None:
        self._source = source

    def collect(self) -> Iterable[Any]:
        return self._source.collect()


StartResponse = Callable[..., Any]


class RequestMetrics:
    """WSGI middleware: count and time every request."""

    def __init__(self, app: Any, templates: routes.RouteTemplates) -> None:
        self.app = app
        self.templates = templates
        #: (method, route, status) -> (counter, histogram) children: the
        #: label checks of ``labels()`` run once per distinct key (a
        #: bounded set: routes are templates).
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def _child(self, method: str, path: str, status: int) -> tuple[Any, Any]:
        route = self.templates.label(path, status)
        key = (method, route, status)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = (
                REQUESTS.labels(method, route, str(status)),
                DURATION.labels(method, route),
            )
        return found

    def __call__(self, environ: dict, start_response: StartResponse) -> Any:
        started = time.perf_counter()
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in METHODS:
            method = "other"
        counted = False

        def start(status: str, headers: list, exc_info: Any = None) -> Any:
            nonlocal counted
            if not counted:
                counted = True
                try:
                    code = int(status[:3])
                except ValueError:
                    code = 0
                counter, histogram = self._child(
                    method, environ.get("PATH_INFO") or "/", code
                )
                counter.inc()
                histogram.observe(time.perf_counter() - started)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
