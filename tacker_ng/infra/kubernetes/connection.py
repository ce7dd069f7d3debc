"""Kubernetes API clients from vimConnectionInfo (``ETSINFV.KUBERNETES.V_1``).

``interfaceInfo.endpoint`` is the API server URL, ``interfaceInfo.
ssl_ca_cert`` its CA certificate (PEM; ``skipCertificateVerification``
turns the check off); ``accessInfo`` carries a ``bearer_token``, a
client certificate ``client_cert`` + ``client_key`` (PEM), or both (a
cluster that wants mutual TLS and a token). The secrets
arrive decrypted from the conductor, go to the client only (PEM files
in a private directory removed with the client) and are never logged.
"""

import contextlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import Any

from kubernetes import client as k8s_client
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra.kubernetes import errors

LOG = logging.getLogger(__name__)
VIM_TYPE = "ETSINFV.KUBERNETES.V_1"


class CallTimer:
    """Seconds spent inside HTTP calls to the API server, and how many."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self._lock = threading.Lock()

    def add(self, seconds: float) -> None:
        with self._lock:
            self.seconds += seconds
            self.calls += 1


class TimedApiClient(k8s_client.ApiClient):
    """An ApiClient that adds each request's time to a :class:`CallTimer`
    (the driver's own overhead is the rest, see tools/bench/cnf.py)."""

    def __init__(self, configuration, timer: CallTimer) -> None:
        super().__init__(configuration)
        self.timer = timer

    def call_api(self, *args: Any, **kwargs: Any):
        start = time.perf_counter()
        try:
            response = super().call_api(*args, **kwargs)
            response.read()
            return response
        finally:
            self.timer.add(time.perf_counter() - start)


def _write(directory: str, name: str, pem: str) -> str:
    path = os.path.join(directory, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(pem)
    return path


def check(vim: dict[str, Any]) -> None:
    """422 unless ``vim`` names an endpoint and one way to authenticate."""
    if vim.get("vimType") != VIM_TYPE:
        raise errors.InvalidVimConnection(
            reason=f"vimType {vim.get('vimType')} is not {VIM_TYPE}"
        )
    interface = vim.get("interfaceInfo") or {}
    access = vim.get("accessInfo") or {}
    endpoint = interface.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint.startswith(
        ("https://", "http://")
    ):
        raise errors.InvalidVimConnection(
            reason="interfaceInfo.endpoint must be the API server's URL"
        )
    has_cert = access.get("client_cert") and access.get("client_key")
    if not (access.get("bearer_token") or has_cert):
        raise errors.InvalidVimConnection(
            reason="accessInfo needs bearer_token, or client_cert and "
            "client_key"
        )


@contextlib.contextmanager
def api_client(
    vim: dict[str, Any],
    timer: CallTimer | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> Iterator[TimedApiClient]:
    """A configured ApiClient for the duration of the ``with`` block."""
    check(vim)
    interface = vim.get("interfaceInfo") or {}
    access = vim.get("accessInfo") or {}
    configuration = k8s_client.Configuration()
    configuration.host = interface["endpoint"].rstrip("/")
    configuration.debug = False  # debug prints request headers (token)
    directory = tempfile.mkdtemp(prefix="tacker-ng-k8s-")
    try:
        if interface.get("skipCertificateVerification"):
            configuration.verify_ssl = False
        elif interface.get("ssl_ca_cert"):
            configuration.ssl_ca_cert = _write(
                directory, "ca.pem", interface["ssl_ca_cert"]
            )
        if access.get("bearer_token"):
            configuration.api_key = {"authorization": access["bearer_token"]}
            configuration.api_key_prefix = {"authorization": "Bearer"}
        if access.get("client_cert") and access.get("client_key"):
            configuration.cert_file = _write(
                directory, "client.pem", access["client_cert"]
            )
            configuration.key_file = _write(
                directory, "client.key", access["client_key"]
            )
        LOG.debug(
            "Kubernetes client for %s (bearer token: %s, client cert: %s)",
            configuration.host,
            bool(access.get("bearer_token")),
            bool(configuration.cert_file),
        )
        api = TimedApiClient(configuration, timer or CallTimer())
        try:
            yield api
        finally:
            api.close()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
