"""Label and field selectors, in their string and LabelSelector forms.

The grammar follows k8s.io/apimachinery/pkg/labels (``a=b``, ``a!=b``,
``a in (x,y)``, ``a notin (x)``, ``a``, ``!a``, ``a>1``, ``a<1``) and
pkg/fields (``f=v``, ``f==v``, ``f!=v``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class SelectorError(ValueError):
    """A selector string or object that the API server would refuse."""


@dataclass(frozen=True)
class Requirement:
    """One clause: ``key <op> values``."""

    key: str
    op: str  # In, NotIn, Exists, DoesNotExist, Gt, Lt, Equals, NotEquals
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        present = self.key in labels
        value = labels.get(self.key)
        if self.op in ("In", "Equals"):
            return present and value in self.values
        if self.op in ("NotIn", "NotEquals"):
            return not present or value not in self.values
        if self.op == "Exists":
            return present
        if self.op == "DoesNotExist":
            return not present
        if self.op in ("Gt", "Lt"):
            try:
                have, want = int(value or ""), int(self.values[0])
            except ValueError:
                return False
            return have > want if self.op == "Gt" else have < want
        raise SelectorError(f"unknown operator {self.op}")


@dataclass(frozen=True)
class LabelSelector:
    """A conjunction of requirements; empty selects everything."""

    requirements: tuple[Requirement, ...] = ()
    nothing: bool = False

    def matches(self, labels: Mapping[str, str] | None) -> bool:
        if self.nothing:
            return False
        labels = labels or {}
        return all(r.matches(labels) for r in self.requirements)

    def __str__(self) -> str:
        parts = []
        for r in self.requirements:
            if r.op == "Equals":
                parts.append(f"{r.key}={r.values[0]}")
            elif r.op == "NotEquals":
                parts.append(f"{r.key}!={r.values[0]}")
            elif r.op in ("In", "NotIn"):
                vals = ",".join(sorted(r.values))
                parts.append(f"{r.key} {r.op.lower()} ({vals})")
            elif r.op == "Exists":
                parts.append(r.key)
            elif r.op == "DoesNotExist":
                parts.append(f"!{r.key}")
            else:
                sign = ">" if r.op == "Gt" else "<"
                parts.append(f"{r.key}{sign}{r.values[0]}")
        return ",".join(parts)


EVERYTHING = LabelSelector()
NOTHING = LabelSelector(nothing=True)

_SET_RE = re.compile(
    r"^\s*(!?)\s*([A-Za-z0-9_./-]+)\s*(?:(notin|in)\s*\(([^)]*)\))?\s*$"
)
_CMP_RE = re.compile(r"^\s*([A-Za-z0-9_./-]+)\s*(==|=|!=|>|<)\s*(.*?)\s*$")


def _split_top(text: str) -> list[str]:
    """Split on commas that are not inside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in parts if p.strip()]


def parse_labels(text: str | None) -> LabelSelector:
    """Parse the ``labelSelector`` query parameter."""
    if not text or not text.strip():
        return EVERYTHING
    reqs = []
    for clause in _split_top(text):
        cmp_match = _CMP_RE.match(clause)
        if cmp_match and not re.match(r"^\s*!", clause):
            key, op, value = cmp_match.groups()
            if op in (">", "<"):
                if not re.fullmatch(r"-?\d+", value):
                    raise SelectorError(
                        f"unable to parse requirement: for 'Gt', 'Lt' "
                        f"operators, the value must be an integer: {value}"
                    )
                reqs.append(
                    Requirement(key, "Gt" if op == ">" else "Lt", (value,))
                )
            else:
                name = "NotEquals" if op == "!=" else "Equals"
                reqs.append(Requirement(key, name, (value,)))
            continue
        set_match = _SET_RE.match(clause)
        if not set_match:
            raise SelectorError(
                f"unable to parse requirement: found '{clause.strip()}'"
            )
        bang, key, op, values = set_match.groups()
        if op:
            if bang:
                raise SelectorError(f"unable to parse requirement: {clause}")
            vals = tuple(v.strip() for v in values.split(",") if v.strip())
            reqs.append(
                Requirement(key, "In" if op == "in" else "NotIn", vals)
            )
        else:
            reqs.append(Requirement(key, "DoesNotExist" if bang else "Exists"))
    return LabelSelector(tuple(reqs))


def from_object(
    selector: Mapping[str, Any] | None, *, none_matches_nothing: bool = True
) -> LabelSelector:
    """A metav1.LabelSelector (matchLabels/matchExpressions) as a selector.

    A nil selector selects nothing; an empty one selects everything
    (metav1.LabelSelectorAsSelector).
    """
    if selector is None:
        return NOTHING if none_matches_nothing else EVERYTHING
    reqs = [
        Requirement(k, "Equals", (str(v),))
        for k, v in sorted((selector.get("matchLabels") or {}).items())
    ]
    for expr in selector.get("matchExpressions") or []:
        op = expr.get("operator")
        values = tuple(str(v) for v in expr.get("values") or ())
        if op not in ("In", "NotIn", "Exists", "DoesNotExist"):
            raise SelectorError(
                f"{op!r} is not a valid label selector operator"
            )
        if op in ("In", "NotIn") and not values:
            raise SelectorError(
                "values: Required value: must be specified "
                "when `operator` is 'In' or 'NotIn'"
            )
        reqs.append(Requirement(expr["key"], op, values))
    return LabelSelector(tuple(reqs))


def to_string(selector: Mapping[str, Any] | None) -> str:
    """metav1.FormatLabelSelector-like rendering (for Scale.status)."""
    return str(from_object(selector, none_matches_nothing=False))


@dataclass(frozen=True)
class FieldSelector:
    """Conjunction of ``field=value`` / ``field!=value`` terms."""

    terms: tuple[tuple[str, bool, str], ...] = ()

    def matches(self, getter: Callable[[str], str | None]) -> bool:
        for field, equal, value in self.terms:
            have = getter(field)
            have = "" if have is None else have
            if (have == value) != equal:
                return False
        return True

    def fields(self) -> set[str]:
        return {t[0] for t in self.terms}

    def value_of(self, field: str) -> str | None:
        for name, equal, value in self.terms:
            if name == field and equal:
                return value
        return None


def parse_fields(text: str | None) -> FieldSelector:
    """Parse the ``fieldSelector`` query parameter."""
    if not text or not text.strip():
        return FieldSelector()
    terms = []
    for clause in text.split(","):
        if not clause.strip():
            continue
        match = re.match(r"^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$", clause)
        if not match:
            raise SelectorError(
                f"invalid selector: '{text}'; can't understand '{clause}'"
            )
        field, op, value = match.groups()
        terms.append((field, op != "!=", value))
    return FieldSelector(tuple(terms))
