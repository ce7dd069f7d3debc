"""Warm a conductor up after it starts, so its first operation is not slow.

A fresh conductor used to pay, inside its first operation, for what the
operation is the first to need: the infra driver and MgmtDriver modules
(found through entry points, which means reading every installed
distribution's metadata; the OpenStack driver alone imports in about half
a second), and new database connections. Issue #32 measured the VNFM's
share of a 100-pod CNF instantiate at 15-20 % on a process's first run,
1.6-3.2 % warm.

:func:`start` does that work on a daemon thread as the conductor starts
serving: start-up is not delayed, an operation that arrives meanwhile just
does its part of the work itself (imports and the drivers' caches are
thread-safe), and a failure is logged and forgotten: warming up is an
optimisation, never a reason for a conductor not to serve.
"""

import contextlib
import threading
import time
from collections.abc import Callable
from importlib import metadata

import sqlalchemy as sa
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.infra import registry
from tacker_ng.mgmt import base as mgmt_base

LOG = logging.getLogger(__name__)

#: Most database connections opened ahead of the first operations.
MAX_WARM_CONNECTIONS = 4


def load_drivers() -> list[str]:
    """Load every installed infra driver and MgmtDriver (their modules,
    the clients they import, one instance each, as operations will)."""
    loaded = []
    for name in sorted(
        {ep.name for ep in metadata.entry_points(group=registry.NAMESPACE)}
    ):
        registry.get_driver(name)
        loaded.append(name)
    for name in sorted(
        {ep.name for ep in metadata.entry_points(group=mgmt_base.NAMESPACE)}
    ):
        mgmt_base.get_driver(name)
        loaded.append(name)
    return loaded


def fill_pool(conf: cfg.ConfigOpts) -> int:
    """Open the first database connections side by side (one round trip
    each), so the first operations find them in the pool. SQLite has no
    connection worth opening ahead."""
    if db_api.get_engine().dialect.name == "sqlite":
        return 0
    pool_size = conf.database.max_pool_size or 1
    count = max(1, min(pool_size, MAX_WARM_CONNECTIONS))
    barrier = threading.Barrier(count)

    def one() -> None:
        with db_api.reader() as session:
            session.execute(sa.text("SELECT 1"))
            # Hold the connection until all are open: otherwise each
            # thread would reuse the first one returned. A pool that
            # hands out fewer (busy already) just warms fewer.
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=5)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return count


#: The warm-up's steps, in order; each is logged, none stops the others.
STEPS: dict[str, Callable[[cfg.ConfigOpts], object]] = {
    "drivers": lambda conf: load_drivers(),
    "database connections": fill_pool,
}


def warm_up(conf: cfg.ConfigOpts = cfg.CONF) -> dict[str, float]:
    """Run every step; answer each one's seconds (failed steps: -1)."""
    took = {}
    for name, step in STEPS.items():
        started = time.monotonic()
        try:
            step(conf)
        except Exception:  # noqa: BLE001 - an optimisation may not fail
            LOG.warning(
                "Warm-up step %r failed; the first operation will do it",
                name,
                exc_info=True,
            )
            took[name] = -1.0
            continue
        took[name] = round(time.monotonic() - started, 3)
    LOG.info("Conductor warm-up done: %s", took)
    return took


def start(conf: cfg.ConfigOpts = cfg.CONF) -> threading.Thread:
    """Warm up on a daemon thread; answer the thread (tests join it)."""
    thread = threading.Thread(
        target=warm_up, args=(conf,), name="conductor-warmup", daemon=True
    )
    thread.start()
    return thread
