"""Which conductor collects which PM jobs and thresholds.

A job or threshold belongs to one of :data:`SHARD_COUNT` shards by a
stable hash of its id, stored with the row so that a collector selects
its shards in SQL. Shards go to the live conductors by rendezvous hashing
(the scoring of :mod:`tacker_ng.convergence.shard`): every conductor
computes the same split from the same list of live hosts, with no
coordination, and when one dies only its shards move.
"""

import hashlib
from collections.abc import Iterable

SHARD_COUNT = 64


def shard_of(resource_id: str) -> int:
    """The shard of a PM job or threshold id (stable across releases)."""
    digest = hashlib.sha256(resource_id.encode()).digest()
    return int.from_bytes(digest[:4], "big") % SHARD_COUNT


def _score(key: str, host: str) -> int:
    digest = hashlib.sha256(f"{key}|{host}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def owned(host: str, live_hosts: Iterable[str]) -> frozenset[int]:
    """The shards ``host`` collects while ``live_hosts`` are alive (all
    of them when it is the only one, or not listed yet)."""
    hosts = sorted(set(live_hosts) | {host})
    return frozenset(
        shard
        for shard in range(SHARD_COUNT)
        if max(hosts, key=lambda h: _score(f"pm:{shard}", h)) == host
    )
