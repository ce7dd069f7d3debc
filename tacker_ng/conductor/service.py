"""A running conductor: RPC server, heartbeat, graceful stop.

The RPC server uses oslo.messaging's threading executor; periodic work
(heartbeat now, lease events and convergence later) runs on a futurist
PeriodicWorker in its own thread.
"""

import threading
import time

import oslo_messaging as messaging
from futurist import periodics
from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import rpc
from tacker_ng.conductor import manager as conductor_manager
from tacker_ng.conductor import rpcapi
from tacker_ng.conductor.lcm import redispatch
from tacker_ng.db import conductors as conductors_db
from tacker_ng.nfvo import delivery
from tacker_ng.packages import onboarding
from tacker_ng.reservation import service as reservation_service

LOG = logging.getLogger(__name__)

#: Longest wait between two registration attempts at start-up (seconds).
REGISTER_BACKOFF_CAP = 30.0


class ConductorService:
    """One conductor: serves RPC and keeps its heartbeat row fresh."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.conf = conf
        self.host = conf.host
        self.manager = conductor_manager.ConductorManager(self.host)
        self._server: messaging.MessageHandlingServer | None = None
        self._periodic: periodics.PeriodicWorker | None = None
        self._periodic_thread: threading.Thread | None = None
        self._delivery = delivery.Deliverer(self.host, conf)

    def _periodic_tasks(self) -> list:
        @periodics.periodic(spacing=self.conf.conductor.heartbeat_interval)
        def heartbeat() -> None:
            try:
                if not conductors_db.heartbeat(self.host):
                    LOG.warning(
                        "Conductor row of %s vanished; registering again",
                        self.host,
                    )
                    conductors_db.register(self.host, rpcapi.RPC_API_VERSION)
            except Exception:
                LOG.exception("Heartbeat of conductor %s failed", self.host)

        @periodics.periodic(
            spacing=max(1, self.conf.conductor.lost_operation_timeout // 2)
        )
        def redispatch_lost_operations() -> None:
            try:
                redispatch.redispatch_lost(self.conf)
            except Exception:
                LOG.exception("Re-dispatching lost LCM operations failed")

        @periodics.periodic(
            spacing=max(10, self.conf.vnf_package.onboarding_timeout // 4)
        )
        def expire_interrupted_onboardings() -> None:
            try:
                onboarding.expire_stale(tcontext.get_admin_context())
            except Exception:
                LOG.exception("Expiring interrupted onboardings failed")

        reservations = reservation_service.for_host(self.conf, self.host)
        return [
            (heartbeat, None, None),
            (redispatch_lost_operations, None, None),
            (expire_interrupted_onboardings, None, None),
            *reservations.periodic_tasks(),
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
        """Start serving RPC, then register as alive, then heartbeat."""
        target = messaging.Target(
            topic=self.conf.conductor.topic,
            server=self.host,
            version=rpcapi.RPC_API_VERSION,
        )
        self._server = messaging.get_rpc_server(
            rpc.get_transport(self.conf),
            target,
            [
                self.manager,
                reservation_service.for_host(self.conf, self.host).endpoint,
            ],
            executor="threading",
            serializer=rpc.ContextSerializer(),
        )
        self._server.start()
        # Only a conductor that consumes from the bus is shown alive.
        self._register()
        self._periodic = periodics.PeriodicWorker(self._periodic_tasks())
        self._periodic_thread = threading.Thread(
            target=self._periodic.start,
            name="conductor-periodic",
            daemon=True,
        )
        self._periodic_thread.start()
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
        self._delivery.stop()
        if self._periodic is not None:
            self._periodic.stop()
            self._periodic.wait()
            self._periodic = None
        try:
            conductors_db.unregister(self.host)
        except Exception:
            LOG.exception("Could not mark conductor %s offline", self.host)
        LOG.info("Conductor %s stopped", self.host)
