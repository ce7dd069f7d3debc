"""The simulator's etcd: objects by resource, a resourceVersion clock,
an event history and the watches fed from it.

Stored objects are never mutated in place: every write stores a new dict,
so events and readers can share references safely. Everything runs on the
one asyncio loop of the server; no locks are needed.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tools.simcloud.k8s import errors
from tools.simcloud.k8s.resources import Resource

Obj = dict[str, Any]
HISTORY = 50000


def now() -> str:
    """RFC 3339 time in seconds, as metav1.Time renders."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def now_micro() -> str:
    """metav1.MicroTime rendering (events)."""
    return datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%dT%H:%M:%S.%fZ"
    )


@dataclass
class Event:
    type: str  # ADDED, MODIFIED, DELETED
    res: Resource
    obj: Obj
    old: Obj | None
    rv: int


@dataclass(eq=False)
class Watch:
    """A watch's queue; the HTTP layer filters and streams its events."""

    res: Resource
    namespace: str | None
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)


class Store:
    """In-memory objects with resourceVersion and watch semantics."""

    def __init__(self) -> None:
        self._data: dict[str, dict[tuple[str, str], Obj]] = {}
        self.rv = 1000
        self.history: deque[Event] = deque(maxlen=HISTORY)
        self.watches: set[Watch] = set()
        self.listeners: list[Callable[[Event], None]] = []

    # reads -----------------------------------------------------------
    def get(
        self, res: Resource, namespace: str | None, name: str
    ) -> Obj | None:
        return self._data.get(res.key, {}).get((namespace or "", name))

    def must_get(self, res: Resource, namespace: str | None, name: str) -> Obj:
        obj = self.get(res, namespace, name)
        if obj is None:
            raise errors.not_found(res.plural, res.group, name)
        return obj

    def list(self, res: Resource, namespace: str | None = None) -> list[Obj]:
        items = self._data.get(res.key, {})
        if namespace:
            return [o for (ns, _), o in items.items() if ns == namespace]
        return list(items.values())

    def iter_all(self) -> Iterator[tuple[Resource, Obj]]:
        from tools.simcloud.k8s.resources import BY_KEY

        for key, items in list(self._data.items()):
            for obj in list(items.values()):
                yield BY_KEY[key], obj

    # writes ----------------------------------------------------------
    def _tick(self) -> int:
        self.rv += 1
        return self.rv

    def create(self, res: Resource, obj: Obj) -> Obj:
        """Store a new object, filling uid/resourceVersion/timestamps."""
        meta = obj.setdefault("metadata", {})
        ns = meta.get("namespace", "") if res.namespaced else ""
        key = (ns, meta["name"])
        bucket = self._data.setdefault(res.key, {})
        if key in bucket:
            raise errors.already_exists(res.plural, res.group, meta["name"])
        obj["apiVersion"], obj["kind"] = res.api_version, res.kind
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = now()
        if res.generation:
            meta["generation"] = 1
        meta["resourceVersion"] = str(self._tick())
        for k in ("deletionTimestamp", "deletionGracePeriodSeconds"):
            meta.pop(k, None)
        bucket[key] = obj
        self._emit("ADDED", res, obj, None)
        return obj

    def update(self, res: Resource, obj: Obj, *, check_rv: bool = True) -> Obj:
        """Replace an object; a stale resourceVersion is a 409 Conflict.

        An object marked for deletion with no finalizers left and a zero
        grace period is removed (DELETED), as the API server does
        (ShouldDeleteDuringUpdate).
        """
        meta = obj["metadata"]
        ns = meta.get("namespace", "") if res.namespaced else ""
        bucket = self._data.get(res.key, {})
        old = bucket.get((ns, meta["name"]))
        if old is None:
            raise errors.not_found(res.plural, res.group, meta["name"])
        if (
            check_rv
            and meta.get("resourceVersion")
            and meta["resourceVersion"] != old["metadata"]["resourceVersion"]
        ):
            raise errors.conflict(res.plural, res.group, meta["name"])
        for k in ("uid", "creationTimestamp"):
            meta[k] = old["metadata"][k]
        for k in ("deletionTimestamp", "deletionGracePeriodSeconds"):
            if k in old["metadata"]:
                meta[k] = old["metadata"][k]
        obj["apiVersion"], obj["kind"] = res.api_version, res.kind
        if res.generation:
            gen = old["metadata"].get("generation", 1)
            if _spec_of(obj) != _spec_of(old):
                gen += 1
            meta["generation"] = gen
        if _same(obj, old):
            return old  # a no-op write keeps the resourceVersion
        meta["resourceVersion"] = str(self._tick())
        if (
            meta.get("deletionTimestamp")
            and not meta.get("finalizers")
            and not meta.get("deletionGracePeriodSeconds")
            and not (
                res.kind == "Namespace"
                and (obj.get("spec") or {}).get("finalizers")
            )
        ):
            del bucket[(ns, meta["name"])]
            self._emit("DELETED", res, obj, old)
            return obj
        bucket[(ns, meta["name"])] = obj
        self._emit("MODIFIED", res, obj, old)
        return obj

    def remove(self, res: Resource, obj: Obj) -> Obj:
        """Delete now (no grace, no finalizers): the final DELETED event."""
        meta = obj["metadata"]
        ns = meta.get("namespace", "") if res.namespaced else ""
        bucket = self._data.get(res.key, {})
        old = bucket.pop((ns, meta["name"]), None)
        if old is None:
            raise errors.not_found(res.plural, res.group, meta["name"])
        gone = copy.copy(old)
        gone["metadata"] = dict(
            old["metadata"], resourceVersion=str(self._tick())
        )
        self._emit("DELETED", res, gone, old)
        return gone

    # events ----------------------------------------------------------
    def _emit(
        self, kind: str, res: Resource, obj: Obj, old: Obj | None
    ) -> None:
        event = Event(kind, res, obj, old, self.rv)
        self.history.append(event)
        for watch in self.watches:
            if watch.res.key == res.key and (
                not watch.namespace
                or watch.namespace == obj["metadata"].get("namespace")
            ):
                watch.queue.put_nowait(event)
        for listener in self.listeners:
            listener(event)

    def events_since(self, res: Resource, rv: int) -> list[Event]:
        """History after ``rv``; 410 Gone when it was compacted away."""
        if self.history and rv < self.history[0].rv - 1:
            raise errors.gone(
                f"too old resource version: {rv} ({self.history[0].rv - 1})"
            )
        return [e for e in self.history if e.rv > rv and e.res.key == res.key]


def _spec_of(obj: Obj) -> Any:
    return {
        k: v
        for k, v in obj.items()
        if k not in ("metadata", "status", "apiVersion", "kind")
    }


def _same(a: Obj, b: Obj) -> bool:
    strip = ("resourceVersion", "managedFields")
    ma = {k: v for k, v in a.get("metadata", {}).items() if k not in strip}
    mb = {k: v for k, v in b.get("metadata", {}).items() if k not in strip}
    return (
        ma == mb
        and _spec_of(a) == _spec_of(b)
        and a.get("status") == b.get("status")
    )
