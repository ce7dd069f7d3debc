"""Bounded, cancellable polls of a VIM resource, and SOL timestamps."""

import datetime
import time
from collections.abc import Callable

from tacker_ng.infra import base
from tacker_ng.objects import times


def now() -> str:
    """The current time as SOL003 writes it."""
    return times.sol_time(datetime.datetime.now(datetime.UTC))


#: Cap of a poll's interval when the caller names none (seconds).
MAX_INTERVAL = 2.0


def backoff(interval: float, cap: float = MAX_INTERVAL) -> float:
    """The wait after ``interval``: half again as long, at most ``cap``
    (never below ``interval``): a quick answer is seen quickly, a slow
    one costs few calls."""
    return max(min(interval * 1.5, cap), min(interval, cap))


def poll(
    check: Callable[[], str | None],
    timeout: float,
    interval: float,
    task: base.LcmTask,
    fail: Callable[[str], Exception],
    max_interval: float = MAX_INTERVAL,
) -> None:
    """Poll ``check`` (None: done; else what it still sees) until done,
    waiting ``interval`` first and backing off up to ``max_interval``;
    ``fail(last seen)`` past ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        seen = check()
        if seen is None:
            return
        if time.monotonic() >= deadline:
            raise fail(seen)
        task.check_cancel()
        time.sleep(interval)
        interval = backoff(interval, max_interval)
