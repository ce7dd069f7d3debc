"""Batched observation of one Kubernetes VIM (``ETSINFV.KUBERNETES.V_1``).

One cycle costs, per VIM, one paged pod list per namespace holding
observed CNFs (``list_namespaced_pod`` with ``limit``/``_continue``: one
call per ``[convergence] page_size`` pods) plus one paged node list for
the nodes' Ready condition and zone: never one call per pod or per VNF.

A pod is mapped onto an :class:`~.drift.ObservedServer` keyed
``namespace/name``: status ``ACTIVE`` when its Ready condition is True,
``NOT_READY`` when it runs but is not Ready, ``ERROR`` when its phase is
Failed (or Succeeded: a workload's pod that exited), ``UNSCHEDULABLE``
when Pending with no node the scheduler could place it on (drift),
``BUILD`` while otherwise Pending and ``TERMINATING`` once deleted (both
transitional); ``host`` is its node, ``owner`` the workload controlling
it.
"""

import json
from collections.abc import Iterable
from typing import Any

import urllib3
from kubernetes import client as k8s_client
from kubernetes.client import exceptions as k8s_exc
from oslo_config import cfg

from tacker_ng.convergence.drift import ObservedServer
from tacker_ng.convergence.nova import VimListing
from tacker_ng.infra.kubernetes import connection, readiness
from tacker_ng.infra.kubernetes import errors as k8s_errors
from tacker_ng.infra.kubernetes.info import ZONE_LABEL
from tacker_ng.infra.openstack import errors

#: The label a Deployment's ReplicaSet puts on its pods; the ReplicaSet
#: is named ``<deployment>-<hash>``.
TEMPLATE_HASH = "pod-template-hash"


def is_kubernetes(vim: dict[str, Any]) -> bool:
    return vim.get("vimType") == connection.VIM_TYPE


def owner_of(pod: dict[str, Any]) -> str:
    """The workload controlling ``pod`` as ``Kind/name``: a ReplicaSet of
    a Deployment counts as its Deployment; a bare pod is its own."""
    meta = pod.get("metadata") or {}
    for ref in meta.get("ownerReferences") or []:
        if not ref.get("controller"):
            continue
        kind, name = ref.get("kind", ""), ref.get("name", "")
        digest = (meta.get("labels") or {}).get(TEMPLATE_HASH)
        if kind == "ReplicaSet" and digest and name.endswith(f"-{digest}"):
            return f"Deployment/{name[: -len(digest) - 1]}"
        return f"{kind}/{name}"
    return f"Pod/{meta.get('name', '')}"


def _ready(obj: dict[str, Any]) -> bool:
    for cond in (obj.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "Ready":
            return cond.get("status") == "True"
    return False


def pod_status(pod: dict[str, Any]) -> str:
    """The pod's state in the observer's (Nova-like) vocabulary."""
    if (pod.get("metadata") or {}).get("deletionTimestamp"):
        return "TERMINATING"
    phase = (pod.get("status") or {}).get("phase")
    if phase in ("Failed", "Succeeded"):
        return "ERROR"
    if _ready(pod):
        return "ACTIVE"
    if phase == "Pending" or phase is None:
        # The scheduler found no node for it: not on its way, a fault.
        return "UNSCHEDULABLE" if readiness.unschedulable(pod) else "BUILD"
    return "NOT_READY"


def observed_pod(
    pod: dict[str, Any], zones: dict[str, str | None]
) -> ObservedServer:
    meta = pod["metadata"]
    node = (pod.get("spec") or {}).get("nodeName")
    return ObservedServer(
        id=meta["name"],
        status=pod_status(pod),
        host=node,
        zone=zones.get(node) if node else None,
        owner=owner_of(pod),
    )


class KubernetesLister:
    """Lists the pods of some namespaces and the nodes of one cluster."""

    def __init__(
        self, vim: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
    ) -> None:
        self.vim = vim
        self.conf = conf
        self.page_size = conf.convergence.page_size
        self.timeout = conf.kubernetes.request_timeout
        self.calls = 0

    def _pages(self, call: Any, *args: Any) -> list[dict[str, Any]]:
        """Every item of a list call, ``page_size`` at a time. Raw JSON
        (``_preload_content=False``): no model objects for 10,000 pods."""
        items: list[dict[str, Any]] = []
        token = None
        while True:
            self.calls += 1
            kwargs: dict[str, Any] = {
                "limit": self.page_size,
                "_preload_content": False,
                "_request_timeout": self.timeout,
            }
            if token:
                kwargs["_continue"] = token
            body = json.loads(call(*args, **kwargs).data)
            items.extend(body.get("items") or [])
            token = (body.get("metadata") or {}).get("continue")
            if not token:
                return items

    def listing(self, namespaces: Iterable[str]) -> VimListing:
        """One observation: pods of ``namespaces`` and node readiness."""
        try:
            with connection.api_client(self.vim, conf=self.conf) as api:
                core = k8s_client.CoreV1Api(api)
                nodes = self._pages(core.list_node)
                zones = {
                    n["metadata"]["name"]: (
                        n["metadata"].get("labels") or {}
                    ).get(ZONE_LABEL)
                    for n in nodes
                }
                servers = {}
                for namespace in sorted(set(namespaces)):
                    for pod in self._pages(
                        core.list_namespaced_pod, namespace
                    ):
                        seen = observed_pod(pod, zones)
                        servers[f"{namespace}/{seen.id}"] = seen
        except k8s_errors.InvalidVimConnection as exc:
            raise errors.InvalidVimConnection(reason=str(exc)) from exc
        except (k8s_exc.ApiException, urllib3.exceptions.HTTPError) as exc:
            raise errors.VimError(
                reason=f"Kubernetes list: {getattr(exc, 'status', '')} "
                f"{getattr(exc, 'reason', exc)}"
            ) from exc
        hosts_up = {
            n["metadata"]["name"]: _ready(n)
            for n in nodes  # NotReady node -> False
        }
        return VimListing(servers, hosts_up, self.calls)


def kubernetes_lister(
    vim: dict[str, Any], namespaces: Iterable[str]
) -> VimListing:
    return KubernetesLister(vim).listing(namespaces)
