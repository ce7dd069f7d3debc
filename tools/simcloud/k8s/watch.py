"""``?watch=true``: a chunked stream of JSON watch events.

resourceVersion semantics: unset or "0" starts with a synthetic ADDED per
existing object; a number replays the history after it (410 Expired in an
ERROR event when it was compacted). Objects entering or leaving the
selectors are sent as ADDED / DELETED, as the watch cache does.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import errors, fields, tables
from tools.simcloud.k8s import labelsel as selectors
from tools.simcloud.k8s.store import Event, Watch

DEFAULT_TIMEOUT = 1800


def _line(kind: str, obj: Any, table: Any = None) -> bytes:
    if table is not None:
        obj = table(obj)
    return (
        json.dumps(
            {"type": kind, "object": obj}, separators=(",", ":")
        ).encode()
        + b"\n"
    )


async def serve(
    api: Any, request: web.Request, path: Any
) -> web.StreamResponse:
    query = request.query
    try:
        label_sel = selectors.parse_labels(query.get("labelSelector"))
    except selectors.SelectorError as exc:
        raise errors.bad_request(str(exc)) from exc
    field_sel = fields.parse(path.res.kind, query.get("fieldSelector"))
    if path.name:  # legacy per-object watch
        field_sel = selectors.FieldSelector(
            (*field_sel.terms, ("metadata.name", True, path.name))
        )
    timeout = float(query.get("timeoutSeconds") or DEFAULT_TIMEOUT)
    rv = query.get("resourceVersion") or ""
    store = api.store
    table = None
    if tables.wants_table(request.headers.get("Accept", "")):

        def table(obj: Any) -> Any:  # server-side printing (kubectl get -w)
            return tables.table(
                path.res,
                [obj],
                obj["metadata"]["resourceVersion"],
                query.get("includeObject"),
            )

    def matches(obj: Any) -> bool:
        return (
            obj is not None
            and label_sel.matches(obj["metadata"].get("labels"))
            and fields.matches(field_sel, obj)
        )

    registration = Watch(path.res, path.namespace)
    store.watches.add(registration)
    try:
        backlog: list[tuple[str, Any]] = []
        error = None
        if rv in ("", "0"):
            backlog = [
                ("ADDED", o)
                for o in sorted(
                    store.list(path.res, path.namespace),
                    key=lambda o: int(o["metadata"]["resourceVersion"]),
                )
                if matches(o)
            ]
        else:
            try:
                since = int(rv)
            except ValueError:
                raise errors.bad_request(
                    f'invalid resource version "{rv}"'
                ) from None
            try:
                for event in store.events_since(path.res, since):
                    if (
                        path.namespace
                        and event.obj["metadata"].get("namespace")
                        != path.namespace
                    ):
                        continue
                    item = _translate(event, matches)
                    if item:
                        backlog.append(item)
            except errors.ApiError as exc:
                error = exc
        response = web.StreamResponse(
            status=200,
            headers={
                "Content-Type": "application/json",
                "Cache-Control": "no-cache, private",
            },
        )
        response.enable_chunked_encoding()
        await response.prepare(request)
        if error is not None:
            await response.write(_line("ERROR", error.status()))
            return response
        for kind, obj in backlog:
            await response.write(_line(kind, obj, table))
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            try:
                event = await asyncio.wait_for(
                    registration.queue.get(), remaining
                )
            except TimeoutError:
                break
            if event is None:  # the server is stopping
                break
            item = _translate(event, matches)
            if item:
                await response.write(_line(*item, table))
        await response.write_eof()
        return response
    except (ConnectionResetError, asyncio.CancelledError):
        raise
    finally:
        store.watches.discard(registration)


def _translate(event: Event, matches: Any) -> tuple[str, Any] | None:
    now, before = matches(event.obj), matches(event.old)
    if event.type == "ADDED":
        return ("ADDED", event.obj) if now else None
    if event.type == "DELETED":
        return ("DELETED", event.obj) if now or before else None
    if now and before:
        return ("MODIFIED", event.obj)
    if now:
        return ("ADDED", event.obj)
    if before:
        return ("DELETED", event.obj)
    return None
