"""Pecan exposure helpers: one handler per HTTP method, 405 otherwise.

``@resource()`` marks the GET handler of a resource; add other methods
with ``@<handler>.when(method="POST", template="json")``. A method with no
handler answers 405 with an ``Allow`` header instead of falling through
to the GET handler, as pecan's generic controllers would.
"""

import functools

import pecan

from tacker_ng import exceptions


def _allowed(handler, get: bool) -> list[str]:
    methods = [
        m for m in handler._pecan.get("generic_handlers", {}) if m != "DEFAULT"
    ]
    return (["GET"] if get else []) + sorted(methods)


def resource(get: bool = True, template: str = "json"):
    """Expose a generic resource whose default handler serves GET only."""

    def decorator(func):
        # No **kwargs: pecan would pass query parameters as keyword
        # arguments; controllers read them from ``pecan.request.GET``.
        @functools.wraps(func)
        def handler(self, *args):
            if not get or pecan.request.method not in ("GET", "HEAD"):
                allowed = ", ".join(_allowed(handler, get))
                raise exceptions.MethodNotAllowed(
                    f"{pecan.request.method} is not allowed here; "
                    f"allowed: {allowed}.",
                    headers={"Allow": allowed},
                )
            return func(self, *args)

        return pecan.expose(generic=True, template=template)(handler)

    return decorator
