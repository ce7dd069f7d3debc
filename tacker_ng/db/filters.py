"""Compile a parsed SOL013 filter into one SQL boolean expression.

Values are typed by the resource's field map and compared as numbers,
booleans, date-times or (case-sensitive, code point ordered) strings.
Attributes inside JSON documents are evaluated by the database itself:
SQLite ``json_each``/``json_extract``, MariaDB ``JSON_EXTRACT``/
``JSON_TABLE``, PostgreSQL ``jsonb_path_query``. Through arrays and maps
a term matches when any element matches; a negated term (``neq``,
``nin``, ``ncont``) matches exactly when its positive term does not.
"""

import dataclasses
import json
from collections.abc import Sequence
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from tacker_ng import exceptions
from tacker_ng.db import field_maps as fm

_BAD_KEY_CHARS = frozenset('"\\') | frozenset(map(chr, range(32)))
#: Negated operators and the positive operator they negate.
NEGATIONS = {"neq": "eq", "nin": "in", "ncont": "cont"}


class Term(Protocol):
    """A filter term as :mod:`tacker_ng.api.filtering` parses it."""

    op: str
    attr: tuple[str, ...]
    values: tuple[str, ...]
    position: int

    @property
    def attr_name(self) -> str: ...


class Filter(Protocol):
    """Terms that must all match."""

    @property
    def terms(self) -> Sequence[Term]: ...


@dataclasses.dataclass(frozen=True)
class BoundTerm:
    """A term checked against a field map, its values typed."""

    term: Term
    field: fm.ColumnField | fm.JsonField
    values: tuple[Any, ...]


def _invalid(term: Term, reason: str) -> exceptions.InvalidFilter:
    return exceptions.InvalidFilter(
        reason=f"{reason} (term {term} at character {term.position})"
    )


def bind(flt: Filter, fields: fm.FieldMap) -> tuple[BoundTerm, ...]:
    """Check every term against ``fields``; 400 on what cannot be run."""
    bound = []
    for term in flt.terms:
        field = fields.resolve(term.attr)
        if field is None:
            raise _invalid(
                term,
                f"attribute {term.attr_name!r} is not supported in "
                f"filters of {fields.name}",
            )
        kind = field.type.kind
        if term.op not in field.type.ops:
            raise _invalid(
                term,
                f"operator {term.op!r} is not supported for the {kind} "
                f"attribute {term.attr_name!r}; use one of "
                f"{', '.join(sorted(field.type.ops))}",
            )
        if isinstance(field, fm.JsonField):
            for step, key in field.steps:
                if step == fm.KEY and _BAD_KEY_CHARS.intersection(key):
                    raise _invalid(
                        term, f"key {key!r} contains an unsupported character"
                    )
        values = []
        for value in term.values:
            try:
                values.append(field.type.coerce(value))
            except ValueError as exc:
                raise _invalid(
                    term, f"value {value!r} of {term.attr_name!r} {exc}"
                ) from None
        bound.append(BoundTerm(term, field, tuple(values)))
    return tuple(bound)


def compile_filter(
    flt: Filter | None, fields: fm.FieldMap, dialect: str
) -> sa.ColumnElement[bool]:
    """The WHERE clause for ``flt`` on ``dialect`` (``sqlite``, ``mysql``,
    ``mariadb`` or ``postgresql``); ``true`` when there is no filter."""
    if flt is None:
        return sa.true()
    sql = _DIALECTS.get(dialect)
    if sql is None:
        raise ValueError(f"filters are not supported on {dialect}")
    return sa.and_(*(_term(b, sql) for b in bind(flt, fields)))


