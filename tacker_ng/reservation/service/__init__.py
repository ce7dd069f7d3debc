"""The reservation service inside a conductor: RPC endpoint, periodic
lease events and host checks, both run by the elected leader only."""

from __future__ import annotations

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import coordination, periodic
from tacker_ng.reservation import nova
from tacker_ng.reservation.service import endpoint, events, monitor

LOG = logging.getLogger(__name__)

#: The coordination duty (leader election) of lease events and host checks.
DUTY = "reservation"


class ReservationService:
    """One conductor's share of the reservation service."""

    def __init__(
        self,
        conf: cfg.ConfigOpts,
        host: str,
        coordinator: coordination.Coordinator,
    ) -> None:
        self.conf = conf
        self.host = host
        self.leader = coordinator.leader(DUTY)
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

    def periodic_jobs(self) -> list[periodic.PeriodicJob]:
        """Lease events and host checks, run by the duty's leader."""
        jobs = [
            periodic.PeriodicJob(
                "lease_events",
                self.conf.reservation.event_interval,
                self.runner.run_due,
                leader=DUTY,
            )
        ]
        interval = self.conf.reservation.host_failure_check_interval
        if interval:
            jobs.append(
                periodic.PeriodicJob(
                    "host_failures",
                    interval,
                    lambda: monitor.check_hosts(self.nova),
                    leader=DUTY,
                    run_immediately=False,
                )
            )
        return jobs
