"""Run, resume and revert an op occ's flow on taskflow's serial engine.

The flow detail of an op occ (one logbook per op occ, both keyed by its
id) lives in the shared database through taskflow's SQLAlchemy backend,
bound to our own engine (its tables come from our migrations). Whoever
runs the op occ next (the same conductor after a retry, another after a
crash) loads it and taskflow skips every atom that already finished.

Forward runs use ``never_resolve``: a failing task stops the flow as it
is (SOL003 FAILED_TEMP, nothing undone) instead of taskflow's automatic
revert; a rollback asks taskflow to revert exactly the atoms that ran.

taskflow opens a persistence connection for every atom state it saves,
and its connection builds new Table objects each time; SQLAlchemy then
adapts the column types and compiles every statement again (its cache is
keyed by the tables). Our connections share one set of tables per
process (:func:`_schema`): about 15 times less CPU per save in a
micro-benchmark; flow persistence was a quarter of a busy conductor's
profile (py-spy).

Two more cuts keep a conductor's statements per operation down (issue
#32: 125 statements per instantiate, three quarters taskflow's): an atom
detail is saved with one UPDATE, not taskflow's SELECT-merge-UPDATE (the
op occ's claim makes one conductor its flow's only writer), and the
progress taskflow records at an atom's start and end (0.0 and 1.0, four
saves per atom that nothing reads: our own progress is the op occ's
column) is not written.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa
import taskflow.engines
from taskflow import exceptions as tf_exc
from taskflow import states
from taskflow.persistence import models as tf_models
from taskflow.persistence.backends import impl_sqlalchemy
from taskflow.persistence.backends.sqlalchemy import tables as tf_tables

from tacker_ng.conductor.flows import steps
from tacker_ng.db import api as db_api


class _EngineFailureFilter(logging.Filter):
    """Drop taskflow's "Engine execution has failed" record.

    taskflow logs it, with a traceback, at ERROR for every failed task,
    an expected VIM or NFVO error included, and then re-raises the failure
    to :func:`run_forward`/:func:`run_revert`; the runner logs it once,
    in our words (a WARNING line for an expected failure, a traceback only
    for an internal error).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Engine execution has failed")


logging.getLogger("taskflow.engines.action_engine.engine").addFilter(
    _EngineFailureFilter()
)

#: Namespace of the flow detail ids derived from op occ ids.
_FLOW_NS = uuid.UUID("6c0f3f52-5f5e-4c8e-9d1e-0b7a4f1d2c11")


def flow_id(op_occ_id: str) -> str:
    """The flow detail id of an op occ (stable on every conductor)."""
    return str(uuid.uuid5(_FLOW_NS, op_occ_id))


def _retried(write: Callable[..., Any]) -> Callable[..., Any]:
    """One of taskflow's write transactions, run again after a deadlock
    or a lost connection like every writer of ours (db.api)."""

    @functools.wraps(write)
    def call(*args: Any, **kwargs: Any) -> Any:
        for attempt in db_api.retrying():
            with attempt:
                try:
                    return write(*args, **kwargs)
                except tf_exc.StorageFailure as exc:
                    cause = exc.__cause__ or getattr(exc, "cause", None)
                    if isinstance(cause, db_api.RETRIABLE):
                        raise cause from exc
                    raise
        raise AssertionError("unreachable: tenacity re-raises")

    return call


@functools.cache
def _schema() -> tuple[Any, Any, Any]:
    """taskflow's (metadata, tables, converter), built once per process."""
    metadata = sa.MetaData()
    tables = tf_tables.fetch(metadata)
    return metadata, tables, impl_sqlalchemy._Alchemist(tables)  # noqa: SLF001


class _Connection(impl_sqlalchemy.Connection):
    """taskflow's connection with its writers under our deadlock retry,
    on the process's shared tables (tests/unit/lcm/test_flow_engine.py
    checks that it sets every attribute taskflow's own ``__init__``
    does)."""

    def __init__(self, backend: Any, upgrade_lock: Any) -> None:
        # Not super().__init__: it would build the tables again.
        self._backend = backend
        self._upgrade_lock = upgrade_lock
        self._engine = backend.engine
        self._metadata, self._tables, self._converter = _schema()

    save_logbook = _retried(impl_sqlalchemy.Connection.save_logbook)
    update_flow_details = _retried(
        impl_sqlalchemy.Connection.update_flow_details
    )

    @_retried
    def update_atom_details(self, atom_detail: Any) -> Any:
        """Save an atom detail with one UPDATE.

        taskflow reads the row back and merges it first, for writers that
        share a flow; an op occ's flow has one writer (the conductor that
        claimed the op occ), whose atom detail is the whole truth.
        """
        table = self._tables.atomdetails
        try:
            with self._engine.begin() as conn:
                found = conn.execute(
                    sa.update(table)
                    .where(table.c.uuid == atom_detail.uuid)
                    .values(atom_detail.to_dict())
                ).rowcount
        except sa.exc.SQLAlchemyError as exc:
            raise tf_exc.StorageFailure(
                f"Failed updating atom details with uuid {atom_detail.uuid}",
                exc,
            ) from exc
        if not found:
            raise tf_exc.NotFound(
                f"No atom details found with uuid '{atom_detail.uuid}'"
            )
        return atom_detail

    destroy_logbook = _retried(impl_sqlalchemy.Connection.destroy_logbook)


