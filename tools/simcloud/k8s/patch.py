"""PATCH bodies: JSON merge (RFC 7386), strategic merge, JSON patch (RFC 6902).

Strategic merge follows k8s.io/apimachinery/pkg/util/strategicpatch: lists
are merged by the ``x-kubernetes-patch-merge-key`` the real schema names,
and the ``$patch``, ``$retainKeys``, ``$setElementOrder/<list>`` and
``$deleteFromPrimitiveList/<list>`` directives are honoured.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import jsonpatch

Schema = dict[str, Any]
Resolver = Callable[[Schema | None], Schema | None]


class PatchError(ValueError):
    """A patch that cannot be applied (the server answers 422 or 400)."""


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def json_patch(target: Any, operations: Any) -> Any:
    """RFC 6902 JSON patch through the ``jsonpatch`` library."""
    if not isinstance(operations, list):
        raise PatchError(
            "json: cannot unmarshal object into Go value of "
            "type jsonpatch.Patch"
        )
    try:
        return jsonpatch.apply_patch(target, operations, in_place=False)
    except (
        jsonpatch.JsonPatchException,
        jsonpatch.JsonPointerException,
        KeyError,
        IndexError,
        TypeError,
    ) as exc:
        raise PatchError(str(exc)) from exc


def _field(
    schema: Schema | None, key: str, resolve: Resolver
) -> Schema | None:
    schema = resolve(schema)
    if not schema:
        return None
    props = schema.get("properties") or {}
    if key in props:
        return props[key]
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _items(schema: Schema | None, resolve: Resolver) -> Schema | None:
    schema = resolve(schema)
    return (schema or {}).get("items")


def _strategy(schema: Schema | None) -> tuple[set[str], str | None]:
    if not schema:
        return set(), None
    strategy = schema.get("x-kubernetes-patch-strategy") or ""
    return set(strategy.split(",")) - {""}, schema.get(
        "x-kubernetes-patch-merge-key"
    )


def strategic_merge(
    target: Any, patch: Any, schema: Schema | None, resolve: Resolver
) -> Any:
    """Apply a strategic merge patch to ``target`` guided by ``schema``."""
    if not isinstance(patch, dict):
        raise PatchError("strategic merge patch must be a JSON object")
    return _merge_map(
        copy.deepcopy(target) if isinstance(target, dict) else {},
        patch,
        schema,
        resolve,
    )


def _merge_map(
    original: dict, patch: dict, schema: Schema | None, resolve: Resolver
) -> dict | None:
    directive = patch.get("$patch")
    if directive == "delete":
        return None
    if directive == "replace":
        return {k: v for k, v in patch.items() if k != "$patch"}
    if directive not in (None, "merge"):
        raise PatchError(f"Unknown patch type: {directive} in map: {patch}")
    retain = patch.get("$retainKeys")
    for key, value in patch.items():
        if key in ("$patch", "$retainKeys"):
            continue
        if key.startswith("$setElementOrder/"):
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            name = key.split("/", 1)[1]
            if isinstance(original.get(name), list):
                original[name] = [
                    x for x in original[name] if x not in (value or [])
                ]
            continue
        sub = _field(schema, key, resolve)
        if value is None:
            original.pop(key, None)
        elif isinstance(value, dict):
            merged = _merge_map(
                original[key] if isinstance(original.get(key), dict) else {},
                value,
                sub,
                resolve,
            )
            if merged is None:
                original.pop(key, None)
            else:
                original[key] = merged
        elif isinstance(value, list):
            original[key] = _merge_list(original.get(key), value, sub, resolve)
        else:
            original[key] = copy.deepcopy(value)
    for key, order in patch.items():
        if key.startswith("$setElementOrder/"):
            name = key.split("/", 1)[1]
            if isinstance(original.get(name), list):
                sub = _field(schema, name, resolve)
                original[name] = _reorder(original[name], order, sub)
    if isinstance(retain, list):
        original = {k: v for k, v in original.items() if k in retain}
    return original


def _merge_list(
    original: Any, patch: list, schema: Schema | None, resolve: Resolver
) -> list:
    strategies, merge_key = _strategy(schema)
    if "merge" not in strategies:
        return [
            x
            for x in copy.deepcopy(patch)
            if not (isinstance(x, dict) and x.get("$patch"))
        ]
    result = copy.deepcopy(original) if isinstance(original, list) else []
    if any(
        isinstance(x, dict) and x.get("$patch") == "replace" and len(x) == 1
        for x in patch
    ):
        return [
            copy.deepcopy(x)
            for x in patch
            if not (isinstance(x, dict) and "$patch" in x)
        ]
    if merge_key is None:  # a list of primitives merged as a set
        for item in patch:
            if item not in result:
                result.append(copy.deepcopy(item))
        return result
    item_schema = _items(schema, resolve)
    for item in patch:
        if not isinstance(item, dict):
            raise PatchError(
                f"map: {item} does not contain declared merge key: {merge_key}"
            )
        if merge_key not in item:
            raise PatchError(
                f"map: {item} does not contain declared merge key: {merge_key}"
            )
        index = next(
            (
                i
                for i, x in enumerate(result)
                if isinstance(x, dict) and x.get(merge_key) == item[merge_key]
            ),
            None,
        )
        if item.get("$patch") == "delete":
            if index is not None:
                del result[index]
            continue
        if index is None:
            clean = _merge_map({}, item, item_schema, resolve)
            if clean is not None:
                result.append(clean)
        else:
            merged = _merge_map(result[index], item, item_schema, resolve)
            if merged is None:
                del result[index]
            else:
                result[index] = merged
    return result


def _reorder(items: list, order: Any, schema: Schema | None) -> list:
    if not isinstance(order, list):
        return items
    _, merge_key = _strategy(schema)

    def ident(x: Any) -> Any:
        if merge_key and isinstance(x, dict):
            return x.get(merge_key)
        return x if not isinstance(x, dict | list) else id(x)

    wanted = [ident(x) for x in order]
    ranked = sorted(
        enumerate(items),
        key=lambda p: (
            wanted.index(ident(p[1]))
            if ident(p[1]) in wanted
            else len(wanted) + p[0]
        ),
    )
    return [x for _, x in ranked]