def _term(bound: BoundTerm, sql: "_Sql") -> sa.ColumnElement[bool]:
    op = bound.term.op
    positive = NEGATIONS.get(op, op)
    field = bound.field
    if isinstance(field, fm.ColumnField):
        expr = _compare(
            sql, _ColumnLeaf(field.column), field.type, positive, bound.values
        )
        nullable = field.column.nullable
    elif not field.iterates:
        expr = _compare(
            sql, sql.scalar(field), field.type, positive, bound.values
        )
        nullable = True
    else:
        source, leaf, conds = sql.iterate(field)
        pred = _compare(sql, leaf, field.type, positive, bound.values)
        one = sa.select(sa.literal_column("1")).select_from(source)
        expr = sa.exists(one.where(*conds, pred))
        nullable = False
    if positive == op:
        return expr
    if nullable:
        expr = sa.func.coalesce(expr, sa.false())
    return sa.not_(expr)


def _compare(sql, leaf, ftype, op, values) -> sa.ColumnElement[bool]:
    kind = ftype.kind
    if kind == fm.ANY:
        return sa.or_(*(_compare_any(sql, leaf, op, v) for v in values))
    expr = sql.typed(leaf, kind)
    if kind == fm.DATETIME:
        values = tuple(sql.datetime_value(leaf, v) for v in values)
    if op in ("eq", "in"):
        expr = expr == values[0] if len(values) == 1 else expr.in_(values)
        if isinstance(leaf, _ColumnLeaf):
            return sql.indexed(leaf.column, kind, values, expr)
        return expr
    if op == "cont":
        return sa.or_(*(sql.contains(expr, v) for v in values))
    if kind == fm.STRING:
        expr = sql.ordered(expr)
    return _ORDER[op](expr, values[0])


_ORDER = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def _compare_any(sql, leaf, op, value: fm.AnyValue) -> sa.ColumnElement[bool]:
    """Free-form values: compare with whatever JSON type is stored."""
    text = sql.typed(leaf, fm.STRING)
    if op in ("eq", "in"):
        alternatives = [text == value.text]
        if value.number is not None:
            alternatives.append(sql.typed(leaf, fm.NUMBER) == value.number)
        if value.boolean is not None:
            alternatives.append(sql.typed(leaf, fm.BOOLEAN) == value.boolean)
        return sa.or_(*alternatives)
    if op == "cont":
        return sql.contains(text, value.text)
    if value.number is not None:
        return _ORDER[op](sql.typed(leaf, fm.NUMBER), value.number)
    return _ORDER[op](sql.ordered(text), value.text)


@dataclasses.dataclass(frozen=True)
class _ColumnLeaf:
    column: sa.Column


def _quoted(key: str) -> str:
    return f'."{key}"'


def _escaped(key: str) -> str:
    """``key`` as Python's json.dumps writes it (non-ASCII as ``\\uXXXX``):
    SQLite and MariaDB match path keys against the stored text."""
    return _quoted(json.dumps(key)[1:-1])


class _Sql:
    """How one database reads typed values out of JSON documents."""

    def typed(self, leaf, kind: str) -> sa.ColumnElement:
        if isinstance(leaf, _ColumnLeaf):
            return self.column(leaf.column, kind)
        if kind in (fm.STRING, fm.ENUM, fm.UUID):
            return self.string(leaf)
        return getattr(self, kind)(leaf)

    def column(self, column: sa.Column, kind: str) -> sa.ColumnElement:
        return column

    def indexed(self, column, kind, values, expr) -> sa.ColumnElement[bool]:
        """``expr`` (an equality on ``column``) in a form indexes serve."""
        return expr

    def datetime_value(self, leaf, value) -> Any:
        return value

    def ordered(self, expr: sa.ColumnElement) -> sa.ColumnElement:
        return expr


