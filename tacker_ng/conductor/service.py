"""A running conductor: RPC server, periodic jobs, graceful stop.

The RPC server uses oslo.messaging's threading executor; periodic work
(its heartbeat and the periodic jobs every domain declares, see
:mod:`tacker_ng.periodic`) runs on a futurist PeriodicWorker thread.
"""

import functools
import threading
import time

import oslo_messaging as messaging
from futurist import periodics
from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng import coordination, periodic, rpc
from tacker_ng.conductor import manager as conductor_manager
from tacker_ng.conductor import rpcapi, vim_status, warmup
from tacker_ng.conductor.flows import jobs
from tacker_ng.conductor.operations import redispatch, resume, runner
from tacker_ng.convergence import service as convergence_service
from tacker_ng.db import conductors as conductors_db
from tacker_ng.metrics import conductor as conductor_metrics
from tacker_ng.nfvo import delivery
from tacker_ng.packages import onboarding
from tacker_ng.pm import service as pm_service
from tacker_ng.reservation import service as reservation_service

LOG = logging.getLogger(__name__)

#: Longest wait between two registration attempts at start-up (seconds).
REGISTER_BACKOFF_CAP = 30.0


class ConductorService:
    """One conductor: serves RPC and keeps its heartbeat row fresh."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.conf = conf
        self.host = conf.host
        self.jobs: jobs.JobBoard | None = None
        if conf.conductor.jobboard_url:
            self.jobs = jobs.JobBoard(
                conf,
                self.host,
                {
                    "run": functools.partial(runner.run, interruptible=True),
                    "rollback": functools.partial(
                        runner.rollback, interruptible=True
                    ),
                },
            )
        self.manager = conductor_manager.ConductorManager(self.host, self.jobs)
        self._server: messaging.MessageHandlingServer | None = None
        #: Periodic workers, each on its own thread (see :meth:`start`).
        self._periodic: list[periodics.PeriodicWorker] = []
        self._delivery = delivery.Deliverer(self.host, conf)
        self.coordinator = coordination.Coordinator(
            conf.coordination.backend_url, self.host
        )
        self.reservations = reservation_service.ReservationService(
            conf, self.host, self.coordinator
        )

    def _heartbeat(self) -> None:
        if not conductors_db.heartbeat(
            self.host, conductor_metrics.FIGURES.columns()
        ):
            LOG.warning(
                "Conductor row of %s vanished; registering again", self.host
            )
            conductors_db.register(self.host, rpcapi.RPC_API_VERSION)

    def _jobboard_depth(self) -> list[periodic.PeriodicJob]:
        """Count the jobboard's jobs for the heartbeat to report (on the
        periodic worker: a lost Redis must not hold the heartbeat)."""
        board = self.jobs
        if board is None:
            return []
        return [
            periodic.PeriodicJob(
                "jobboard_depth",
                self.conf.conductor.heartbeat_interval,
                lambda: conductor_metrics.FIGURES.jobboard(*board.depth()),
            )
        ]

    def periodic_jobs(self) -> list[periodic.PeriodicJob]:
        """This conductor's heartbeat and every domain's periodic jobs."""
        return [
            periodic.PeriodicJob(
                "heartbeat",
                self.conf.conductor.heartbeat_interval,
                self._heartbeat,
            ),
            *self._jobboard_depth(),
            *redispatch.periodic_jobs(self.conf),
            *vim_status.periodic_jobs(self.conf),
            *onboarding.periodic_jobs(self.conf),
            *self.reservations.periodic_jobs(),
            *convergence_service.periodic_jobs(
                self.conf,
                self.host,
                lambda ctx, occ_id: rpcapi.get_api().run_lcm_op(ctx, occ_id),
                lambda ctx, occ_id: rpcapi.get_api().rollback_lcm_op(
                    ctx, occ_id
                ),
            ),
            *pm_service.periodic_jobs(
                self.conf,
                self.host,
                lambda: convergence_service.live_conductors(self.conf),
                lambda ctx, occ_id: rpcapi.get_api().run_lcm_op(ctx, occ_id),
                lambda ctx, occ_id: rpcapi.get_api().rollback_lcm_op(
                    ctx, occ_id
                ),
            ),
        ]

    def _register(self) -> None:
        """Register as alive; a database that is down or busy delays the
        start (logged, with back-off), it never ends the process."""
        delay = 1.0
        while True:
            try:
                conductors_db.register(self.host, rpcapi.RPC_API_VERSION)
                return
            except db_exc.DBError as exc:
                LOG.warning(
                    "Conductor %s could not register (%s: %s); retrying "
                    "in %.0f s",
                    self.host,
                    type(exc).__name__,
                    exc,
                    delay,
                )
                time.sleep(delay)
                delay = min(delay * 2, REGISTER_BACKOFF_CAP)

    def start(self) -> None:
        """Start serving RPC, then register as alive, then heartbeat;
        warm up (drivers, database connections) on the side."""
        warmup.start(self.conf)
        target = messaging.Target(
            topic=self.conf.conductor.topic,
            server=self.host,
            version=rpcapi.RPC_API_VERSION,
        )
        self._server = messaging.get_rpc_server(
            rpc.get_transport(self.conf),
            target,
            [self.manager, self.reservations.endpoint],
            executor="threading",
            serializer=rpc.ContextSerializer(),
        )
        if self.jobs is not None:
            self.jobs.start()
        self._server.start()
        # Only a conductor that consumes from the bus is shown alive.
        self._register()
        if self.jobs is None:
            threading.Thread(
                target=resume.resume_own,
                args=(self.host,),
                name="conductor-resume",
                daemon=True,
            ).start()
        self.coordinator.start()
        # The heartbeat has a worker of its own: a PeriodicWorker runs its
        # jobs one after the other, and a job stuck on a dead service
        # (tooz retries a lost Redis for about a minute) would otherwise
        # stop the heartbeat and make a working conductor look dead.
        jobs = self.periodic_jobs()
        for name, group in (
            ("heartbeat", [j for j in jobs if j.name == "heartbeat"]),
            ("periodic", [j for j in jobs if j.name != "heartbeat"]),
        ):
            worker = periodics.PeriodicWorker(
                [periodic.as_futurist(j, self.coordinator) for j in group]
            )
            threading.Thread(
                target=worker.start, name=f"conductor-{name}", daemon=True
            ).start()
            self._periodic.append(worker)
        self._delivery.start()
        LOG.info(
            "Conductor %s serving topic %s (RPC API %s)",
            self.host,
            self.conf.conductor.topic,
            rpcapi.RPC_API_VERSION,
        )

    def stop(self, graceful: bool = True) -> None:
        """Stop taking work, let running calls finish, go offline."""
        timeout = self.conf.conductor.graceful_shutdown_timeout
        if self._server is not None:
            self._server.stop()
            if graceful:
                waiter = threading.Thread(target=self._server.wait)
                waiter.start()
                waiter.join(timeout)
                if waiter.is_alive():
                    LOG.warning(
                        "RPC calls still running after %ss; exiting anyway",
                        timeout,
                    )
            self._server = None
        if self.jobs is not None:
            self.jobs.stop(timeout if graceful else 0)
        self._delivery.stop()
        for worker in self._periodic:
            worker.stop()
        for worker in self._periodic:
            worker.wait()
        self._periodic = []
        self.coordinator.stop()
        try:
            conductors_db.unregister(self.host)
        except Exception:
            LOG.exception("Could not mark conductor %s offline", self.host)
        LOG.info("Conductor %s stopped", self.host)
