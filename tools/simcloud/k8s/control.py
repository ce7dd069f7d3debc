"""The simulator's own API (``/simcloud/v1``): fault injection and state.

- ``GET  /simcloud/v1/state``
- ``GET  /simcloud/v1/requests`` (requests served so far, by
  ``METHOD /path``, `` paged`` appended when ``limit`` was given)
- ``POST /simcloud/v1/nodes`` (body: a node spec, see nodes.py)
- ``POST /simcloud/v1/nodes/<name>/notready`` | ``/ready``
- ``POST /simcloud/v1/nodes/<name>/kubelet`` (body ``{"running": false}``:
  the node's kubelet dies, see faults.py; ``true`` revives it)
- ``DELETE /simcloud/v1/nodes/<name>``
- ``POST /simcloud/v1/namespaces/<ns>/pods/<name>/crashloop``
  (body ``{"enabled": true, "containers": [...]}``)
- ``PUT  /simcloud/v1/config`` (body: any of the timing fields)
- ``GET|PUT|PATCH /simcloud/v1/namespaces/<ns>/pods/<name>/metrics``
  (the values the pod's proxied ``/metrics`` serves, see podmetrics.py)
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import errors, podmetrics
from tools.simcloud.k8s import nodes as nodes_mod
from tools.simcloud.k8s.resources import lookup

PODS = lookup("", "v1", "pods")
NODES = lookup("", "v1", "nodes")
TIMINGS = ("ready_delay", "terminate_delay", "crash_interval", "heartbeat")


def _json(body: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        content_type="application/json",
    )


async def _body(request: web.Request) -> dict:
    if not request.can_read_body:
        return {}
    try:
        data = await request.json()
    except ValueError as exc:
        raise errors.bad_request(f"invalid JSON: {exc}") from exc
    return data or {}


async def handle(
    cluster: Any, request: web.Request, parts: list[str]
) -> web.Response:
    if parts[:1] != ["v1"]:
        raise errors.ApiError(404, "NotFound", "no such simcloud path", {})
    parts, method = parts[1:], request.method
    store = cluster.store
    if parts == ["state"] and method == "GET":
        pods = store.list(PODS)
        return _json(
            {
                "passes": cluster.passes,
                "resourceVersion": store.rv,
                "nodes": len(store.list(NODES)),
                "pods": len(pods),
                "config": {k: getattr(cluster.config, k) for k in TIMINGS},
            }
        )
    if parts == ["requests"] and method == "GET":
        return _json(dict(cluster.requests))
    if parts == ["config"] and method == "PUT":
        body = await _body(request)
        for key in TIMINGS:
            if key in body:
                setattr(cluster.config, key, float(body[key]))
        return _json({k: getattr(cluster.config, k) for k in TIMINGS})
    if parts == ["nodes"] and method == "POST":
        spec = await _body(request)
        if not spec.get("name"):
            raise errors.bad_request("a node spec needs a name")
        node = store.create(
            NODES, nodes_mod.build(spec, len(store.list(NODES)))
        )
        cluster.kick()
        return _json(node, 201)
    if len(parts) == 2 and parts[0] == "nodes" and method == "DELETE":
        node = store.must_get(NODES, None, parts[1])
        store.remove(NODES, node)
        cluster.kick()
        return _json({"deleted": parts[1]})
    if (
        len(parts) == 3
        and parts[0] == "nodes"
        and method == "POST"
        and parts[2] in ("ready", "notready")
    ):
        node = cluster.kubelet.set_node_ready(parts[1], parts[2] == "ready")
        cluster.kick()
        return _json(node)
    if (
        len(parts) == 3
        and parts[0] == "nodes"
        and parts[2] == "kubelet"
        and method == "POST"
    ):
        body = await _body(request)
        running = body.get("running")
        if not isinstance(running, bool):
            raise errors.bad_request('the body needs "running": true|false')
        node = cluster.kubelet.set_kubelet_running(parts[1], running)
        cluster.kick()
        return _json(node)
    if (
        len(parts) == 5
        and parts[0] == "namespaces"
        and parts[2] == "pods"
        and parts[4] == "metrics"
    ):
        return await podmetrics.control(cluster, request, parts[1], parts[3])
    if (
        len(parts) == 5
        and parts[0] == "namespaces"
        and parts[2] == "pods"
        and parts[4] == "crashloop"
        and method == "POST"
    ):
        body = await _body(request)
        pod = store.must_get(PODS, parts[1], parts[3])
        cluster.kubelet.crash_loop(
            pod, body.get("containers"), bool(body.get("enabled", True))
        )
        cluster.kick()
        return _json(
            {"pod": parts[3], "crashloop": bool(body.get("enabled", True))}
        )
    raise errors.ApiError(404, "NotFound", "no such simcloud path", {})
