"""The Kubernetes REST surface: paths, verbs, admission and responses.

Routing follows the API server's layout: ``/api/v1/...`` for the core
group and ``/apis/<group>/<version>/...`` for the others, with namespaced
(``namespaces/<ns>/<plural>``) and cluster-scoped paths, items and
subresources.
"""

from __future__ import annotations

import copy
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import (
    admission,
    defaults,
    deletion,
    errors,
    fields,
    schema,
    subresources,
    tables,
    validation,
    watch,
)
from tools.simcloud.k8s import labelsel as selectors
from tools.simcloud.k8s import patch as patching
from tools.simcloud.k8s.resources import Resource
from tools.simcloud.k8s.rest import (
    Path,
    parse_path,
    read_body,
    respond,
)

Obj = dict[str, Any]
#: The NamespaceLifecycle admission plugin's immortal namespaces.
PROTECTED = {"default", "kube-system", "kube-public"}
#: Registries with ReturnDeletedObject: DELETE answers with the object.
RETURN_DELETED = {"Pod", "Service", "PersistentVolumeClaim", "ServiceAccount"}


class Api:
    """Verbs on the store, with the API server's admission and checks."""

    def __init__(self, cluster: Any) -> None:
        self.cluster = cluster
        self.store = cluster.store

    # entry point -----------------------------------------------------
    async def handle(
        self, request: web.Request, group: str, version: str, parts: list[str]
    ) -> web.StreamResponse:
        path = parse_path(group, version, parts)
        if path.sub:
            return await subresources.handle(self, request, path)
        method = request.method
        if path.name is None:
            if method == "GET":
                if request.query.get("watch", "").lower() in ("true", "1"):
                    return await watch.serve(self, request, path)
                return self.list(request, path)
            if method == "POST":
                body = await read_body(request)
                obj = self.create(path, body, request.query)
                return respond(obj, 201, self.warnings(obj))
            if method == "DELETE":
                return self.delete_collection(request, path)
            raise errors.method_not_allowed()
        if method == "GET":
            obj = self.store.must_get(path.res, path.namespace, path.name)
            return self.render(request, path.res, obj)
        if method == "PUT":
            body = await read_body(request)
            return respond(self.replace(path, body, request.query))
        if method == "PATCH":
            body = await read_body(request)
            return respond(
                self.patch(path, body, request.content_type, request.query)
            )
        if method == "DELETE":
            body = await read_body(request) if request.can_read_body else None
            return self.delete(path, body or {}, request.query)
        raise errors.method_not_allowed()

    def warnings(self, obj: Obj) -> dict | None:
        dropped = (
            obj.pop("__dropped__", None) if isinstance(obj, dict) else None
        )
        if not dropped:
            return None
        return {
            "Warning": ", ".join(
                f'299 - "unknown field \\"{d}\\""' for d in dropped
            )
        }

    def render(
        self, request: web.Request, res: Resource, obj: Obj
    ) -> web.Response:
        if tables.wants_table(request.headers.get("Accept", "")):
            return respond(
                tables.table(
                    res,
                    [obj],
                    str(self.store.rv),
                    request.query.get("includeObject"),
                )
            )
        return respond(obj)

    # reads -----------------------------------------------------------
    def selected(self, path: Path, query: Any) -> list[Obj]:
        try:
            label_sel = selectors.parse_labels(query.get("labelSelector"))
        except selectors.SelectorError as exc:
            raise errors.bad_request(str(exc)) from exc
        field_sel = fields.parse(path.res.kind, query.get("fieldSelector"))
        items = self.store.list(path.res, path.namespace)
        out = [
            o
            for o in items
            if label_sel.matches(o["metadata"].get("labels"))
            and fields.matches(field_sel, o)
        ]
        out.sort(
            key=lambda o: (
                o["metadata"].get("namespace", ""),
                o["metadata"]["name"],
            )
        )
        return out

    def list(self, request: web.Request, path: Path) -> web.Response:
        items = self.selected(path, request.query)
        rv = str(self.store.rv)
        if tables.wants_table(request.headers.get("Accept", "")):
            return respond(
                tables.table(
                    path.res, items, rv, request.query.get("includeObject")
                )
            )
        return respond(
            {
                "kind": f"{path.res.kind}List",
                "apiVersion": path.res.api_version,
                "metadata": {"resourceVersion": rv},
                "items": items,
            }
        )

    # writes ----------------------------------------------------------
    def create(self, path: Path, body: Any, query: Any) -> Obj:
        res = path.res
        obj = admission.prepare(path, body, query)
        dropped = obj.pop("__dropped__", None)
        defaults.generate_name(obj["metadata"])
        validation.validate(obj, res.kind, res.namespaced)
        admission.admit_namespace(self.store, res, obj)
        defaults.apply(res.kind, obj)
        if res.kind == "Pod":
            admission.admit_service_account(self.store, obj)
        obj["metadata"].pop("resourceVersion", None)
        if query.get("dryRun") == "All":
            return obj
        stored = self.store.create(res, obj)
        if res.kind == "Namespace":
            self.cluster.namespace_created(stored)
        if dropped:
            return dict(stored, __dropped__=dropped)
        return stored

    def write(
        self, res: Resource, old: Obj, obj: Obj, *, status: bool, query: Any
    ) -> Obj:
        """Store a new version of ``old`` (PUT, PATCH, subresources)."""
        obj["metadata"]["name"] = old["metadata"]["name"]
        if res.namespaced:
            obj["metadata"]["namespace"] = old["metadata"]["namespace"]
        if status:
            new = copy.deepcopy(old)
            new["status"] = obj.get("status")
            new["metadata"]["resourceVersion"] = (
                obj["metadata"].get("resourceVersion") or ""
            )
            obj = new
        elif res.has_status:
            obj["status"] = copy.deepcopy(old.get("status"))
        validation.validate(obj, res.kind, res.namespaced, old)
        defaults.apply(
            res.kind, obj
        ) if res.kind != "Pod" else defaults.pod_spec(
            obj.setdefault("spec", {})
        )
        if res.kind == "Pod" and not status:
            subresources.check_pod_update(old, obj)
        if res.kind == "Service":
            old_ip = (old.get("spec") or {}).get("clusterIP")
            if old_ip:
                obj["spec"]["clusterIP"] = old_ip
                obj["spec"]["clusterIPs"] = [old_ip]
        if query.get("dryRun") == "All":
            return obj
        return self.store.update(res, obj)

    def replace(self, path: Path, body: Any, query: Any) -> Obj:
        old = self.store.must_get(path.res, path.namespace, path.name)
        obj = admission.prepare(path, body, query)
        obj.pop("__dropped__", None)
        if obj["metadata"].get("name") != path.name:
            raise errors.bad_request(
                f"the name of the object ({obj['metadata'].get('name')}) "
                f"does not match the name on the URL ({path.name})"
            )
        return self.write(path.res, old, obj, status=False, query=query)

    def apply_patch(
        self, res: Resource, current: Obj, body: Any, content_type: str
    ) -> Obj:
        try:
            if content_type == "application/merge-patch+json":
                if not isinstance(body, dict):
                    raise patching.PatchError("merge patch must be an object")
                return patching.merge_patch(current, body)
            if content_type == "application/strategic-merge-patch+json":
                top = schema.kind_schema(res.api_version, res.kind)
                return patching.strategic_merge(
                    current, body, top, schema.resolve
                )
            if content_type == "application/json-patch+json":
                return patching.json_patch(current, body)
        except patching.PatchError as exc:
            raise errors.ApiError(422, "Invalid", str(exc), {}) from exc
        raise errors.unsupported_media(content_type)

    def patch(
        self,
        path: Path,
        body: Any,
        content_type: str,
        query: Any,
        status: bool = False,
    ) -> Obj:
        old = self.store.must_get(path.res, path.namespace, path.name)
        new = self.apply_patch(path.res, old, body, content_type)
        if not isinstance(new, dict):
            raise errors.bad_request("patch result is not an object")
        new.setdefault("metadata", {})
        if (
            new["metadata"].get("resourceVersion")
            == old["metadata"]["resourceVersion"]
        ):
            new["metadata"].pop("resourceVersion")  # no precondition given
        obj = admission.prepare(path, new, query)
        obj.pop("__dropped__", None)
        return self.write(path.res, old, obj, status=status, query=query)

    def delete(self, path: Path, body: Obj, query: Any) -> web.Response:
        obj = self.store.must_get(path.res, path.namespace, path.name)
        if path.res.kind == "Namespace" and path.name in PROTECTED:
            raise errors.forbidden(
                f'namespaces "{path.name}" is forbidden: this namespace may '
                "not be deleted",
                {"name": path.name, "kind": "namespaces"},
            )
        options = dict(body or {})
        for key in (
            "gracePeriodSeconds",
            "propagationPolicy",
            "orphanDependents",
        ):
            if key in query:
                value = query[key]
                if key == "gracePeriodSeconds":
                    value = int(value)
                elif key == "orphanDependents":
                    value = value == "true"
                options[key] = value
        if query.get("dryRun") == "All":
            return respond(obj)
        result, removed = deletion.delete(self.store, path.res, obj, options)
        self.cluster.kick()
        if removed and path.res.kind not in RETURN_DELETED:
            details = {
                "name": path.name,
                "kind": path.res.plural,
                "uid": obj["metadata"]["uid"],
            }
            if path.res.group:
                details["group"] = path.res.group
            return respond(
                {
                    "kind": "Status",
                    "apiVersion": "v1",
                    "metadata": {},
                    "status": "Success",
                    "details": details,
                }
            )
        return respond(result)

    def delete_collection(
        self, request: web.Request, path: Path
    ) -> web.Response:
        items = self.selected(path, request.query)
        for obj in items:
            current = self.store.get(
                path.res,
                obj["metadata"].get("namespace"),
                obj["metadata"]["name"],
            )
            if current is not None:
                deletion.delete(self.store, path.res, current, {})
        self.cluster.kick()
        return respond(
            {
                "kind": f"{path.res.kind}List",
                "apiVersion": path.res.api_version,
                "metadata": {"resourceVersion": str(self.store.rv)},
                "items": items,
            }
        )
