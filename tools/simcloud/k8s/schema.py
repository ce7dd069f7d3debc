"""Object bodies checked against the real Kubernetes JSON schemas.

The schemas are the ones the ``kubernetes-validate`` package ships (OpenAPI
of each Kubernetes release converted to JSON schema, with the
``x-kubernetes-patch-*`` extensions kept). Validators are built once per kind
and cached: a request costs one validation, not one schema load.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources as importlib_resources
from typing import Any

import jsonschema
import referencing

#: Kubernetes release whose schemas (and behaviour) the simulator models.
SCHEMA_VERSION = "1.30.0"


def _schema_dir(strict: bool) -> Any:
    name = f"v{SCHEMA_VERSION}-local" + ("-strict" if strict else "")
    return (
        importlib_resources.files("kubernetes_validate")
        / "kubernetes-json-schema"
        / name
    )


@functools.cache
def _definitions(strict: bool) -> dict[str, Any]:
    with (_schema_dir(strict) / "_definitions.json").open() as f:
        return json.load(f)


def _file_name(api_version: str, kind: str) -> str:
    prefix = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    return f"{kind.lower()}-{prefix}.json"


@functools.cache
def kind_schema(
    api_version: str, kind: str, strict: bool = False
) -> dict[str, Any] | None:
    """The top-level schema of a kind (None if unknown)."""
    path = _schema_dir(strict) / _file_name(api_version, kind)
    try:
        with path.open() as f:
            return json.load(f)
    except FileNotFoundError:
        return None


@functools.cache
def _validator(
    api_version: str, kind: str, strict: bool
) -> jsonschema.protocols.Validator | None:
    schema = kind_schema(api_version, kind, strict)
    if schema is None:
        return None
    registry = referencing.Registry()
    registry = referencing.Resource.from_contents(schema) @ registry
    registry = (
        referencing.Resource.from_contents(_definitions(strict)) @ registry
    )
    return jsonschema.Draft202012Validator(schema, registry=registry)


def resolve(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """Follow a ``$ref`` into the shared definitions (for strategic merge)."""
    seen = 0
    while schema and "$ref" in schema and seen < 20:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = _definitions(False)["$defs"].get(name)
        seen += 1
    return schema


def field_path(path: Any) -> str:
    """A jsonschema error path as a Kubernetes field path (a.b[0].c)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def errors(
    obj: dict[str, Any], strict: bool = False
) -> list[jsonschema.ValidationError]:
    """Schema errors of ``obj`` (an empty list when valid or kind unknown)."""
    validator = _validator(
        obj.get("apiVersion", ""), obj.get("kind", ""), strict
    )
    if validator is None:
        return []
    return sorted(
        validator.iter_errors(obj), key=lambda e: field_path(e.absolute_path)
    )


def unknown_fields(obj: dict[str, Any]) -> list[tuple[list[Any], str]]:
    """(path-to-parent, field) of every field the strict schema refuses."""
    found = []
    for err in errors(obj, strict=True):
        if err.validator != "additionalProperties":
            continue
        allowed = set((err.schema or {}).get("properties") or {})
        instance = err.instance if isinstance(err.instance, dict) else {}
        for key in instance:
            if key not in allowed:
                found.append((list(err.absolute_path), key))
    return found


def drop_unknown_fields(obj: dict[str, Any]) -> list[str]:
    """Remove unknown fields like the API server's decoder; their paths."""
    dropped = []
    for parent_path, key in unknown_fields(obj):
        node: Any = obj
        for part in parent_path:
            node = node[part]
        if isinstance(node, dict) and key in node:
            del node[key]
            dropped.append(field_path([*parent_path, key]))
    return dropped