class _SQLite(_Sql):
    """Leaves are (json type, value) pairs from json_type/json_extract or
    from a ``json_each`` row."""

    def _path(self, doc, raw: str, escaped: str):
        if raw == escaped:
            return raw
        found = sa.func.json_type(doc, escaped).is_not(None)
        return sa.case((found, escaped), else_=raw)

    def scalar(self, field: fm.JsonField):
        col = field.column
        path = self._path(
            col,
            "$" + "".join(_quoted(k) for _, k in field.steps),
            "$" + "".join(_escaped(k) for _, k in field.steps),
        )
        return (sa.func.json_type(col, path), sa.func.json_extract(col, path))

    def iterate(self, field: fm.JsonField):
        doc, raw, escaped = field.column, "$", "$"
        source = row = leaf = None
        conds = []
        for step, key in field.steps:
            if step == fm.KEY:
                raw += _quoted(key)
                escaped += _escaped(key)
                continue
            path = self._path(doc, raw, escaped)
            row = sa.func.json_each(doc, path).table_valued(
                "key", "value", "type", joins_implicitly=True
            )
            want = "array" if step == fm.EACH else "object"
            conds.append(sa.func.json_type(doc, path) == want)
            source = row if source is None else source.join(row, sa.true())
            if step == fm.KEYS:
                leaf = (sa.literal("text"), row.c.key)
            doc = sa.case((row.c.type.in_(("object", "array")), row.c.value))
            raw = escaped = "$"
        if leaf is None:
            if raw == "$":
                leaf = (row.c.type, row.c.value)
            else:
                path = self._path(doc, raw, escaped)
                leaf = (
                    sa.func.json_type(doc, path),
                    sa.func.json_extract(doc, path),
                )
        return source, leaf, conds

    def string(self, leaf):
        return sa.case((leaf[0] == "text", leaf[1]), else_=sa.null())

    def number(self, leaf):
        return sa.case((leaf[0].in_(("integer", "real")), leaf[1]))

    def boolean(self, leaf):
        return sa.case((leaf[0] == "true", 1), (leaf[0] == "false", 0))

    def datetime(self, leaf):
        return sa.func.julianday(self.string(leaf))

    def datetime_value(self, leaf, value):
        if isinstance(leaf, _ColumnLeaf):
            return value
        return sa.func.julianday(value.isoformat())

    def contains(self, expr, value):
        return sa.func.instr(expr, value) > 0


class _MariaDB(_Sql):
    """Leaves are JSON texts: ``JSON_EXTRACT`` of a path, or the rows of a
    ``JSON_TABLE`` over the array a wildcard ``JSON_EXTRACT`` returns."""

    _BIN = "utf8mb4_bin"

    def _path(self, doc, field: fm.JsonField):
        spelt = []
        for quote in (_quoted, _escaped):
            spelt.append(
                "$"
                + "".join(
                    {fm.EACH: "[*]", fm.VALUES: ".*"}.get(step) or quote(key)
                    for step, key in field.steps
                    if step != fm.KEYS
                )
            )
        raw, escaped = spelt
        if raw == escaped:
            return raw
        found = sa.func.json_extract(doc, escaped).is_not(None)
        return sa.case((found, escaped), else_=raw)

    def scalar(self, field: fm.JsonField):
        return sa.func.json_extract(
            field.column, self._path(field.column, field)
        )

    def iterate(self, field: fm.JsonField):
        path = self._path(field.column, field)
        if field.steps[-1][0] == fm.KEYS:
            array = sa.func.json_keys(field.column, path)
        else:
            array = sa.func.json_extract(field.column, path)
        row = sa.func.json_table(
            array, sa.literal_column("'$[*]' COLUMNS (v JSON PATH '$')")
        ).table_valued("v", joins_implicitly=True)
        return row, row.c.v, []

    def _type(self, leaf):
        return sa.func.json_type(leaf)

    def string(self, leaf):
        text = sa.case(
            (self._type(leaf) == "STRING", sa.func.json_unquote(leaf))
        )
        return sa.collate(text, self._BIN)

    def number(self, leaf):
        kinds = ("INTEGER", "UNSIGNED INTEGER", "DOUBLE")
        value = sa.type_coerce(leaf, sa.Float()) + sa.literal_column("0")
        return sa.case((self._type(leaf).in_(kinds), value))

    def boolean(self, leaf):
        return sa.case(
            (
                self._type(leaf) == "BOOLEAN",
                sa.type_coerce(leaf, sa.String()) == "true",
            )
        )

    def datetime(self, leaf):
        text = self.string(leaf)
        fraction = sa.func.substring(text, 20, 1) == "."
        parsed = sa.case(
            (fraction, sa.func.str_to_date(text, "%Y-%m-%dT%H:%i:%s.%f")),
            else_=sa.func.str_to_date(text, "%Y-%m-%dT%H:%i:%s"),
        )
        offset = sa.case(
            (sa.func.right(text, 1).in_(("Z", "z")), "+00:00"),
            else_=sa.func.right(text, 6),
        )
        return sa.func.convert_tz(parsed, offset, "+00:00")

    def datetime_value(self, leaf, value):
        if isinstance(leaf, _ColumnLeaf):
            return value
        return value.replace(tzinfo=None)

    def column(self, column, kind):
        if kind == fm.STRING:
            return sa.collate(column, self._BIN)
        return column

    def indexed(self, column, kind, values, expr):
        if kind != fm.STRING:
            return expr
        # The column's (case-insensitive) collation lets its index narrow
        # the rows down; the binary comparison then decides.
        return sa.and_(column.in_(values), expr)

    def contains(self, expr, value):
        return sa.func.locate(value, expr) > 0


