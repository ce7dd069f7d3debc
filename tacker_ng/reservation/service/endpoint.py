"""Conductor side of the ``reservation`` RPC namespace."""

from __future__ import annotations

import oslo_messaging as messaging
from oslo_log import log as logging

from tacker_ng import exceptions as base_exceptions
from tacker_ng.reservation import hosts, rpcapi, views

LOG = logging.getLogger(__name__)


class ReservationEndpoint:
    """RPC endpoint served by every conductor next to the core one."""

    target = messaging.Target(
        namespace=rpcapi.NAMESPACE, version=rpcapi.RPC_API_VERSION
    )

    def __init__(self, service) -> None:
        self.service = service

    @messaging.expected_exceptions(base_exceptions.TackerNgError)
    def register_host(self, context, name: str, extra: dict) -> dict:
        record = hosts.register(self.service.nova(), name, extra or {})
        LOG.info("Host %s joined the freepool", name)
        return views.host(record)

    @messaging.expected_exceptions(base_exceptions.TackerNgError)
    def delete_host(self, context, host_id: str) -> None:
        hosts.unregister(self.service.nova(), host_id)
        LOG.info("Host %s left the freepool", host_id)

    def wake_events(self, context) -> None:
        self.service.tick_events()
