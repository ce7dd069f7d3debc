"""Follow an LCM operation occurrence until it ends (``op wait``).

Pure logic with the clock, the poll and the output injected, so that it
is tested without a server. tacker-ng exposes the operationState of an op
occ, not a percentage, so the progress shown is the state machine's:
STARTING -> PROCESSING (-> ROLLING_BACK) -> a final state.
"""

import dataclasses
import time
from collections.abc import Callable
from typing import Any, TextIO

#: States an op occ does not leave by itself (SOL003 5.6.2.2).
FINAL = frozenset({"COMPLETED", "FAILED_TEMP", "FAILED", "ROLLED_BACK"})
#: Final states that mean the operation did not do what was asked.
UNSUCCESSFUL = frozenset({"FAILED_TEMP", "FAILED", "ROLLED_BACK"})
#: Position of each state on the progress bar (steps of STEPS).
_STEP = {
    "STARTING": 1,
    "PROCESSING": 2,
    "ROLLING_BACK": 2,
    "COMPLETED": 3,
    "FAILED_TEMP": 3,
    "FAILED": 3,
    "ROLLED_BACK": 3,
}
STEPS = 3
BAR_WIDTH = 24


class WaitTimeout(Exception):
    """The op occ was still not final when the time was up."""

    def __init__(self, occ: dict[str, Any], timeout: float) -> None:
        self.occ = occ
        super().__init__(
            f"Operation {occ.get('operation')} ({occ.get('id')}) is still "
            f"{occ.get('operationState')} after {timeout:g} s."
        )


def error_text(occ: dict[str, Any]) -> str:
    """One line from the op occ's ProblemDetails ``error``."""
    error = occ.get("error") or {}
    parts = [error.get("title"), error.get("detail")]
    text = ": ".join(str(p) for p in parts if p)
    return text or "no error details recorded"


def outcome_message(occ: dict[str, Any]) -> str:
    """What the caller is told when the operation did not succeed."""
    return (
        f"Operation {occ.get('operation')} ({occ.get('id')}) ended "
        f"{occ.get('operationState')}: {error_text(occ)}"
    )


def bar(state: str, elapsed: float) -> str:
    """A progress bar line for a terminal: ``[#####...] STATE 12s``."""
    step = _STEP.get(state, 1)
    filled = BAR_WIDTH * step // STEPS
    return (
        f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] "
        f"{state:<12} {int(elapsed):>4d}s"
    )


@dataclasses.dataclass
class Reporter:
    """Shows state changes: a redrawn bar on a TTY, else one line each."""

    out: TextIO
    tty: bool
    last: str | None = None

    def update(self, occ: dict[str, Any], elapsed: float) -> None:
        state = occ.get("operationState", "?")
        if self.tty:
            self.out.write(f"\r{bar(state, elapsed)}")
            if state in FINAL:
                self.out.write("\n")
        elif state != self.last:
            self.out.write(
                f"{elapsed:7.1f}s {occ.get('operation')} {occ.get('id')} "
                f"{state}\n"
            )
        self.out.flush()
        self.last = state


def wait(
    poll: Callable[[], dict[str, Any]],
    reporter: Reporter,
    timeout: float,
    interval: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Poll until the op occ is final; returns it (whatever the state).

    Raises :class:`WaitTimeout` when ``timeout`` seconds pass first.
    """
    started = clock()
    while True:
        occ = poll()
        elapsed = clock() - started
        reporter.update(occ, elapsed)
        if occ.get("operationState") in FINAL:
            return occ
        if elapsed >= timeout:
            if reporter.tty:
                reporter.out.write("\n")
            raise WaitTimeout(occ, timeout)
        sleep(min(interval, max(timeout - elapsed, 0.0)))
