"""The cluster's API through the kubernetes client: node labels, nodes.

Labels go through the API (a strategic-merge patch of the Node), not a
shell on a VM: the value is data, never part of a command line.
"""

from __future__ import annotations

import re
from typing import Any

from kubernetes import client as k8s_client
from kubernetes.client.rest import ApiException

from tacker_ng.infra.kubernetes import connection
from tacker_ng.mgmt.kubernetes_cluster.commands import ClusterError

ZONE_LABEL = "kubernetes.io/zone"
_LABEL_VALUE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$")


def label_zone(vim: dict[str, Any], node: str, host: str | None) -> None:
    """``kubernetes.io/zone=<compute host>`` on ``node``."""
    if not host:
        raise ClusterError(
            reason=f"the compute host of node {node} is unknown: the VIM "
            "user cannot read OS-EXT-SRV-ATTR:host (Nova policy "
            "os_compute_api:os-extended-server-attributes)"
        )
    if not _LABEL_VALUE.match(host):
        raise ClusterError(
            reason=f"compute host {host!r} is not a valid label value"
        )
    body = {"metadata": {"labels": {ZONE_LABEL: host}}}
    with connection.api_client(vim) as api:
        try:
            k8s_client.CoreV1Api(api).patch_node(node, body)
        except ApiException as exc:
            raise ClusterError(
                reason=f"labelling node {node}: {exc.status} {exc.reason}"
            ) from None


def node_names(vim: dict[str, Any]) -> set[str]:
    with connection.api_client(vim) as api:
        try:
            nodes = k8s_client.CoreV1Api(api).list_node()
        except ApiException as exc:
            raise ClusterError(
                reason=f"listing nodes: {exc.status} {exc.reason}"
            ) from None
    return {n.metadata.name for n in nodes.items}
