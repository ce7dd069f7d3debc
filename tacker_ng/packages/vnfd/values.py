"""TOSCA property values: primitive types, scalar units and constraints.

Pure functions used by the type registry to check a value against a
property definition; no knowledge of types beyond the primitive ones.
"""

import datetime
import re
from typing import Any

#: TOSCA intrinsic functions: values computed at deployment, not checked.
FUNCTIONS = frozenset(
    (
        "get_input",
        "get_property",
        "get_attribute",
        "get_operation_output",
        "get_artifact",
        "concat",
        "join",
        "token",
    )
)
_SIZE_UNITS = {
    "b": 1,
    "kb": 1000,
    "kib": 1024,
    "mb": 1000**2,
    "mib": 1024**2,
    "gb": 1000**3,
    "gib": 1024**3,
    "tb": 1000**4,
    "tib": 1024**4,
}
_SCALAR_RE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*$")
_OTHER_UNITS = {
    "scalar-unit.frequency": ("hz", "khz", "mhz", "ghz"),
    "scalar-unit.time": ("d", "h", "m", "s", "ms", "us", "ns"),
    "scalar-unit.bitrate": (
        "bps",
        "kbps",
        "kibps",
        "mbps",
        "mibps",
        "gbps",
        "gibps",
        "tbps",
        "tibps",
    ),
}


class ValueProblem(Exception):  # noqa: N818 - internal, always wrapped
    """A property value is wrong; ``where`` is its dotted path."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def as_definition(value: Any) -> dict[str, Any]:
    """A property definition as a mapping (``name: string`` short form)."""
    if isinstance(value, str):
        return {"type": value}
    return value or {}


def is_function(value: Any) -> bool:
    """True for ``{get_input: x}`` and the other TOSCA functions."""
    return (
        isinstance(value, dict)
        and len(value) == 1
        and (next(iter(value)) in FUNCTIONS)
    )


def parse_size(value: Any) -> int:
    """Bytes of a TOSCA ``scalar-unit.size`` such as ``"512 MB"``."""
    match = _SCALAR_RE.match(value) if isinstance(value, str) else None
    if not match or match.group(2).lower() not in _SIZE_UNITS:
        raise ValueError(f"{value!r} is not a scalar-unit.size (e.g. 1 GiB)")
    return int(float(match.group(1)) * _SIZE_UNITS[match.group(2).lower()])


_PRIMITIVES = frozenset(
    (
        "string",
        "integer",
        "float",
        "boolean",
        "version",
        "timestamp",
        "range",
        "list",
        "map",
        "scalar-unit.size",
        *_OTHER_UNITS,
    )
)


def is_primitive(type_name: str) -> bool:
    return type_name in _PRIMITIVES


def type_field(value: Any) -> str | None:
    return value if isinstance(value, str) else value.get("type")


def check_primitive(value: Any, type_name: str, where: str) -> bool:
    """Check a primitive-typed value; False if ``type_name`` is not one."""
    if type_name == "string":
        if not isinstance(value, str):
            hint = " (quote it)" if isinstance(value, (int, float)) else ""
            raise ValueProblem(where, f"must be a string{hint}")
    elif type_name == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueProblem(where, "must be an integer")
    elif type_name == "float":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ValueProblem(where, "must be a number")
    elif type_name == "boolean":
        if not isinstance(value, bool):
            raise ValueProblem(where, "must be a boolean")
    elif type_name == "version":
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise ValueProblem(where, "must be a version")
    elif type_name == "timestamp":
        if not isinstance(value, (str, datetime.date)):
            raise ValueProblem(where, "must be a timestamp")
    elif type_name == "range":
        if not (isinstance(value, list) and len(value) == 2):
            raise ValueProblem(where, "must be a range [min, max]")
    elif type_name == "scalar-unit.size":
        try:
            parse_size(value)
        except ValueError as exc:
            raise ValueProblem(where, str(exc)) from None
    elif type_name in _OTHER_UNITS:
        match = _SCALAR_RE.match(value) if isinstance(value, str) else None
        if not match or match.group(2).lower() not in _OTHER_UNITS[type_name]:
            raise ValueProblem(where, f"{value!r} is not a {type_name}")
    else:
        return False
    return True


def _comparable(value: Any, type_name: str) -> Any:
    if type_name == "scalar-unit.size" and isinstance(value, str):
        return parse_size(value)
    return value


def check_constraint(
    value: Any, constraint: Any, type_name: str, where: str
) -> None:
    if not isinstance(constraint, dict) or len(constraint) != 1:
        raise ValueProblem(where, f"invalid constraint {constraint!r}")
    ((op, arg),) = constraint.items()
    val = _comparable(value, type_name)
    ok = True
    try:
        if op == "valid_values":
            ok = value in arg
        elif op == "equal":
            ok = val == _comparable(arg, type_name)
        elif op == "greater_than":
            ok = val > _comparable(arg, type_name)
        elif op == "greater_or_equal":
            ok = val >= _comparable(arg, type_name)
        elif op == "less_than":
            ok = val < _comparable(arg, type_name)
        elif op == "less_or_equal":
            ok = val <= _comparable(arg, type_name)
        elif op == "in_range":
            low, high = (_comparable(a, type_name) for a in arg)
            ok = low <= val <= high
        elif op in ("length", "min_length", "max_length"):
            size = len(value)
            ok = {
                "length": size == arg,
                "min_length": size >= arg,
                "max_length": size <= arg,
            }[op]
        elif op == "pattern":
            ok = bool(re.fullmatch(arg, str(value)))
        else:
            raise ValueProblem(where, f"unsupported constraint {op}")
    except TypeError:
        ok = False
    if not ok:
        raise ValueProblem(where, f"{value!r} violates {op}: {arg!r}")
