"""The reservation service inside a conductor: RPC endpoint, periodic
lease events and host checks, both run by the elected leader only."""

from __future__ import annotations

import threading

from futurist import periodics
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.reservation import endpoint, events, leader, monitor, nova

LOG = logging.getLogger(__name__)


class ReservationService:
    """One conductor's share of the reservation service."""

    def __init__(self, conf: cfg.ConfigOpts, host: str) -> None:
        self.conf = conf
        self.host = host
        self.leader = leader.Leader(conf.coordination.backend_url, host)
        self.runner = events.EventRunner(host, self.nova)
        self.endpoint = endpoint.ReservationEndpoint(self)

    def nova(self) -> nova.NovaGateway:
        return nova.get_gateway()

    def tick_events(self) -> int:
        """Run due lease events if this conductor leads."""
        if not self.leader.is_leader():
            return 0
        return self.runner.run_due()

    def check_hosts(self) -> dict | None:
        """Check the freepool hosts in Nova if this conductor leads."""
        if not self.leader.is_leader():
            return None
        return monitor.check_hosts(self.nova)

    def periodic_tasks(self) -> list:
        """futurist periodic callables for the conductor's worker."""

        @periodics.periodic(spacing=self.conf.reservation.event_interval)
        def lease_events() -> None:
            try:
                self.tick_events()
            except Exception:
                LOG.exception("Lease event loop failed")

        tasks = [(lease_events, None, None)]
        interval = self.conf.reservation.host_failure_check_interval
        if interval:

            @periodics.periodic(spacing=interval, run_immediately=False)
            def host_failures() -> None:
                try:
                    self.check_hosts()
                except Exception:
                    LOG.exception("Host failure check failed")

            tasks.append((host_failures, None, None))
        return tasks


_SERVICES: dict[str, ReservationService] = {}
_LOCK = threading.Lock()


def for_host(conf: cfg.ConfigOpts, host: str) -> ReservationService:
    """The reservation service of the conductor named ``host``."""
    with _LOCK:
        if host not in _SERVICES:
            _SERVICES[host] = ReservationService(conf, host)
        return _SERVICES[host]
