"""A conductor's own figures, reported with its heartbeat.

The observer's cycle time and the jobboard's depth are known only inside
a conductor process; rather than give every conductor a listener of its
own for Prometheus, each conductor keeps its latest figures here and its
heartbeat (an UPDATE it runs anyway) writes them into its ``conductors``
row, where the API's ``/metrics`` reads the whole fleet in one query.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from tacker_ng.db.types import utcnow

T = TypeVar("T")


class ConductorFigures:
    """The latest figures of this process (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._columns: dict[str, Any] = {}

    def observe_cycle(self, seconds: float) -> None:
        """An observation cycle ended after ``seconds``."""
        with self._lock:
            self._columns["observe_cycle_seconds"] = seconds
            self._columns["observe_cycle_at"] = utcnow()

    def jobboard(self, jobs: int, unclaimed: int) -> None:
        """The jobboard holds ``jobs`` jobs, ``unclaimed`` of them not
        claimed by any conductor."""
        with self._lock:
            self._columns["jobboard_jobs"] = jobs
            self._columns["jobboard_unclaimed"] = unclaimed

    def columns(self) -> dict[str, Any]:
        """The ``conductors`` columns to write (only the known ones)."""
        with self._lock:
            return dict(self._columns)


#: This process' figures (one conductor per process).
FIGURES = ConductorFigures()


def timed_cycle(
    run: Callable[[], T], figures: ConductorFigures = FIGURES
) -> Callable[[], T]:
    """``run`` (an observation cycle) that records how long it took;
    a cycle that raised is not recorded (its time says nothing)."""

    def cycle() -> T:
        start = time.perf_counter()
        result = run()
        figures.observe_cycle(time.perf_counter() - start)
        return result

    return cycle
