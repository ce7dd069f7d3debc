"""Refuse what a real API server refuses: schema errors (400 for values of
the wrong type, 422 for missing required fields) and the semantic checks of
pkg/apis/*/validation that a JSON schema cannot express."""

from __future__ import annotations

import json
import re
from typing import Any

from tools.simcloud.k8s import errors, quantity, schema
from tools.simcloud.k8s import labelsel as selectors

Obj = dict[str, Any]

DNS1123_SUBDOMAIN = re.compile(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
)
DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
    "characters, '-' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric "
    "characters or '-', and must start and end with an alphanumeric "
    "character (e.g. 'my-name',  or '123-abc', regex used for validation "
    "is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
LABEL_VALUE_MSG = (
    "a valid label must be an empty string or consist of alphanumeric "
    "characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
    "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?"
    "[A-Za-z0-9])?')"
)
#: Kinds whose names must be DNS-1123 labels rather than subdomains.
LABEL_NAMED = {"Namespace", "Service"}
GO_TYPES = {
    "integer": "int32",
    "string": "string",
    "boolean": "bool",
    "object": "map",
    "array": "slice",
    "number": "float64",
}
JSON_TYPES = {
    str: "string",
    int: "number",
    float: "number",
    bool: "bool",
    dict: "object",
    list: "array",
}


def _decode_error(obj: Obj, err: Any) -> errors.ApiError:
    kind = obj.get("kind", "")
    version = obj.get("apiVersion", "").rsplit("/", 1)[-1]
    expected = (err.schema or {}).get("type") or "string"
    if isinstance(expected, list):
        expected = next((t for t in expected if t != "null"), "string")
    got = JSON_TYPES.get(type(err.instance), "value")
    path = schema.field_path(err.absolute_path)
    return errors.bad_request(
        f'{kind} in version "{version}" cannot be handled as a {kind}: '
        f"json: cannot unmarshal {got} into Go struct field {path} of type "
        f"{GO_TYPES.get(expected, expected)}"
    )


def schema_causes(obj: Obj) -> list[dict[str, str]]:
    """422 causes from the schema; raises 400 for wrongly typed values."""
    causes = []
    for err in schema.errors(obj):
        path = schema.field_path(err.absolute_path)
        if err.validator in ("type", "oneOf"):
            raise _decode_error(obj, err)
        if err.validator == "required":
            missing = re.search(
                r"'([^']+)' is a required property", err.message
            )
            name = missing.group(1) if missing else ""
            causes.append(errors.required(f"{path}.{name}" if path else name))
        elif err.validator == "enum":
            allowed = ", ".join(json.dumps(v) for v in err.validator_value)
            causes.append(
                errors.cause(
                    "FieldValueNotSupported",
                    path,
                    f"Unsupported value: {json.dumps(err.instance)}: "
                    f"supported values: {allowed}",
                )
            )
        else:
            causes.append(
                errors.invalid_value(path, err.instance, err.message)
            )
    return causes


def _meta_causes(obj: Obj, kind: str, namespaced: bool) -> list[dict]:
    meta = obj.get("metadata") or {}
    causes = []
    name = meta.get("name")
    if not name:
        causes.append(
            errors.cause(
                "FieldValueRequired",
                "metadata.name",
                "Required value: name or generateName is required",
            )
        )
    elif kind in LABEL_NAMED:
        if not DNS1123_LABEL.match(name) or len(name) > 63:
            causes.append(
                errors.invalid_value("metadata.name", name, LABEL_MSG)
            )
    elif not DNS1123_SUBDOMAIN.match(name) or len(name) > 253:
        causes.append(
            errors.invalid_value("metadata.name", name, SUBDOMAIN_MSG)
        )
    for field in ("labels",):
        for key, value in (meta.get(field) or {}).items():
            base = key.rsplit("/", 1)[-1]
            if not QUALIFIED_NAME.match(base) or len(base) > 63:
                causes.append(
                    errors.invalid_value(
                        f"metadata.{field}",
                        key,
                        "name part must consist of alphanumeric characters, "
                        "'-', '_' or '.', and must start and end with an "
                        "alphanumeric character",
                    )
                )
            if not isinstance(value, str) or not LABEL_VALUE.match(value):
                causes.append(
                    errors.invalid_value(
                        f"metadata.{field}", value, LABEL_VALUE_MSG
                    )
                )
            elif len(value) > 63:
                causes.append(
                    errors.invalid_value(
                        f"metadata.{field}",
                        value,
                        "must be no more than 63 characters",
                    )
                )
    return causes


