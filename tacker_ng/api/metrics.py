"""``GET /metrics``: tacker-ng's own metrics for Prometheus.

Served behind the API's authentication like every resource, and allowed
by the policy ``tacker_ng:metrics:show`` (admins by default: the figures
are the whole fleet's, every project's together). Prometheus logs in as
the API's other clients do: ``basic_auth`` (http_basic), ``oauth2``
client credentials (oauth2, external_oauth2) or a client certificate
(mutual TLS). Where it cannot (auth_strategy keystone), ``[metrics]
listen_port`` serves the same text without login on a loopback port
(:func:`start_listener`).

The request counters are wired in by :func:`wrap`; what the database
knows is read per scrape by :class:`tacker_ng.metrics.fleet.
FleetCollector`.
"""

from __future__ import annotations

import functools
import os
import threading
from typing import Any

import prometheus_client
import webob
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import policies
from tacker_ng.api import errors, openapi
from tacker_ng.metrics import api_requests, fleet, routes

LOG = logging.getLogger(__name__)
METRICS_PATH = "/metrics"
RULE = "tacker_ng:metrics:show"


def scrape_registry(
    conf: cfg.ConfigOpts,
) -> prometheus_client.CollectorRegistry:
    """This API's request metrics and the fleet's, collected anew at
    each scrape."""
    return api_requests.registry(
        fleet.FleetCollector(conf.metrics.duration_window)
    )


def metrics_app(conf: cfg.ConfigOpts) -> Any:
    """The WSGI app of ``/metrics`` (behind authentication)."""
    registry = scrape_registry(conf)

    def serve(environ: dict, start_response: Any) -> Any:
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            resp = webob.Response(status=405, headers={"Allow": "GET"})
            return resp(environ, start_response)
        try:
            policies.authorize(
                tcontext.RequestContext.from_environ(environ), RULE, {}
            )
        except Exception as exc:
            return errors.from_exception(exc)(environ, start_response)
        body = prometheus_client.generate_latest(registry)
        resp = webob.Response(
            body=body,
            content_type=prometheus_client.CONTENT_TYPE_LATEST,
            charset=None,
        )
        return resp(environ, start_response)

    return serve


def wrap(app: Any, conf: cfg.ConfigOpts) -> Any:
    """Count and time every request ``app`` answers (when enabled)."""
    if not conf.metrics.enabled:
        return app
    return api_requests.RequestMetrics(app, _route_templates())


@functools.cache
def _route_templates() -> routes.RouteTemplates:
    """The routes' templates (read-only once built), built once per
    process from the OpenAPI document, which depends on the code only."""
    return routes.RouteTemplates(
        [*openapi.build_document()["paths"], *routes.EXTRA_TEMPLATES]
    )


def multiprocess_dir(conf: cfg.ConfigOpts) -> str:
    """Where tacker-ng-api's workers share their metric values."""
    return conf.metrics.multiprocess_dir or os.path.join(
        conf.state_path, f"api-metrics-{conf.api.port}"
    )


def start_listener(conf: cfg.ConfigOpts) -> threading.Thread | None:
    """Serve the metrics without login on ``[metrics] listen_port``, if
    set (a daemon thread of the calling process)."""
    if not (conf.metrics.enabled and conf.metrics.listen_port):
        return None
    _server, thread = prometheus_client.start_http_server(
        conf.metrics.listen_port,
        addr=conf.metrics.listen_address,
        registry=scrape_registry(conf),
    )
    LOG.info(
        "Metrics served without login on %s:%s",
        conf.metrics.listen_address,
        conf.metrics.listen_port,
    )
    return thread
