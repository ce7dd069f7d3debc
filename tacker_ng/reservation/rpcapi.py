"""Client of the conductors' ``reservation`` RPC namespace (API side).

Only what needs Nova goes over the bus: registering and removing hosts
(calls, answered by any conductor) and waking the lease event loop (a
fanout cast: the leader acts, the others ignore it). Domain errors come
back as ``RemoteError`` and are turned into the same exceptions again.

History:
    1.0 - register_host, delete_host, wake_events.
"""

from __future__ import annotations

import oslo_messaging as messaging
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import exceptions as base_exceptions
from tacker_ng import release_mappings, rpc
from tacker_ng.reservation import exceptions

LOG = logging.getLogger(__name__)

NAMESPACE = "reservation"
RPC_API_VERSION = "1.0"
#: Seconds a host registration may take (Nova and Placement calls).
CALL_TIMEOUT = 60


def _reraise(exc: messaging.RemoteError) -> None:
    cls = getattr(exceptions, exc.exc_type or "", None) or getattr(
        base_exceptions, exc.exc_type or "", None
    )
    if isinstance(cls, type) and issubclass(
        cls, base_exceptions.TackerNgError
    ):
        raise cls(detail=exc.value) from None
    LOG.error("Conductor failed: %s", exc.exc_type)
    raise base_exceptions.TackerNgError() from None


class ReservationAPI:
    """Versioned client of :class:`~.endpoint.ReservationEndpoint`."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        target = messaging.Target(
            topic=conf.conductor.topic,
            namespace=NAMESPACE,
            version=RPC_API_VERSION,
        )
        self._client = messaging.get_rpc_client(
            rpc.get_transport(conf),
            target,
            version_cap=release_mappings.version_cap(
                release_mappings.RESERVATION, conf
            ),
            serializer=rpc.ContextSerializer(),
        )

    def _call(self, context, method: str, **kwargs):
        cctxt = self._client.prepare(version="1.0", timeout=CALL_TIMEOUT)
        try:
            return cctxt.call(context, method, **kwargs)
        except messaging.RemoteError as exc:
            _reraise(exc)
        except messaging.MessagingTimeout as exc:
            raise base_exceptions.ServiceUnavailable(
                "No conductor answered in time."
            ) from exc

    def register_host(self, context, name: str, extra: dict) -> dict:
        """Register a Nova hypervisor; returns the Blazar host body."""
        return self._call(context, "register_host", name=name, extra=extra)

    def delete_host(self, context, host_id: str) -> None:
        """Remove a host without reservations from the freepool."""
        self._call(context, "delete_host", host_id=host_id)

    def wake_events(self, context) -> None:
        """Ask the leader to run due lease events now (best effort)."""
        try:
            cctxt = self._client.prepare(version="1.0", fanout=True)
            cctxt.cast(context, "wake_events")
        except messaging.MessagingException:
            LOG.warning("Could not wake the lease event loop", exc_info=True)


_API: ReservationAPI | None = None


def get_api() -> ReservationAPI:
    """The process-wide client (created on first use, after config)."""
    global _API  # noqa: PLW0603
    if _API is None:
        _API = ReservationAPI()
    return _API


def reset() -> None:
    """Forget the client (tests; after the transport was cleaned up)."""
    global _API  # noqa: PLW0603
    _API = None
