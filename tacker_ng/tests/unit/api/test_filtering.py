"""The SOL013 filter parser: valid grammar, quoting, every malformed form."""

import contextlib
import string
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tacker_ng import exceptions
from tacker_ng.api import filtering
from tacker_ng.api.filtering import Term


def terms(text: str) -> list[tuple]:
    return [(t.op, t.attr, t.values) for t in filtering.parse(text).terms]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(eq,a,b)", [("eq", ("a",), ("b",))]),
        ("(neq,a/b/c,1)", [("neq", ("a", "b", "c"), ("1",))]),
        ("(in,a,x,y,z)", [("in", ("a",), ("x", "y", "z"))]),
        ("(eq,a,x,y)", [("eq", ("a",), ("x", "y"))]),
        ("(nin,a,x)", [("nin", ("a",), ("x",))]),
        ("(cont,a,x,y)", [("cont", ("a",), ("x", "y"))]),
        ("(ncont,a,x)", [("ncont", ("a",), ("x",))]),
        ("(gt,a,1)", [("gt", ("a",), ("1",))]),
        ("(gte,a,1)", [("gte", ("a",), ("1",))]),
        ("(lt,a,1)", [("lt", ("a",), ("1",))]),
        (
            "(lte,a,2024-01-01T00:00:00Z)",
            [("lte", ("a",), ("2024-01-01T00:00:00Z",))],
        ),
        (
            "(eq,a,1);(neq,b/c,2);(in,d,3,4)",
            [
                ("eq", ("a",), ("1",)),
                ("neq", ("b", "c"), ("2",)),
                ("in", ("d",), ("3", "4")),
            ],
        ),
        # Quoting: commas, closing brackets and quotes need it.
        ("(eq,a,'x,y')", [("eq", ("a",), ("x,y",))]),
        ("(eq,a,'x)y')", [("eq", ("a",), ("x)y",))]),
        ("(eq,a,'it''s')", [("eq", ("a",), ("it's",))]),
        ("(eq,a,'''')", [("eq", ("a",), ("'",))]),
        ("(eq,a,'''x''')", [("eq", ("a",), ("'x'",))]),
        ("(eq,a,'')", [("eq", ("a",), ("",))]),
        ("(eq,a,'',x)", [("eq", ("a",), ("", "x"))]),
        ("(in,a,'a,b','c)',d)", [("in", ("a",), ("a,b", "c)", "d"))]),
        ("(eq,a,'(x;y)')", [("eq", ("a",), ("(x;y)",))]),
        # Opening brackets and semicolons need no quoting inside a term.
        ("(eq,a,f(x)", [("eq", ("a",), ("f(x",))]),
        ("(eq,a,x;y)", [("eq", ("a",), ("x;y",))]),
        # Spaces, unicode and other characters are part of the value.
        ("(eq,a, x )", [("eq", ("a",), (" x ",))]),
        ("(eq,a,ünï ☃)", [("eq", ("a",), ("ünï ☃",))]),
        (
            "(eq,a,http://h:1/p?q=1&r=2)",
            [("eq", ("a",), ("http://h:1/p?q=1&r=2",))],
        ),
        (
            "(eq,vimConnectionInfo/*/vimType,x)",
            [("eq", ("vimConnectionInfo", "*", "vimType"), ("x",))],
        ),
        ("(eq,metadata/@key,x)", [("eq", ("metadata", "@key"), ("x",))]),
    ],
)
def test_valid_filters(text, expected):
    assert terms(text) == expected


