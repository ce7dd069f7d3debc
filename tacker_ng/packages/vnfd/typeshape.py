"""Shape checks of TOSCA type definitions before they are used.

Package files may define their own types (the provider's VNF type, data
types). A definition of the wrong shape, e.g. ``properties`` as a list or a
property without a ``type``, is refused here with the file and the type, so
the rest of the parser can rely on well-formed definitions.
"""

from typing import Any

from tacker_ng.packages.exceptions import InvalidVnfd

_MAP_OF_DEFINITIONS = ("properties", "attributes", "inputs")


class _Shape(Exception):  # noqa: N818 - internal, always wrapped
    pass


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise _Shape(message)


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def _schema(value: Any, where: str) -> None:
    if isinstance(value, str):
        return
    _need(isinstance(value, dict), f"{where} is not a type or a mapping")
    _need(_name(value.get("type")), f"{where} has no type")
    _constraints(value.get("constraints"), where)


def _constraints(value: Any, where: str) -> None:
    if value is None:
        return
    _need(isinstance(value, list), f"{where}.constraints is not a list")
    for item in value:
        _need(
            isinstance(item, dict) and len(item) == 1,
            f"{where}.constraints has an entry that is not a single-key "
            "mapping",
        )


def _property(name: str, value: Any, where: str) -> None:
    path = f"{where}.{name}"
    if isinstance(value, str):
        return
    _need(isinstance(value, dict), f"{path} is not a mapping")
    # The type may be omitted when refining an inherited definition; the
    # merged definition is required to have one (TypeRegistry).
    _need(
        value.get("type") is None or _name(value["type"]),
        f"{path}.type is not a type name",
    )
    _constraints(value.get("constraints"), path)
    if value.get("entry_schema") is not None:
        _schema(value["entry_schema"], f"{path}.entry_schema")
    _need(
        isinstance(value.get("required", True), bool),
        f"{path}.required is not a boolean",
    )


def _typed_map(body: dict, key: str) -> None:
    entries = body.get(key)
    if entries is None:
        return
    _need(isinstance(entries, dict), f"{key} is not a mapping")
    for name, value in entries.items():
        if isinstance(value, str):
            continue
        _need(isinstance(value, dict), f"{key}.{name} is not a mapping")
        _need(
            "type" not in value or _name(value["type"]),
            f"{key}.{name}.type is not a type name",
        )


def _requirements(body: dict) -> None:
    entries = body.get("requirements")
    if entries is None:
        return
    _need(isinstance(entries, list), "requirements is not a list")
    for item in entries:
        _need(
            isinstance(item, dict) and len(item) == 1,
            "requirements has an entry that is not a single-key mapping",
        )
        ((name, value),) = item.items()
        if isinstance(value, str):
            continue
        _need(isinstance(value, dict), f"requirements.{name} is malformed")
        for key in ("capability", "node", "relationship"):
            _need(
                value.get(key) is None or _name(value[key]),
                f"requirements.{name}.{key} is not a type name",
            )


def check_type_body(body: dict) -> None:
    """Raise ``_Shape`` if a type definition body is malformed."""
    _need(
        body.get("derived_from") is None or _name(body["derived_from"]),
        "derived_from is not a type name",
    )
    for key in _MAP_OF_DEFINITIONS:
        entries = body.get(key)
        if entries is None:
            continue
        _need(isinstance(entries, dict), f"{key} is not a mapping")
        for name, value in entries.items():
            _property(name, value, key)
    _typed_map(body, "capabilities")
    _typed_map(body, "interfaces")
    _requirements(body)
    for key in ("targets", "members", "valid_target_types"):
        value = body.get(key)
        _need(
            value is None
            or (isinstance(value, list) and all(map(_name, value))),
            f"{key} is not a list of type names",
        )
    operations = body.get("operations")
    _need(
        operations is None or isinstance(operations, dict),
        "operations is not a mapping",
    )


def check_type(section: str, name: str, body: Any, path: str) -> dict:
    """The checked body of type ``name`` (``None`` counts as empty)."""
    if body is None:
        return {}
    try:
        _need(
            isinstance(body, dict), f"definition is not a mapping ({section})"
        )
        check_type_body(body)
    except _Shape as exc:
        raise InvalidVnfd(str(exc), file=path, node=name) from None
    return body