class _Postgres(_Sql):
    """Leaves are jsonb values: ``jsonb_extract_path`` of the keys, or the
    rows of ``jsonb_path_query`` over a jsonpath with wildcards."""

    _DT = r"^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$"

    def scalar(self, field: fm.JsonField):
        keys = [sa.literal(k, sa.Text) for _, k in field.steps]
        return sa.func.jsonb_extract_path(
            field.column, *keys, type_=postgresql.JSONB
        )

    def iterate(self, field: fm.JsonField):
        path = "lax $" + "".join(
            {
                fm.EACH: "[*]",
                fm.VALUES: ".*",
                fm.KEYS: ".keyvalue().key",
            }.get(step, _quoted(key) if step == fm.KEY else "")
            for step, key in field.steps
        )
        row = (
            sa.func.jsonb_path_query(
                field.column,
                sa.cast(sa.literal(path), postgresql.JSONPATH),
                sa.literal_column("'{}'::jsonb"),
                sa.true(),
            )
            .table_valued(
                sa.column("v", postgresql.JSONB), joins_implicitly=True
            )
            .render_derived()
        )
        return row, row.c.v, []

    def _text(self, leaf):
        return leaf.op("#>>", return_type=sa.Text)(sa.literal_column("'{}'"))

    def _is(self, leaf, kind, value):
        return sa.case((sa.func.jsonb_typeof(leaf) == kind, value))

    def string(self, leaf):
        return self._is(leaf, "string", self._text(leaf))

    def number(self, leaf):
        return self._is(leaf, "number", sa.cast(self._text(leaf), sa.Numeric))

    def boolean(self, leaf):
        return self._is(leaf, "boolean", sa.cast(self._text(leaf), sa.Boolean))

    def datetime(self, leaf):
        text = sa.func.regexp_replace(self.string(leaf), "[Zz]$", "+00:00")
        canonical = sa.func.jsonb_path_query_first(
            sa.func.to_jsonb(text),
            sa.cast(sa.literal("$.datetime()"), postgresql.JSONPATH),
            sa.literal_column("'{}'::jsonb"),
            sa.true(),
            type_=postgresql.JSONB,
        )
        return sa.case(
            (
                text.op("~")(self._DT),
                sa.cast(self._text(canonical), sa.DateTime(timezone=True)),
            )
        )

    def datetime_value(self, leaf, value):
        if isinstance(leaf, _ColumnLeaf):
            return value
        return sa.literal(value, sa.DateTime(timezone=True))

    def ordered(self, expr):
        return sa.collate(expr, "C")

    def contains(self, expr, value):
        return sa.func.strpos(expr, value) > 0


_DIALECTS: dict[str, _Sql] = {
    "sqlite": _SQLite(),
    "mysql": _MariaDB(),
    "mariadb": _MariaDB(),
    "postgresql": _Postgres(),
}