def pod_spec_causes(spec: Obj, path: str, template: bool) -> list[dict]:
    causes: list[dict] = []
    containers = spec.get("containers") or []
    if not containers:
        causes.append(errors.required(f"{path}.containers"))
    seen: set[str] = set()
    for group in ("initContainers", "containers"):
        for i, c in enumerate(spec.get(group) or []):
            cpath = f"{path}.{group}[{i}]"
            name = c.get("name") or ""
            if not name:
                causes.append(errors.required(f"{cpath}.name"))
            elif not DNS1123_LABEL.match(name):
                causes.append(
                    errors.invalid_value(f"{cpath}.name", name, LABEL_MSG)
                )
            elif name in seen:
                causes.append(
                    errors.cause(
                        "FieldValueDuplicate",
                        f"{cpath}.name",
                        f'Duplicate value: "{name}"',
                    )
                )
            seen.add(name)
            if not c.get("image") and not template:
                causes.append(errors.required(f"{cpath}.image"))
            for section in ("requests", "limits"):
                for rname, value in (
                    (c.get("resources") or {}).get(section) or {}
                ).items():
                    if not quantity.is_valid(value):
                        raise errors.bad_request(
                            f"quantities must match the regular expression "
                            f"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
                            f" ({cpath}.resources.{section}.{rname})"
                        )
    policy = spec.get("restartPolicy", "Always")
    allowed = ["Always"] if template else ["Always", "Never", "OnFailure"]
    if policy not in allowed:
        causes.append(
            errors.cause(
                "FieldValueNotSupported",
                f"{path}.restartPolicy",
                f'Unsupported value: "{policy}": supported values: '
                + ", ".join(f'"{a}"' for a in allowed),
            )
        )
    affinity = spec.get("affinity") or {}
    for kind in ("podAffinity", "podAntiAffinity"):
        section = affinity.get(kind) or {}
        for i, term in enumerate(
            section.get("requiredDuringSchedulingIgnoredDuringExecution") or []
        ):
            if not term.get("topologyKey"):
                causes.append(
                    errors.cause(
                        "FieldValueRequired",
                        f"{path}.affinity.{kind}.requiredDuringScheduling"
                        f"IgnoredDuringExecution[{i}].topologyKey",
                        "Required value: can not be empty",
                    )
                )
        for i, term in enumerate(
            section.get("preferredDuringSchedulingIgnoredDuringExecution")
            or []
        ):
            weight = term.get("weight", 0)
            if not 1 <= weight <= 100:
                causes.append(
                    errors.invalid_value(
                        f"{path}.affinity.{kind}.preferredDuringScheduling"
                        f"IgnoredDuringExecution[{i}].weight",
                        weight,
                        "must be in the range 1-100",
                    )
                )
    return causes


def _workload_causes(obj: Obj, old: Obj | None) -> list[dict]:
    spec = obj.get("spec") or {}
    causes: list[dict] = []
    kind = obj.get("kind", "").lower()
    replicas = spec.get("replicas")
    if isinstance(replicas, int) and replicas < 0:
        causes.append(
            errors.invalid_value(
                "spec.replicas", replicas, "must be greater than or equal to 0"
            )
        )
    selector = spec.get("selector")
    if selector is None:
        pass  # reported as required by the schema
    elif not (selector.get("matchLabels") or selector.get("matchExpressions")):
        causes.append(
            errors.invalid_value(
                "spec.selector",
                "v1.LabelSelector{MatchLabels:map[string]"
                "string(nil), MatchExpressions:[]v1.LabelSelectorRequirement"
                "(nil)}",
                f"empty selector is invalid for {kind}",
            )
        )
    else:
        labels = ((spec.get("template") or {}).get("metadata") or {}).get(
            "labels"
        ) or {}
        try:
            matches = selectors.from_object(selector).matches(labels)
        except selectors.SelectorError as exc:
            causes.append(errors.invalid_value("spec.selector", "", str(exc)))
            matches = True
        if not matches:
            shown = (
                "map[string]string{"
                + ", ".join(f'"{k}":"{v}"' for k, v in sorted(labels.items()))
                + "}"
            )
            causes.append(
                errors.cause(
                    "FieldValueInvalid",
                    "spec.template.metadata.labels",
                    f"Invalid value: {shown}: `selector` does not match "
                    f"template `labels`",
                )
            )
    if old is not None and (old.get("spec") or {}).get("selector") != selector:
        causes.append(
            errors.cause(
                "FieldValueInvalid",
                "spec.selector",
                "Invalid value: v1.LabelSelector{...}: field is immutable",
            )
        )
    template_spec = (spec.get("template") or {}).get("spec") or {}
    causes += pod_spec_causes(template_spec, "spec.template.spec", True)
    return causes


def validate(
    obj: Obj, kind: str, namespaced: bool, old: Obj | None = None
) -> None:
    """Raise 400/422 like the API server for an object about to be stored."""
    causes = schema_causes(obj)
    if not any(c["field"] == "metadata.name" for c in causes):
        causes += _meta_causes(obj, kind, namespaced)
    spec = obj.get("spec") or {}
    if kind == "Pod":
        causes += pod_spec_causes(spec, "spec", False)
    elif kind in ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"):
        causes += _workload_causes(obj, old)
    elif (
        kind == "Service"
        and spec.get("type", "ClusterIP") != "ExternalName"
        and not spec.get("ports")
        and spec.get("clusterIP") != "None"
    ):
        causes.append(errors.required("spec.ports"))
    unique, seen = [], set()
    for c in causes:
        key = (c["field"], c["message"])
        if key not in seen:
            seen.add(key)
            unique.append(c)
    if unique:
        group = obj.get("apiVersion", "").rpartition("/")[0]
        raise errors.invalid(
            kind, group, (obj.get("metadata") or {}).get("name", ""), unique
        )
