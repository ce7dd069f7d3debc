"""tacker-ng-api: the REST API under gunicorn (pre-fork, threaded workers)."""

import gc
import ssl
import sys

from gunicorn.app import base as gunicorn_base
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import service
from tacker_ng.api import app as api_app
from tacker_ng.api import metrics as api_metrics
from tacker_ng.auth import tls
from tacker_ng.cmd import conductor as conductor_cmd
from tacker_ng.db import api as db_api
from tacker_ng.metrics import api_requests

LOG = logging.getLogger(__name__)


def bind_address(host: str, port: int) -> str:
    """gunicorn's bind string (IPv6 addresses in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class ApiServer(gunicorn_base.BaseApplication):
    """gunicorn application configured from ``[api]``, not from argv."""

    def __init__(self, conf: cfg.ConfigOpts) -> None:
        self.conf = conf
        super().__init__()

    def load_config(self) -> None:
        api = self.conf.api
        settings = {
            "bind": bind_address(api.host_ip, api.port),
            "workers": api.workers,
            "worker_class": "gthread",
            "threads": api.threads,
            "timeout": 120,
            "graceful_timeout": 30,
            "keepalive": 5,
            "proc_name": "tacker-ng-api",
            "accesslog": None,
            "post_fork": _post_fork,
            "when_ready": self._when_ready,
        }
        if tls.enabled(self.conf):
            settings.update(
                {
                    "certfile": api.ssl_cert_file,
                    "keyfile": api.ssl_key_file or api.ssl_cert_file,
                    "ssl_context": self._ssl_context,
                }
            )
        for key, value in settings.items():
            self.cfg.set(key, value)

    def _ssl_context(self, config, default_factory) -> ssl.SSLContext:
        """gunicorn's hook: the same context tacker-ng-all serves with
        (TLS 1.2+, client certificates required with a client CA)."""
        context = tls.server_context(self.conf)
        if context is None:  # pragma: no cover - only called with TLS
            return default_factory()
        return context

    def load(self):
        app = api_app.build_wsgi_app(self.conf)
        # Everything loaded so far (modules, the app, SQLAlchemy's
        # statement caches) lives as long as the worker: out of the
        # collector's sight, a full collection no longer walks ~165,000
        # objects (~150 ms) each time a page's allocations trigger one.
        gc.collect()
        gc.freeze()
        return app

    def _when_ready(self, server) -> None:
        """gunicorn's hook, in the master: the unauthenticated metrics
        listener ([metrics] listen_port) reads the workers' files."""
        api_metrics.start_listener(self.conf)


def _post_fork(server, worker) -> None:
    # Connections opened by the master must not be shared with workers.
    db_api.dispose()


def _scheme(conf: cfg.ConfigOpts) -> str:
    if not tls.enabled(conf):
        return "http"
    return (
        "https, client certificates required"
        if (conf.api.ssl_client_ca_file)
        else "https"
    )


def main(argv: list[str] | None = None) -> None:
    conf = service.prepare_service(sys.argv[1:] if argv is None else argv)
    conductor_cmd.check_shared_transport(conf, "tacker-ng-api")
    conductor_cmd.check_schema("tacker-ng-api")
    try:
        tls.check_files(conf)
    except ValueError as exc:
        sys.exit(f"tacker-ng-api: {exc}")
    db_api.dispose()
    if conf.metrics.enabled:
        # Before the workers fork: they count into files the scrape of
        # any one of them (and the master's listener) adds up.
        api_requests.use_multiprocess_dir(api_metrics.multiprocess_dir(conf))
    LOG.info(
        "tacker-ng-api listening on %s (%s) with %d workers",
        bind_address(conf.api.host_ip, conf.api.port),
        _scheme(conf),
        conf.api.workers,
    )
    ApiServer(conf).run()
