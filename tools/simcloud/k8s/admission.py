"""Admission of written objects: decoding checks (apiVersion, kind,
namespace, unknown fields), namespace lifecycle and ServiceAccount."""

from __future__ import annotations

import copy
import json
from typing import Any

from tools.simcloud.k8s import errors, schema
from tools.simcloud.k8s.resources import Resource, lookup

Obj = dict[str, Any]
NAMESPACES = lookup("", "v1", "namespaces")
SERVICEACCOUNTS = lookup("", "v1", "serviceaccounts")


def prepare(path: Any, body: Any, query: Any) -> Obj:
    res = path.res
    if not isinstance(body, dict):
        raise errors.bad_request(
            f"Object 'Kind' is missing in '{json.dumps(body)}'"
        )
    obj = copy.deepcopy(body)
    if obj.get("apiVersion") and obj["apiVersion"] != res.api_version:
        raise errors.bad_request(
            f"the API version in the data ({obj['apiVersion']}) does "
            f"not match the expected API version ({res.api_version})"
        )
    if obj.get("kind") and obj["kind"] != res.kind:
        raise errors.bad_request(
            f"the kind in the data ({obj['kind']}) does not match the "
            f"expected kind ({res.kind})"
        )
    obj["apiVersion"], obj["kind"] = res.api_version, res.kind
    meta = obj.setdefault("metadata", {})
    if not isinstance(meta, dict):
        raise errors.bad_request("metadata must be an object")
    if res.namespaced:
        ns = meta.get("namespace") or path.namespace
        if path.namespace and ns != path.namespace:
            raise errors.bad_request(
                "the namespace of the provided object does not match "
                "the namespace sent on the request"
            )
        meta["namespace"] = ns
    else:
        meta.pop("namespace", None)
    if query.get("fieldValidation") == "Strict":
        unknown = schema.unknown_fields(obj)
        if unknown:
            names = ", ".join(
                f'unknown field "{schema.field_path([*p, k])}"'
                for p, k in unknown
            )
            raise errors.bad_request(f"strict decoding error: {names}")
    dropped = schema.drop_unknown_fields(obj)
    if dropped:
        obj["__dropped__"] = dropped
    return obj


def admit_namespace(store: Any, res: Resource, obj: Obj) -> None:
    if not res.namespaced:
        return
    ns_name = obj["metadata"].get("namespace")
    ns = store.get(NAMESPACES, None, ns_name)
    if ns is None:
        raise errors.not_found("namespaces", "", ns_name)
    if ns["metadata"].get("deletionTimestamp"):
        name = obj["metadata"].get("name", "")
        raise errors.forbidden(
            f'{errors.qualified(res.plural, res.group)} "{name}" is '
            f"forbidden: unable to create new content in namespace "
            f"{ns_name} because it is being terminated",
            {"name": name, "kind": res.plural},
        )


def admit_service_account(store: Any, obj: Obj) -> None:
    ns = obj["metadata"]["namespace"]
    sa = obj["spec"]["serviceAccountName"]
    if store.get(SERVICEACCOUNTS, ns, sa) is None:
        name = obj["metadata"]["name"]
        raise errors.forbidden(
            f'pods "{name}" is forbidden: error looking up service '
            f'account {ns}/{sa}: serviceaccount "{sa}" not found',
            {"name": name, "kind": "pods"},
        )
