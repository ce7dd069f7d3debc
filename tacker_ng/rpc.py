"""oslo.messaging plumbing: one transport per process, context serializer."""

import oslo_messaging as messaging
from oslo_config import cfg

from tacker_ng import context as tcontext

_TRANSPORT: messaging.Transport | None = None

#: The in-process bus of the embedded default (tacker-ng-all only).
EMBEDDED_TRANSPORT_URL = "fake:/"


class ContextSerializer(messaging.NoOpSerializer):
    """Carry :class:`~tacker_ng.context.RequestContext` as a dict."""

    def serialize_context(self, context):
        return context.to_dict()

    def deserialize_context(self, context):
        return tcontext.RequestContext.from_dict(context)


def get_transport(conf: cfg.ConfigOpts = cfg.CONF) -> messaging.Transport:
    """The process-wide RPC transport from ``[DEFAULT] transport_url``."""
    global _TRANSPORT  # noqa: PLW0603
    if _TRANSPORT is None:
        _TRANSPORT = messaging.get_rpc_transport(conf)
    return _TRANSPORT


def transport_is_in_process(conf: cfg.ConfigOpts = cfg.CONF) -> bool:
    """True when the bus only reaches this very process (``fake://``)."""
    url = messaging.TransportURL.parse(conf, conf.transport_url)
    return url.transport == "fake"


def cleanup() -> None:
    """Close the transport (on shutdown and between tests)."""
    global _TRANSPORT  # noqa: PLW0603
    if _TRANSPORT is not None:
        _TRANSPORT.cleanup()
        _TRANSPORT = None
