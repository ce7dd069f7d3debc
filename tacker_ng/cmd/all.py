"""tacker-ng-all: API and conductor in one process (the embedded default).

With no configuration at all it keeps a SQLite database under
``[DEFAULT] state_path``, talks to its conductor over the in-process bus,
migrates the schema on start and creates an admin login.
"""

import sys
import threading

from cheroot import wsgi as cheroot_wsgi
from cheroot.ssl import builtin as cheroot_ssl
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import rpc, service
from tacker_ng.api import app as api_app
from tacker_ng.api import metrics as api_metrics
from tacker_ng.auth import tls
from tacker_ng.cmd import _embedded, _signals
from tacker_ng.cmd import api as api_cmd
from tacker_ng.conductor import service as conductor_service
from tacker_ng.db import migration
from tacker_ng.sandbox import children as sandbox_children
from tacker_ng.sandbox import cloud as sandbox_cloud
from tacker_ng.sandbox import walkthrough

LOG = logging.getLogger(__name__)


def banner(
    conf: cfg.ConfigOpts,
    password_file: str | None,
    sandbox: sandbox_cloud.Sandbox | None = None,
) -> str:
    """What an operator needs to start using the service."""
    host = conf.api.host_ip
    scheme = "https" if tls.enabled(conf) else "http"
    url = f"{scheme}://{f'[{host}]' if ':' in host else host}:{conf.api.port}"
    lines = [
        f"tacker-ng is serving {url}/ (API and conductor in one process)",
        f"  database:  {conf.database.connection}",
        f"  transport: {conf.transport_url}",
        f"  auth:      {conf.api.auth_strategy}",
    ]
    if password_file:
        lines += [
            f"  login:     user '{_embedded.ADMIN_USER}', password in "
            f"{password_file}",
            f"  try:       curl -u {_embedded.ADMIN_USER}:$(cat "
            f"{password_file}) {url}/vnflcm/v2/api_versions",
        ]
    elif conf.api.auth_strategy == "noauth":
        lines.append(f"  try:       curl {url}/vnflcm/v2/api_versions")
    if sandbox is not None:
        zones = ", ".join(conf.sandbox.zones)
        lines += [
            "",
            "SANDBOX: simulated cloud, not for production "
            f"(state in {sandbox.state_dir})",
            f"  default VIM '{sandbox_cloud.VIM_NAME}': a simulated "
            f"Kubernetes cluster, {conf.sandbox.kubernetes_nodes} nodes "
            f"in {zones}",
        ]
        if sandbox.nova is not None:
            lines.append(
                "  reservations: a simulated Nova, one compute host per zone"
            )
        lines += ["", "A first VNF (paste in order):"]
        lines += [
            f"  {line}"
            for line in walkthrough.commands(
                url, password_file, sandbox.state_dir
            )
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    conf = service.prepare_service(sys.argv[1:] if argv is None else argv)
    try:
        tls.check_files(conf)
    except ValueError as exc:
        sys.exit(f"tacker-ng-all: {exc}")
    password_file = _embedded.ensure_admin_credentials(conf)
    migration.upgrade()
    sandbox = None
    if conf.sandbox.enabled:
        try:
            sandbox = sandbox_cloud.start(conf)
        except (
            sandbox_cloud.SandboxUnavailable,
            sandbox_children.ChildFailed,
        ) as exc:
            sys.exit(f"tacker-ng-all: cannot start the sandbox: {exc}")
    conductor = conductor_service.ConductorService(conf)
    conductor.start()
    server = cheroot_wsgi.Server(
        (conf.api.host_ip, conf.api.port),
        api_app.build_wsgi_app(conf),
        numthreads=conf.api.threads,
        server_name="tacker-ng-all",
    )
    context = tls.server_context(conf)
    if context is not None:
        adapter = cheroot_ssl.BuiltinSSLAdapter(
            conf.api.ssl_cert_file, conf.api.ssl_key_file or None
        )
        adapter.context = context
        server.ssl_adapter = adapter
    try:
        server.prepare()
    except OSError as exc:
        conductor.stop(graceful=False)
        if sandbox is not None:
            sandbox.stop()
        sys.exit(
            "tacker-ng-all: cannot listen on "
            f"{api_cmd.bind_address(conf.api.host_ip, conf.api.port)}: {exc}"
        )
    serving = threading.Thread(target=server.serve, name="api-server")
    serving.start()
    api_metrics.start_listener(conf)
    print(banner(conf, password_file, sandbox), flush=True)
    signum = _signals.wait_for_stop_signal()
    LOG.info("Signal %s received, stopping", signum)
    server.stop()
    serving.join(30)
    conductor.stop(graceful=True)
    if sandbox is not None:
        sandbox.stop()
    rpc.cleanup()
