"""Parser of the SOL013 (5.2) attribute-based ``filter`` query parameter.

A hand-written single-pass tokenizer (no regular expressions, linear time)
turns ``(eq,attr/path,value);(in,other,'a,b','c''d')`` into a small typed
AST. It knows the grammar only; which attributes exist and what type their
values have is decided against a field map in :mod:`tacker_ng.db.filters`.
Every malformed filter raises :class:`~tacker_ng.exceptions.InvalidFilter`
naming the 1-based character position and what is wrong.
"""

import dataclasses

from tacker_ng import exceptions

#: Operators taking exactly one value.
ONE_VALUE_OPS = frozenset({"gt", "lt", "gte", "lte"})
#: Operators taking one or more values (a list means "any of" for the
#: positive ones and "none of" for the negated ones).
MULTI_VALUE_OPS = frozenset({"eq", "neq", "in", "nin", "cont", "ncont"})
OPERATORS = ONE_VALUE_OPS | MULTI_VALUE_OPS

#: Limits that keep one request cheap to parse and to run.
MAX_FILTER_LENGTH = 8192
MAX_TERMS = 32
MAX_VALUES = 64

_QUOTE = "'"


@dataclasses.dataclass(frozen=True)
class Term:
    """One ``(op,attrName,value[,value]*)`` expression."""

    op: str
    #: The attribute path split on ``/`` (``("instantiatedVnfInfo",
    #: "vnfState")``).
    attr: tuple[str, ...]
    #: Values, unquoted and unescaped, in the order given.
    values: tuple[str, ...]
    #: 1-based position of the term's ``(`` in the filter, for messages.
    position: int = 0

    @property
    def attr_name(self) -> str:
        """The attribute path as the client wrote it."""
        return "/".join(self.attr)

    def __str__(self) -> str:
        return (
            f"({self.op},{self.attr_name},{','.join(map(quote, self.values))})"
        )


@dataclasses.dataclass(frozen=True)
class Filter:
    """Terms joined by ``;``: every term must match (logical AND)."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        return ";".join(str(t) for t in self.terms)


def quote(value: str) -> str:
    """``value`` as a filter would need to write it (inverse of parsing)."""
    if value and not any(c in value for c in ",)'"):
        return value
    return _QUOTE + value.replace(_QUOTE, _QUOTE * 2) + _QUOTE


def _fail(reason: str) -> exceptions.InvalidFilter:
    return exceptions.InvalidFilter(reason=reason)


class _Scanner:
    """Cursor over the filter text; positions in messages are 1-based."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def where(self, pos: int | None = None) -> str:
        pos = self.pos if pos is None else pos
        if pos >= len(self.text):
            return "at the end of the filter"
        return f"at character {pos + 1} ({self.text[pos]!r})"

    def expect(self, char: str, term_start: int, what: str) -> None:
        if self.peek() != char:
            raise _fail(
                f"expected {char!r} {what} {self.where()} in the term "
                f"starting at character {term_start + 1}"
            )
        self.pos += 1

    def read_until(self, stops: str) -> str:
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] not in stops:
            self.pos += 1
        return text[start : self.pos]


def _parse_value(scan: _Scanner, term_start: int) -> str:
    start = scan.pos
    if scan.peek() == _QUOTE:
        scan.pos += 1
        chunks = []
        while True:
            chunk = scan.read_until(_QUOTE)
            chunks.append(chunk)
            if scan.pos >= len(scan.text):
                raise _fail(
                    f"unterminated quoted value starting at character "
                    f"{start + 1} in the term starting at character "
                    f"{term_start + 1}"
                )
            scan.pos += 1  # the quote
            if scan.peek() == _QUOTE:  # '' is an escaped quote
                chunks.append(_QUOTE)
                scan.pos += 1
                continue
            break
        if scan.peek() not in (",", ")"):
            raise _fail(
                f"expected ',' or ')' after the quoted value starting at "
                f"character {start + 1}, found {scan.where()}; a single "
                "quote inside a quoted value is written as two quotes ('')"
            )
        return "".join(chunks)
    value = scan.read_until(",)'")
    if scan.peek() == _QUOTE:
        raise _fail(
            f"single quote inside an unquoted value {scan.where()}: enclose "
            "the value in single quotes and write the quote as ''"
        )
    if not value:
        raise _fail(
            f"empty value {scan.where(start)} in the term starting at "
            f"character {term_start + 1} (write '' for an empty string)"
        )
    return value


def _parse_attr(scan: _Scanner, term_start: int) -> tuple[str, ...]:
    start = scan.pos
    name = scan.read_until(",)'(;")
    if scan.peek() != ",":
        if scan.peek() in ("'", "(", ";"):
            raise _fail(
                f"attribute name contains {scan.peek()!r} {scan.where()}"
            )
        raise _fail(
            f"expected ',' and a value after the attribute name "
            f"{name!r} {scan.where()} in the term starting at character "
            f"{term_start + 1}"
        )
    if not name:
        raise _fail(f"missing attribute name {scan.where(start)}")
    segments = tuple(name.split("/"))
    if any(not s for s in segments):
        raise _fail(
            f"attribute name {name!r} at character {start + 1} has an "
            "empty path segment (leading, trailing or doubled '/')"
        )
    return segments


def _parse_term(scan: _Scanner) -> Term:
    term_start = scan.pos
    scan.expect("(", term_start, "to open a filter term")
    op_start = scan.pos
    op = scan.read_until(",)'(;")
    if op not in OPERATORS:
        if not op:
            raise _fail(f"missing operator {scan.where(op_start)}")
        raise _fail(
            f"unknown operator {op!r} at character {op_start + 1}; "
            f"use one of {', '.join(sorted(OPERATORS))}"
        )
    scan.expect(",", term_start, f"after the operator {op!r}")
    attr = _parse_attr(scan, term_start)
    values = []
    while scan.peek() == ",":
        scan.pos += 1
        values.append(_parse_value(scan, term_start))
        if len(values) > MAX_VALUES:
            raise _fail(
                f"more than {MAX_VALUES} values in the term starting at "
                f"character {term_start + 1}"
            )
    scan.expect(")", term_start, "to close the term")
    if op in ONE_VALUE_OPS and len(values) != 1:
        raise _fail(
            f"operator {op!r} takes exactly one value, got {len(values)} "
            f"in the term starting at character {term_start + 1}"
        )
    return Term(op, attr, tuple(values), term_start + 1)


def parse(text: str) -> Filter:
    """Parse a SOL013 ``filter`` expression into a :class:`Filter`."""
    if not text:
        raise _fail("the filter is empty")
    if len(text) > MAX_FILTER_LENGTH:
        raise _fail(
            f"the filter is {len(text)} characters long; at most "
            f"{MAX_FILTER_LENGTH} are accepted"
        )
    scan = _Scanner(text)
    terms = [_parse_term(scan)]
    while scan.pos < len(text):
        if scan.peek() != ";":
            raise _fail(
                f"expected ';' between terms {scan.where()} (after the "
                f"term starting at character {terms[-1].position})"
            )
        scan.pos += 1
        if scan.pos >= len(text):
            raise _fail("expected a term after ';' at the end of the filter")
        terms.append(_parse_term(scan))
        if len(terms) > MAX_TERMS:
            raise _fail(f"more than {MAX_TERMS} terms in the filter")
    return Filter(tuple(terms))
