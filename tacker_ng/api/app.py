"""The WSGI application: middleware pipeline around the pecan app.

Outermost first: the request metrics, ProblemDetails + Version echo (and
the path and query string checks), request id, proxy headers, body size
limit, then ``/healthcheck`` and ``/`` without login and everything else
behind authentication (``/metrics`` then checks its policy) and the JSON
body guard, then pecan with the context, Version and error hooks.
"""

import functools
import json

import pecan
import webob
from oslo_config import cfg
from oslo_middleware import (
    healthcheck,
    http_proxy_to_wsgi,
    request_id,
    sizelimit,
)

from tacker_ng.api import (
    hooks,
    metrics,
    openapi,
    pecan_patches,
    rendering,
    sql_counter,
)
from tacker_ng.api.controllers import root
from tacker_ng.api.controllers.vnfpkgm import content as vnfpkgm_content
from tacker_ng.api.middleware import auth, dispatch, problem, sanity

HEALTHCHECK_PATH = "/healthcheck"
OPENAPI_PATH = "/openapi.json"
SANDBOX_HEADER = "X-Tacker-Ng-Sandbox"


@functools.cache
def _openapi_body() -> bytes:
    """The OpenAPI document as served, built once per process: it
    depends on the code only (about 10 ms of CPU per app built)."""
    return json.dumps(openapi.build_document(), sort_keys=True).encode()


def _openapi_app():
    """``GET /openapi.json``: the API's own OpenAPI document (no login,
    like ``/``; it describes the routes, not anyone's data)."""
    body = _openapi_body()

    def serve(environ, start_response):
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            resp = webob.Response(status=405, headers={"Allow": "GET"})
            return resp(environ, start_response)
        resp = webob.Response(
            body=body, content_type="application/json", charset=None
        )
        return resp(environ, start_response)

    return serve


def build_pecan_app() -> pecan.Pecan:
    """The bare pecan application (no middleware)."""
    pecan_patches.apply()
    return pecan.make_app(
        root.RootController(),
        hooks=[
            hooks.FormBodyHook(),
            hooks.ContextHook(),
            hooks.SolVersionHook(),
            hooks.ErrorHook(),
        ],
        custom_renderers={"json": rendering.JsonRenderer},
        default_renderer="json",
        force_canonical=False,
        guess_content_type_from_ext=False,
        debug=False,
        logging=False,
    )


def _may_have_body(environ) -> bool:
    """False for requests that announce no body (no Content-Length or 0,
    not chunked): the limiter would only wrap an empty stream."""
    length = environ.get("CONTENT_LENGTH")
    return bool(
        (length and length != "0")
        or "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    )


def _limit_bodies(app, conf: cfg.ConfigOpts):
    """oslo.middleware's request body limit, except for VNF package
    uploads: those are streamed to the package store by their controller,
    which enforces ``[vnf_package] max_archive_size`` while reading."""
    limited = sizelimit.RequestBodySizeLimiter(
        app, {"oslo_config_config": conf}
    )

    def route(environ, start_response):
        if vnfpkgm_content.is_upload(environ) or not _may_have_body(environ):
            return app(environ, start_response)
        return limited(environ, start_response)

    return route


def build_wsgi_app(conf: cfg.ConfigOpts = cfg.CONF):
    """The full WSGI application as configured in ``conf``."""
    api = build_pecan_app()
    guarded = sanity.JsonBodyGuard(api, conf)
    if conf.metrics.enabled:
        # Behind authentication; the app checks its policy itself.
        guarded = dispatch.PathRouter(
            guarded, {metrics.METRICS_PATH: metrics.metrics_app(conf)}
        )
    app = dispatch.PathRouter(
        auth.wrap(guarded, conf),
        {
            # The list of APIs and the load balancer probe need no login.
            "/": api,
            OPENAPI_PATH: _openapi_app(),
            HEALTHCHECK_PATH: healthcheck.Healthcheck(
                None, {"oslo_config_config": conf}
            ),
        },
    )
    app = _limit_bodies(app, conf)
    if conf.api.enable_proxy_headers_parsing:
        app = http_proxy_to_wsgi.HTTPProxyToWSGI(
            app, {"oslo_config_config": conf}
        )
    app = request_id.RequestId(app)
    app = problem.ProblemDetailsMiddleware(app)
    if conf.sandbox.enabled:
        app = _sandbox_header(app)
    app = sql_counter.wrap(app)  # only with TACKER_NG_COUNT_SQL=1
    # Outermost: counts every answer as the client gets it.
    return metrics.wrap(app, conf)


def _sandbox_header(app):
    """Say on every response that this is a sandbox (simulated cloud)."""

    def serve(environ, start_response):
        def start(status, headers, exc_info=None):
            headers = [*headers, (SANDBOX_HEADER, "true")]
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return serve
