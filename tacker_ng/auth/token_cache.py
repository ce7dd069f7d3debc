"""A per-process cache of validated tokens, each kept until it expires.

Keys are SHA-256 digests of the tokens, so a memory dump of the cache
gives no usable token; least recently used entries go first when full.
"""

from __future__ import annotations

import collections
import hashlib
import threading
import time
from collections.abc import Callable
from typing import Any


class TokenCache:
    def __init__(
        self, size: int, clock: Callable[[], float] = time.time
    ) -> None:
        self._size = size
        self._clock = clock
        self._items: collections.OrderedDict[bytes, tuple[float, Any]] = (
            collections.OrderedDict()
        )
        self._lock = threading.Lock()

    @staticmethod
    def _key(token: str) -> bytes:
        return hashlib.sha256(token.encode()).digest()

    def get(self, token: str) -> Any | None:
        """The cached value of ``token`` while it has not expired."""
        key = self._key(token)
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] <= self._clock():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, token: str, value: Any, expires_at: float) -> None:
        """Keep ``value`` for ``token`` until ``expires_at`` (epoch s)."""
        if expires_at <= self._clock():
            return
        key = self._key(token)
        with self._lock:
            self._items[key] = (expires_at, value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
