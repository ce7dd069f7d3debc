"""Rules every automatic operation of the VNFM follows (auto-heal,
auto-scale): failures in a row delay the next attempt exponentially, and
after the allowed attempts none starts for a pause, then the count starts
again. Pure: the callers keep the count and the next-attempt time in
their own rows, written with the op occ's end.
"""

import dataclasses
import datetime

from tacker_ng.objects import lcm

S = lcm.OperationState
#: States an op occ never leaves.
FINAL = frozenset({S.COMPLETED, S.FAILED, S.ROLLED_BACK})


def backoff_delay(failures: int, base: float, cap: float) -> float:
    """Seconds before the next attempt after ``failures`` in a row."""
    if failures < 1:
        return 0.0
    return float(min(base * 2 ** (failures - 1), cap))


@dataclasses.dataclass(frozen=True)
class Failure:
    """The count after one more failed automatic operation."""

    failures: int
    attempts: int
    next_attempt: datetime.datetime
    exhausted: bool


def next_failure(
    failures_before: int,
    now: datetime.datetime,
    *,
    attempts: int,
    base: float,
    cap: float,
    pause: float,
) -> Failure:
    """One more failure: ``base * 2**(n-1)`` seconds (at most ``cap``)
    before the next attempt, ``pause`` once ``attempts`` are spent."""
    n = failures_before + 1
    exhausted = n >= attempts
    wait = float(pause) if exhausted else backoff_delay(n, base, cap)
    return Failure(
        n, attempts, now + datetime.timedelta(seconds=wait), exhausted
    )


def may_start(
    failures: int,
    next_attempt: datetime.datetime | None,
    attempts: int,
    now: datetime.datetime,
) -> tuple[bool, int]:
    """(an automatic operation may start now, the failure count it starts
    with): none before ``next_attempt``; once the pause after
    ``attempts`` failures is over, the count starts again."""
    if next_attempt is not None and next_attempt > now:
        return False, failures
    if failures >= attempts:
        return True, 0
    return True, failures
