"""Measured hot spots of pecan, fixed once at import.

pecan recomputes the argument spec of the controller on every request
(``inspect.getfullargspec`` plus a new ``namedtuple`` class each time):
about a third of the per-request CPU of a small GET. Controllers are
long-lived objects, so the spec is cached per bound method.
"""

import functools

import pecan.core
import pecan.util


def apply() -> None:
    """Install the argspec cache (idempotent)."""
    if not getattr(pecan.core.getargspec, "cache_info", None):
        pecan.core.getargspec = functools.lru_cache(maxsize=4096)(
            pecan.util.getargspec
        )
