"""Interface operations of a node template, checked against its type.

An operation is written as a string (its implementation), a mapping with
``implementation`` (or ``implementation.primary``) and ``inputs``, or
empty; an operation its interface type does not define is refused.
"""

from typing import Any

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.types import TypeRegistry


def type_of(definition: Any) -> str:
    """The type of a capability/interface definition (short or long form)."""
    return definition if isinstance(definition, str) else definition["type"]


def _mapping(value: Any, path: str, what: str, node: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidVnfd(f"{what} is not a mapping", file=path, node=node)
    return value


def node_interfaces(
    reg: TypeRegistry, path: str, name: str, body: dict
) -> dict[str, dict[str, dict[str, Any]]]:
    """interface -> operation -> {"implementation", "inputs"} of a node."""
    defs = reg.merged("node_types", body["type"], "interfaces")
    result: dict[str, dict[str, dict[str, Any]]] = {}
    raw = _mapping(body.get("interfaces"), path, "interfaces", name)
    for iface, written in raw.items():
        if iface not in defs:
            raise InvalidVnfd(
                f"unknown interface {iface} for type {body['type']}",
                file=path,
                node=name,
            )
        known = reg.operations(type_of(defs[iface]))
        ops = _mapping(written, path, f"interfaces.{iface}", name)
        if "operations" in ops:
            ops = _mapping(ops["operations"], path, "operations", name)
        result[iface] = {}
        for op, value in ops.items():
            if op == "inputs":
                continue
            if op not in known:
                raise InvalidVnfd(
                    f"unknown operation {iface}.{op}", file=path, node=name
                )
            result[iface][op] = _operation(value, iface, op, path, name)
    return result


def _operation(
    value: Any, iface: str, op: str, path: str, name: str
) -> dict[str, Any]:
    if value is None or value == []:
        return {"implementation": None, "inputs": {}}
    if isinstance(value, str):
        return {"implementation": value, "inputs": {}}
    if not isinstance(value, dict):
        raise InvalidVnfd(
            f"operation {iface}.{op} is not a mapping", file=path, node=name
        )
    impl = value.get("implementation")
    if isinstance(impl, dict):
        impl = impl.get("primary")
    if impl is not None and not isinstance(impl, str):
        raise InvalidVnfd(
            f"operation {iface}.{op} has an invalid implementation",
            file=path,
            node=name,
        )
    inputs = value.get("inputs") or {}
    if not isinstance(inputs, dict):
        raise InvalidVnfd(
            f"operation {iface}.{op} inputs is not a mapping",
            file=path,
            node=name,
        )
    return {"implementation": impl, "inputs": inputs}
