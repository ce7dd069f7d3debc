"""Subresources: status, scale (autoscaling/v1 Scale), eviction, binding,
log and namespace finalize."""

from __future__ import annotations

import copy
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import admission, deletion, errors
from tools.simcloud.k8s import labelsel as selectors

Obj = dict[str, Any]
MUTABLE_POD_FIELDS = (
    "pod updates may not change fields other than "
    "`spec.containers[*].image`,`spec.initContainers[*].image`,"
    "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to "
    "existing tolerations),`spec.terminationGracePeriodSeconds` (allow it "
    "to be set to 1 if it was previously negative)"
)


def check_pod_update(old: Obj, new: Obj) -> None:
    """ValidatePodUpdate: a pod's spec is immutable but for a few fields."""

    def strip(spec: Obj) -> Obj:
        spec = copy.deepcopy(spec)
        for group in ("containers", "initContainers"):
            for c in spec.get(group) or []:
                c.pop("image", None)
        spec.pop("activeDeadlineSeconds", None)
        spec.pop("tolerations", None)
        return spec

    old_spec, new_spec = old.get("spec") or {}, new.get("spec") or {}
    if old_spec.get("nodeName") and not new_spec.get("nodeName"):
        new_spec["nodeName"] = old_spec["nodeName"]
    if strip(old_spec) != strip(new_spec):
        raise errors.invalid(
            "Pod",
            "",
            old["metadata"]["name"],
            [errors.forbidden_field("spec", MUTABLE_POD_FIELDS)],
        )
    old_tol = old_spec.get("tolerations") or []
    if any(t not in (new_spec.get("tolerations") or []) for t in old_tol):
        raise errors.invalid(
            "Pod",
            "",
            old["metadata"]["name"],
            [
                errors.forbidden_field(
                    "spec.tolerations",
                    "existing toleration can not be "
                    "modified except its tolerationSeconds",
                )
            ],
        )


def scale_of(res: Any, obj: Obj) -> Obj:
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    meta = obj["metadata"]
    return {
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            k: meta[k]
            for k in (
                "name",
                "namespace",
                "uid",
                "resourceVersion",
                "creationTimestamp",
            )
            if k in meta
        },
        "spec": {"replicas": spec.get("replicas", 0)},
        "status": {
            "replicas": status.get("replicas", 0),
            "selector": selectors.to_string(spec.get("selector")),
        },
    }


def status_response(code: int = 201) -> Obj:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "code": code,
    }


async def handle(
    api: Any, request: web.Request, path: Any
) -> web.StreamResponse:
    from tools.simcloud.k8s.rest import read_body, respond

    res, sub, method = path.res, path.sub, request.method
    if sub not in res.subresources:
        raise errors.ApiError(
            404,
            "NotFound",
            "the server could not find the requested resource",
            {},
        )
    store = api.store
    obj = store.must_get(res, path.namespace, path.name)
    if sub == "status":
        if method == "GET":
            return respond(obj)
        body = await read_body(request)
        if method == "PUT":
            new = admission.prepare(path, body, request.query)
            new.pop("__dropped__", None)
            return respond(
                api.write(res, obj, new, status=True, query=request.query)
            )
        if method == "PATCH":
            return respond(
                api.patch(
                    path,
                    body,
                    request.content_type,
                    request.query,
                    status=True,
                )
            )
    elif sub == "scale":
        if method == "GET":
            return respond(scale_of(res, obj))
        body = await read_body(request)
        current = scale_of(res, obj)
        if method == "PUT":
            wanted = body
        elif method == "PATCH":
            wanted = api.apply_patch(res, current, body, request.content_type)
        else:
            raise errors.method_not_allowed()
        replicas = ((wanted or {}).get("spec") or {}).get("replicas", 0)
        if not isinstance(replicas, int) or replicas < 0:
            raise errors.invalid(
                "Scale",
                "autoscaling",
                path.name,
                [
                    errors.invalid_value(
                        "spec.replicas",
                        replicas,
                        "must be greater than or equal to 0",
                    )
                ],
            )
        rv = ((wanted or {}).get("metadata") or {}).get("resourceVersion")
        if rv and rv != obj["metadata"]["resourceVersion"]:
            raise errors.conflict(res.plural, res.group, path.name)
        new = copy.deepcopy(obj)
        new["spec"]["replicas"] = replicas
        new["metadata"].pop("resourceVersion", None)
        stored = api.write(res, obj, new, status=False, query=request.query)
        api.cluster.kick()
        return respond(scale_of(res, stored))
    elif sub == "eviction" and method == "POST":
        body = await read_body(request) or {}
        options = body.get("deleteOptions") or {}
        deletion.delete(store, res, obj, options)
        api.cluster.kick()
        return respond(status_response(201), 201)
    elif sub == "binding" and method == "POST":
        body = await read_body(request) or {}
        node = (body.get("target") or {}).get("name")
        if obj.get("spec", {}).get("nodeName"):
            raise errors.conflict(
                "pods/binding",
                "",
                path.name,
                f"pod {path.name} is already assigned to node "
                f'"{obj["spec"]["nodeName"]}"',
            )
        api.cluster.bind(obj, node)
        return respond(status_response(201), 201)
    elif sub == "log" and method == "GET":
        return web.Response(
            text=api.cluster.pod_log(obj), content_type="text/plain"
        )
    elif sub == "finalize" and method == "PUT":
        body = await read_body(request)
        new = copy.deepcopy(obj)
        new["spec"] = (body or {}).get("spec") or {}
        return respond(store.update(res, new, check_rv=False))
    raise errors.method_not_allowed()
