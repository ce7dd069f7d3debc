"""Which conductor observes which VIM: rendezvous hashing.

Every live conductor computes the same owner for a VIM from the list of
live conductors, with no coordination; when one dies (its heartbeat goes
stale) only its VIMs move, each to the next-highest scorer.
"""

import hashlib
from collections.abc import Iterable


def _score(vim_key: str, host: str) -> int:
    digest = hashlib.sha256(f"{vim_key}|{host}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def owner(vim_key: str, live_hosts: Iterable[str]) -> str | None:
    """The live conductor that observes ``vim_key`` (None: nobody)."""
    hosts = sorted(set(live_hosts))
    if not hosts:
        return None
    return max(hosts, key=lambda h: _score(vim_key, h))


def vim_key(vim: dict) -> str:
    """A VIM's identity for sharding and batching: its endpoint, region
    and the project and user it is seen as (never a secret)."""
    interface = vim.get("interfaceInfo") or {}
    access = vim.get("accessInfo") or {}
    parts = (
        interface.get("endpoint") or "",
        access.get("region") or "",
        access.get("projectId") or access.get("project") or "",
        access.get("projectDomain") or "",
        access.get("username") or "",
        access.get("userDomain") or "",
    )
    return "|".join(parts)
