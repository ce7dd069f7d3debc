"""tacker-ng-conductor: serve the conductor RPC API until SIGTERM."""

import sys

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import rpc, service
from tacker_ng.cmd import _signals
from tacker_ng.conductor import service as conductor_service
from tacker_ng.db import migration

LOG = logging.getLogger(__name__)


def check_shared_transport(conf: cfg.ConfigOpts, prog: str) -> None:
    """Refuse the in-process bus in a process that must share one."""
    if rpc.transport_is_in_process(conf):
        sys.exit(
            f"{prog}: [DEFAULT] transport_url is '{conf.transport_url}', "
            "the in-process bus of tacker-ng-all. Separate API and "
            "conductor processes need a shared bus, e.g. "
            "transport_url = rabbit://user:password@host:5672/"
        )


def check_schema(prog: str) -> None:
    """Exit with a clear message when the DB schema is not current."""
    try:
        current, head = migration.current(), migration.head()
    except Exception as exc:  # noqa: BLE001 - reported, then exit
        sys.exit(f"{prog}: cannot reach the database: {exc}")
    if current != head:
        sys.exit(
            f"{prog}: database schema is at {current or 'nothing'}, this "
            f"code needs {head}; run 'tacker-ng-db-manage upgrade'."
        )


def main(argv: list[str] | None = None) -> None:
    conf = service.prepare_service(sys.argv[1:] if argv is None else argv)
    check_shared_transport(conf, "tacker-ng-conductor")
    check_schema("tacker-ng-conductor")
    conductor = conductor_service.ConductorService(conf)
    conductor.start()
    signum = _signals.wait_for_stop_signal()
    LOG.info("Signal %s received, stopping", signum)
    conductor.stop(graceful=True)
    rpc.cleanup()
