"""Pods' metrics through the API server's pod proxy.

Simulated pods run no process, so nothing in them could be scraped. A
real cluster's Prometheus can scrape any pod through kube-apiserver's
proxy subresource, ``GET /api/v1/namespaces/<ns>/pods/<name>[:<port>]
/proxy/<path>``, with the API server's address, CA and a bearer token;
the simulator answers that same request for ``<path>`` = ``metrics``
itself, with node-exporter-shaped series of the pod
(:mod:`tools.simcloud.exporter.nodemetrics`, as a node-exporter sidecar
would serve them), so tacker-ng's measurement table reads pods and VMs
with the same PromQL. A scrape target for a pod (file_sd) is therefore::

    {"targets": ["127.0.0.1:<simk8s port>"],
     "labels": {"__metrics_path__":
                    "/api/v1/namespaces/default/pods/<pod>/proxy/metrics",
                "vnfInstanceId": "...", "vnfcId": "<pod>"}}

in a job with ``scheme: https``, ``tls_config: {ca_file: <ca.crt>}`` and
``authorization: {credentials_file: <token>}``. A pod that is not
Running answers 503, as the real proxy does when nothing listens.

Values start from the pod's spec (CPUs and memory from its containers'
limits, else requests) and are set by tests through the control API:
``PUT|PATCH|GET /simcloud/v1/namespaces/<ns>/pods/<name>/metrics`` with
the exporter's spec. A pod created again under the same name (a new
uid) starts from fresh counters, like a restarted container.
"""

from __future__ import annotations

import math
from typing import Any

from aiohttp import web

from tools.simcloud.exporter.nodemetrics import InvalidSpec, NodeMetrics
from tools.simcloud.k8s import errors, quantity
from tools.simcloud.k8s.resources import lookup

PODS = lookup("", "v1", "pods")
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"


def _totals(pod: dict) -> tuple[int, float | None]:
    """CPUs (rounded up, at least 1) and memory bytes of a pod's spec."""
    cpu = 0.0
    memory = 0.0
    for container in pod.get("spec", {}).get("containers") or []:
        resources = container.get("resources") or {}
        amounts = {
            **(resources.get("requests") or {}),
            **(resources.get("limits") or {}),
        }
        if "cpu" in amounts:
            cpu += float(quantity.parse(amounts["cpu"]))
        if "memory" in amounts:
            memory += float(quantity.parse(amounts["memory"]))
    return max(1, math.ceil(cpu)), (memory or None)


class PodMetrics:
    """Each pod's :class:`NodeMetrics`, by uid."""

    def __init__(self) -> None:
        self._by_uid: dict[str, NodeMetrics] = {}

    def of(self, pod: dict) -> NodeMetrics:
        uid = pod["metadata"]["uid"]
        metrics = self._by_uid.get(uid)
        if metrics is None:
            metrics = NodeMetrics()
            cpus, memory = _totals(pod)
            spec: dict[str, Any] = {"cpus": cpus}
            if memory:
                spec["memory"] = {
                    "MemTotal": memory,
                    "MemAvailable": memory * 0.75,
                    "MemFree": memory * 0.5,
                }
            metrics.apply(spec)
            self._by_uid[uid] = metrics
        return metrics

    def forget_missing(self, live_uids: set[str]) -> None:
        """Drop the metrics of pods that no longer exist."""
        for uid in set(self._by_uid) - live_uids:
            del self._by_uid[uid]


def registry(cluster: Any) -> PodMetrics:
    """The cluster's pod metrics (made on first use)."""
    found = getattr(cluster, "pod_metrics", None)
    if found is None:
        found = cluster.pod_metrics = PodMetrics()
    return found


def _pod_name(segment: str) -> str:
    """``[scheme:]name[:port]`` of the proxy path -> the pod's name."""
    pieces = segment.split(":")
    if len(pieces) == 3:
        return pieces[1]
    if len(pieces) == 2 and not pieces[1].isdigit():
        return pieces[1]  # scheme:name
    return pieces[0]


def proxy_path(namespace: str, name: str) -> str:
    """The pod's metrics path on the API server (``__metrics_path__``)."""
    return f"/api/v1/namespaces/{namespace}/pods/{name}/proxy/metrics"


def is_proxy(parts: list[str]) -> bool:
    """``/api/v1/namespaces/<ns>/pods/<name>/proxy[/...]``?"""
    return (
        len(parts) >= 7
        and parts[:3] == ["api", "v1", "namespaces"]
        and parts[4] == "pods"
        and parts[6] == "proxy"
    )


def proxy(
    cluster: Any, request: web.Request, parts: list[str]
) -> web.Response:
    """Answer a pod proxy request (only ``metrics`` is served)."""
    if request.method not in ("GET", "HEAD"):
        raise errors.method_not_allowed()
    namespace, name = parts[3], _pod_name(parts[5])
    pod = cluster.store.must_get(PODS, namespace, name)
    if (pod.get("status") or {}).get("phase") != "Running":
        raise errors.ApiError(
            503,
            "ServiceUnavailable",
            f"error trying to reach service: pod {name} is not running",
            {},
        )
    if parts[7:] != ["metrics"]:
        raise errors.ApiError(
            404, "NotFound", f"pod {name} serves only /metrics", {}
        )
    text = registry(cluster).of(pod).render()
    return web.Response(
        body=text.encode(), headers={"Content-Type": TEXT_FORMAT}
    )


async def control(
    cluster: Any, request: web.Request, namespace: str, name: str
) -> web.Response:
    """``/simcloud/v1/namespaces/<ns>/pods/<name>/metrics``: show (GET),
    set (PUT, PATCH: both merge) the pod's values."""
    from tools.simcloud.k8s.rest import read_body, respond

    pod = cluster.store.must_get(PODS, namespace, name)
    pods = registry(cluster)
    pods.forget_missing(
        {p["metadata"]["uid"] for p in cluster.store.list(PODS)}
    )
    metrics = pods.of(pod)
    if request.method in ("PUT", "PATCH"):
        body = await read_body(request) or {}
        try:
            metrics.apply(body)
        except InvalidSpec as exc:
            raise errors.bad_request(str(exc)) from exc
    elif request.method != "GET":
        raise errors.method_not_allowed()
    return respond(
        {
            "pod": name,
            "namespace": namespace,
            "path": proxy_path(namespace, name),
            "values": metrics.snapshot(),
        }
    )