class _Backend(impl_sqlalchemy.SQLAlchemyBackend):
    """taskflow's SQLAlchemy backend on our engine (our tables)."""

    def get_connection(self) -> _Connection:
        return _Connection(self, upgrade_lock=self._upgrade_lock)


@contextlib.contextmanager
def connection() -> Iterator[Any]:
    """A taskflow persistence connection on the shared database."""
    engine = db_api.get_engine()
    backend = _Backend({"connection": str(engine.url)}, engine=engine)
    with contextlib.closing(backend.get_connection()) as conn:
        yield backend, conn


def _book(conn, op_occ_id: str, create: bool):
    try:
        return conn.get_logbook(op_occ_id)
    except tf_exc.NotFound:
        if not create:
            return None
    book = tf_models.LogBook(f"op-occ-{op_occ_id}", uuid=op_occ_id)
    book.add(tf_models.FlowDetail(f"op-occ-{op_occ_id}", flow_id(op_occ_id)))
    conn.save_logbook(book)
    return conn.get_logbook(op_occ_id)


def _no_progress(task_name: str, progress: float, details: Any = None) -> None:
    """Stands in for ``Storage.set_task_progress``: saves nothing."""


def _load(run: steps.Run, backend, book, **options: Any):
    flow_detail = book.find(flow_id(run.op_occ_id))
    engine = taskflow.engines.load(
        steps.build(run),
        flow_detail=flow_detail,
        book=book,
        backend=backend,
        engine="serial",
        **options,
    )
    # Progress nobody reads: not saved (see the module's docstring).
    engine.storage.set_task_progress = _no_progress
    engine.compile()
    engine.prepare()
    return engine


def _atom_states(engine) -> dict[str, str]:
    names = list(steps.STEP_LABELS)
    found = engine.storage.get_atoms_states(names)
    return {name: found[name][0] for name in names}


def failed_step(op_occ_id: str) -> str | None:
    """The step (as the NFVO reads it) whose atom failed last, if any."""
    with connection() as (_, conn):
        book = _book(conn, op_occ_id, create=False)
        if book is None:
            return None
        flow = book.find(flow_id(op_occ_id))
        for atom in flow or []:
            if atom.state in (states.FAILURE, states.REVERT_FAILURE):
                return steps.STEP_LABELS.get(atom.name)
    return None


#: Atoms that act on the VNF (a hook or the infra driver).
_ACTING = ("start_hook", "driver", "end_hook")


def touched_vnf(op_occ_id: str) -> bool:
    """Whether a hook or the driver of this op occ ever started: when not
    (the op failed at its grant, or before its flow started, e.g. with no
    VIM), a rollback has nothing to undo."""
    with connection() as (_, conn):
        book = _book(conn, op_occ_id, create=False)
        if book is None:
            return False
        flow = book.find(flow_id(op_occ_id))
        return any(
            atom.name in _ACTING and atom.state != states.PENDING
            for atom in flow or []
        )


def run_forward(run: steps.Run) -> None:
    """Run the flow from its first unfinished atom.

    Atoms that failed in an earlier run (or whose rollback failed) are
    run again (SOL003 retry); atoms that finished are not. A task's
    exception propagates after taskflow recorded it; nothing is reverted.
    """
    with connection() as (backend, conn):
        book = _book(conn, run.op_occ_id, create=True)
        engine = _load(run, backend, book, never_resolve=True)
        for name, atom_state in _atom_states(engine).items():
            if atom_state in (
                states.FAILURE,
                states.REVERTED,
                states.REVERT_FAILURE,
            ):
                engine.storage.set_atom_state(name, states.PENDING)
                engine.storage.set_atom_intention(name, states.EXECUTE)
        if engine.storage.get_flow_state() == states.REVERTED:
            engine.storage.set_flow_state(states.PENDING)
        engine.run()


def run_revert(run: steps.Run) -> bool:
    """Revert, newest first, every atom that ran; False if none ever did.

    A revert that failed before (REVERT_FAILURE) is attempted again.
    """
    with connection() as (backend, conn):
        book = _book(conn, run.op_occ_id, create=False)
        if book is None:
            return False
        engine = _load(run, backend, book)
        atoms = _atom_states(engine)
        if all(s in (states.PENDING, states.REVERTED) for s in atoms.values()):
            return False
        for name, atom_state in atoms.items():
            if atom_state == states.REVERT_FAILURE:
                engine.storage.set_atom_state(name, states.FAILURE)
            engine.storage.set_atom_intention(name, states.REVERT)
        try:
            engine.run()
        except Exception:
            # After a complete revert taskflow re-raises the failure that
            # started it; only a revert that failed is an error here.
            if engine.storage.get_flow_state() != states.REVERTED:
                raise
        return True
