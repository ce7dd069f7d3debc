"""Blazar's host property queries, parsed and evaluated without I/O.

``hypervisor_properties`` and ``resource_properties`` are JSON strings
such as ``[">=", "$vcpus", "4"]`` or
``["and", ["==", "$hypervisor_type", "QEMU"], ["==", "$gpu", "true"]]``.
``$name`` refers to a host attribute or extra capability. Values compare
as numbers when both sides are numbers, as strings otherwise; a missing
attribute never matches.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping
from typing import Any

from tacker_ng.reservation import exceptions

Query = list[Any]
#: Deepest nesting of expressions in a query (checked before recursing).
MAX_DEPTH = 16
Predicate = Callable[[Mapping[str, object]], bool]

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _bad(text: object, why: str) -> exceptions.InvalidLease:
    shown = repr(text)
    if len(shown) > 200:
        shown = shown[:197] + "..."
    return exceptions.InvalidLease(
        reason=f"malformed property query {shown}: {why}"
    )


def parse(text: str | list | None) -> Query | None:
    """Parse and check a query; ``None``/``""``/``[]`` mean no filter."""
    if text is None or text in ("", []):
        return None
    query: object = text
    if isinstance(text, str):
        try:
            query = json.loads(text)
        except RecursionError:
            raise _bad(text, f"nested deeper than {MAX_DEPTH}") from None
        except ValueError as exc:
            raise _bad(text, "not JSON") from exc
    if query in ([], ""):
        return None
    if _depth(query) > MAX_DEPTH:
        raise _bad(text, f"nested deeper than {MAX_DEPTH}")
    _check(query, text)
    assert isinstance(query, list)  # noqa: S101 - _check proved it
    return query


def _depth(value: object) -> int:
    """Nesting depth of lists, without recursion (queries are untrusted)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, list):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in node)
    return deepest


def _check(query: object, text: object) -> None:
    if not isinstance(query, list) or not query:
        raise _bad(text, "every expression is a non-empty list")
    op = query[0]
    args = query[1:]
    if op in ("and", "or"):
        if not args:
            raise _bad(text, f"'{op}' needs operands")
        for sub in args:
            _check(sub, text)
    elif op == "not":
        if len(args) != 1:
            raise _bad(text, "'not' takes one expression")
        _check(args[0], text)
    elif op in _COMPARE or op == "in":
        if len(args) < 2 or (op in _COMPARE and len(args) != 2):
            raise _bad(text, f"'{op}' takes an attribute and a value")
        if not (isinstance(args[0], str) and args[0].startswith("$")):
            raise _bad(text, "the first operand must be '$attribute'")
        if not all(isinstance(v, str | int | float) for v in args[1:]):
            raise _bad(text, "values must be strings or numbers")
    else:
        raise _bad(text, f"unknown operator {op!r}")


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _compare(op: str, actual: object, wanted: object) -> bool:
    a, w = _number(actual), _number(wanted)
    if a is not None and w is not None:
        return _COMPARE[op](a, w)
    left = str(actual).lower() if isinstance(actual, bool) else str(actual)
    return _COMPARE[op](left, str(wanted))


def evaluate(query: Query | None, attrs: Mapping[str, object]) -> bool:
    """Whether a host with ``attrs`` satisfies a parsed query."""
    if query is None:
        return True
    op, args = query[0], query[1:]
    if op == "and":
        return all(evaluate(q, attrs) for q in args)
    if op == "or":
        return any(evaluate(q, attrs) for q in args)
    if op == "not":
        return not evaluate(args[0], attrs)
    name = args[0][1:]
    if name not in attrs or attrs[name] is None:
        return False
    actual = attrs[name]
    if op == "in":
        return any(_compare("==", actual, v) for v in args[1:])
    return _compare(op, actual, args[1])


def predicate(*texts: str | list | None) -> Predicate | None:
    """One predicate for several queries (all must hold), or None."""
    queries = [q for q in (parse(t) for t in texts) if q is not None]
    if not queries:
        return None
    return lambda attrs: all(evaluate(q, attrs) for q in queries)