def test_term_positions_are_one_based():
    parsed = filtering.parse("(eq,a,1);(eq,bb,2)")
    assert [t.position for t in parsed.terms] == [1, 10]
    assert parsed.terms[1].attr_name == "bb"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the filter is empty"),
        ("eq,a,b", "expected '(' to open a filter term at character 1 ('e')"),
        ("(eq,a,b", "expected ')' to close the term at the end of the filter"),
        ("(eq,a,b))", "expected ';' between terms at character 9 (')')"),
        (
            "(eq,a,b)(eq,c,d)",
            "expected ';' between terms at character 9 ('(')",
        ),
        ("(eq,a,b);", "expected a term after ';' at the end of the filter"),
        (
            "(eq,a,b);;(eq,c,d)",
            "expected '(' to open a filter term at character 10",
        ),
        (
            ";(eq,a,b)",
            "expected '(' to open a filter term at character 1 (';')",
        ),
        ("(eq,a,b) ", "expected ';' between terms at character 9 (' ')"),
        ("()", "missing operator at character 2 (')')"),
        ("(,a,b)", "missing operator at character 2 (',')"),
        ("(like,a,b)", "unknown operator 'like' at character 2"),
        ("(EQ,a,b)", "unknown operator 'EQ'"),
        ("( eq,a,b)", "unknown operator ' eq'"),
        ("(eq)", "expected ',' after the operator 'eq' at character 4 (')')"),
        ("(eq'x,a,b)", "expected ',' after the operator 'eq' at character 4"),
        ("(eq,a)", "expected ',' and a value after the attribute name 'a'"),
        (
            "(eq,a",
            "expected ',' and a value after the attribute name 'a' at the end",
        ),
        ("(eq,,b)", "missing attribute name at character 5"),
        ("(eq,a/,b)", "attribute name 'a/' at character 5 has an empty path"),
        ("(eq,/a,b)", "empty path segment"),
        ("(eq,a//b,c)", "empty path segment"),
        ("(eq,a'b,c)", 'attribute name contains "\'" at character 6'),
        ("(eq,a(b,c)", "attribute name contains '(' at character 6"),
        ("(eq,a;b,c)", "attribute name contains ';' at character 6"),
        ("(eq,a,)", "empty value at character 7 (')')"),
        ("(eq,a,,b)", "empty value at character 7 (',')"),
        ("(eq,a,b,)", "empty value at character 9 (')')"),
        ("(eq,a,b", "expected ')' to close the term"),
        (
            "(eq,a,it's)",
            "single quote inside an unquoted value at character 9",
        ),
        ("(eq,a,'x)", "unterminated quoted value starting at character 7"),
        ("(eq,a,'x''", "unterminated quoted value starting at character 7"),
        (
            "(eq,a,'x'y)",
            "expected ',' or ')' after the quoted value starting at "
            "character 7, found at character 10 ('y')",
        ),
        ("(eq,a,'x' )", "after the quoted value"),
        ("(eq,a,'x'", "found at the end of the filter"),
        ("(gt,a,1,2)", "operator 'gt' takes exactly one value, got 2"),
        ("(lte,a,1,2,3)", "operator 'lte' takes exactly one value, got 3"),
        ("(eq,a,b);(gt,c,1,2)", "in the term starting at character 10"),
    ],
)
def test_malformed_filters_are_400_with_a_precise_reason(text, reason):
    with pytest.raises(exceptions.InvalidFilter) as err:
        filtering.parse(text)
    assert err.value.status == 400
    assert reason in err.value.detail, err.value.detail
    assert err.value.detail.startswith("Invalid attribute-based filter: ")


def test_limits():
    many_values = "(in,a," + ",".join(["x"] * (filtering.MAX_VALUES + 1)) + ")"
    many_terms = ";".join(["(eq,a,b)"] * (filtering.MAX_TERMS + 1))
    too_long = "(eq,a," + "x" * filtering.MAX_FILTER_LENGTH + ")"
    for text, reason in (
        (many_values, "more than 64 values"),
        (many_terms, "more than 32 terms"),
        (too_long, "at most 8192 are accepted"),
    ):
        with pytest.raises(exceptions.InvalidFilter, match=reason):
            filtering.parse(text)
    filtering.parse(";".join(["(eq,a,b)"] * filtering.MAX_TERMS))


def test_quadratic_input_is_fast():
    """No backtracking: pathological inputs parse (or fail) in linear time."""
    start = time.perf_counter()
    for text in (
        "(eq,a,'" + "''" * 4000 + "')",
        "(eq,a," + "(" * 8000 + ")",
        "(" * 8000,
        "(in,a," + ",x" * 60 + ")",
    ):
        with contextlib.suppress(exceptions.InvalidFilter):
            filtering.parse(text)
    assert time.perf_counter() - start < 0.5


def test_quote():
    assert filtering.quote("plain") == "plain"
    assert filtering.quote("") == "''"
    assert filtering.quote("a,b") == "'a,b'"
    assert filtering.quote("a)") == "'a)'"
    assert filtering.quote("it's") == "'it''s'"
    assert str(filtering.parse("(eq,a/b,'x,y',z)")) == "(eq,a/b,'x,y',z)"


# --- properties -------------------------------------------------------------

_value = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20
)
_segment = st.text(
    alphabet=string.ascii_letters + string.digits + "_@*-.",
    min_size=1,
    max_size=8,
)


@st.composite
def _term(draw) -> Term:
    op = draw(st.sampled_from(sorted(filtering.OPERATORS)))
    attr = tuple(draw(st.lists(_segment, min_size=1, max_size=4)))
    count = 1 if op in filtering.ONE_VALUE_OPS else draw(st.integers(1, 4))
    values = tuple(draw(st.lists(_value, min_size=count, max_size=count)))
    return Term(op, attr, values)


@settings(max_examples=200, deadline=None)
@given(st.lists(_term(), min_size=1, max_size=5))
def test_rendered_filters_parse_back(parts):
    """Any AST rendered with SOL013 quoting parses back to itself."""
    text = ";".join(str(t) for t in parts)
    parsed = filtering.parse(text)
    assert [(t.op, t.attr, t.values) for t in parsed.terms] == [
        (t.op, t.attr, t.values) for t in parts
    ]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="(),;'eqinltg/ab", max_size=40))
def test_arbitrary_text_parses_or_is_400(text):
    """No input crashes the parser with anything but InvalidFilter."""
    try:
        parsed = filtering.parse(text)
    except exceptions.InvalidFilter as exc:
        assert exc.status == 400
    else:
        assert parsed.terms
        assert str(parsed)  # renders
