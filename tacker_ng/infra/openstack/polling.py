"""Bounded, cancellable polls of a VIM resource, and SOL timestamps."""

import datetime
import time
from collections.abc import Callable

from tacker_ng.infra import base
from tacker_ng.objects import times


def now() -> str:
    """The current time as SOL003 writes it."""
    return times.sol_time(datetime.datetime.now(datetime.UTC))


def poll(
    check: Callable[[], str | None],
    timeout: float,
    interval: float,
    task: base.LcmTask,
    fail: Callable[[str], Exception],
) -> None:
    """Poll ``check`` (None: done; else what it still sees) until done;
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
