"""Pure helpers for the HAProxy in front of the masters' API servers.

Every master runs HAProxy (Debian ``haproxy``) whose backends are all the
masters; ``haproxy_backends.sh`` rewrites the list and reloads it. Its
arguments are built and checked here.
"""

from __future__ import annotations

from collections.abc import Iterable

from tacker_ng.mgmt.kubernetes_cluster.commands import (
    ClusterError,
    ip_address,
    node_name,
)

HAPROXY_BACKENDS = "Scripts/haproxy_backends.sh"
#: The port HAProxy listens on (the masters' API servers are on 6443).
PORT = 8383


def backends(masters: Iterable[tuple[str, str]]) -> list[str]:
    """``haproxy_backends.sh`` arguments: ``<node>=<address>`` per
    (node name, address) of ``masters``; at least one."""
    out = [f"{node_name(n)}={ip_address(a)}" for n, a in masters]
    if not out:
        raise ClusterError(reason="HAProxy would have no master backend")
    return out
