"""The retry policy of write transactions (deadlocks, lost connections)."""

import ast
import pathlib

import pytest
from oslo_db import exception as db_exc

from tacker_ng.db import api as db_api

ROOT = pathlib.Path(db_api.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_wait(monkeypatch):
    monkeypatch.setattr(db_api, "RETRY_BASE_SECONDS", 0)
    monkeypatch.setattr(db_api, "RETRY_CAP_SECONDS", 0)


def _failing(times: int, exc: Exception):
    calls = []

    def fn(value):
        calls.append(value)
        if len(calls) <= times:
            raise exc
        return value * 2

    return fn, calls


@pytest.mark.parametrize(
    "exc",
    [db_exc.DBDeadlock(), db_exc.DBConnectionError()],
    ids=["deadlock", "connection"],
)
def test_decorator_runs_the_transaction_again(exc):
    fn, calls = _failing(3, exc)
    assert db_api.retry_on_deadlock(fn)(21) == 42
    assert calls == [21] * 4


def test_decorator_gives_up_after_max_attempts():
    fn, calls = _failing(100, db_exc.DBDeadlock())
    with pytest.raises(db_exc.DBDeadlock):
        db_api.retry_on_deadlock(fn)(1)
    assert len(calls) == db_api.MAX_ATTEMPTS


@pytest.mark.parametrize(
    "exc",
    [ValueError("no"), db_exc.DBDuplicateEntry(), db_exc.DBError("x")],
    ids=["value", "duplicate", "generic-db"],
)
def test_other_errors_are_not_retried(exc):
    fn, calls = _failing(1, exc)
    with pytest.raises(type(exc)):
        db_api.retry_on_deadlock(fn)(1)
    assert len(calls) == 1


def test_loop_form_returns_and_retries():
    attempts = []

    def transaction():
        for attempt in db_api.retrying():
            with attempt:
                attempts.append(1)
                if len(attempts) < 3:
                    raise db_exc.DBDeadlock()
                return "done"
        return "not reached"

    assert transaction() == "done"
    assert len(attempts) == 3


def test_no_retry_inside_an_open_transaction(db):
    """Only the outermost transaction can be run again: the database
    rolled back all of it, not just the inner part."""
    fn, calls = _failing(1, db_exc.DBDeadlock())
    with db_api.writer() as session:
        assert session is not None
        assert db_api.in_transaction()
        with pytest.raises(db_exc.DBDeadlock):
            db_api.retry_on_deadlock(fn)(1)
    assert len(calls) == 1
    assert not db_api.in_transaction()


def test_outer_retry_reruns_the_inner_writer(db):
    inner, calls = _failing(1, db_exc.DBDeadlock())

    @db_api.retry_on_deadlock
    def outer():
        with db_api.writer():
            return db_api.retry_on_deadlock(inner)(5)

    assert outer() == 10
    assert len(calls) == 2


# -- every outermost writer of the product goes through the policy ----------


def _is_writer(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("writer", "write_connection")
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "db_api"
    )


def _covered(path: pathlib.Path) -> list[str]:
    """``file:line`` of writer calls outside the retry policy."""
    tree = ast.parse(path.read_text())
    bad: list[str] = []

    def visit(node, guarded: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            decos = {ast.unparse(d) for d in node.decorator_list}
            guarded = guarded or "db_api.retry_on_deadlock" in decos
        if isinstance(node, ast.For) and "db_api.retrying()" in ast.unparse(
            node.iter
        ):
            guarded = True
        if isinstance(node, ast.With):
            for item in node.items:
                if _is_writer(item.context_expr):
                    if not guarded:
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                    guarded = True  # nested writers join this one
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return bad


def test_every_outermost_writer_is_retried():
    sources = [
        p
        for p in ROOT.rglob("*.py")
        if "tests" not in p.relative_to(ROOT).parts
        and p != pathlib.Path(db_api.__file__).resolve()
    ]
    assert len(sources) > 100
    unguarded = [where for p in sources for where in _covered(p)]
    assert unguarded == [], (
        "write transactions outside db_api.retrying()/retry_on_deadlock"
    )


def test_the_coverage_check_finds_an_unguarded_writer(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(ctx):\n"
        "    with db_api.writer(ctx) as s:\n"
        "        s.execute('x')\n"
    )
    good = tmp_path / "good.py"
    good.write_text(
        "@db_api.retry_on_deadlock\n"
        "def f(ctx):\n"
        "    with db_api.writer(ctx) as s:\n"
        "        with db_api.writer(ctx) as inner:\n"
        "            inner.execute('x')\n"
        "def g(ctx):\n"
        "    for attempt in db_api.retrying():\n"
        "        with attempt, db_api.writer(ctx) as s:\n"
        "            s.execute('x')\n"
    )
    global ROOT  # noqa: PLW0603 - the check reports paths under ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert _covered(bad) == ["bad.py:2"]
        assert _covered(good) == []
    finally:
        ROOT = saved
