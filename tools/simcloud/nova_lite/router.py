"""Requests and the route tables of the simulated services.

Each API module declares its routes on a :class:`Routes` table with the
path templates of the API reference (``/os-aggregates/{id}/action``), so
a reader can hold a module against the reference page. A handler gets
the simulator and a :class:`Request` (the caller already authenticated,
the microversion already negotiated) and returns ``(status, body)`` or
``(status, body, headers)``; errors are raised as
:class:`~tools.simcloud.nova_lite.errors.ApiError`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from tools.simcloud.nova_lite import errors
from tools.simcloud.nova_lite.identity import Caller


@dataclasses.dataclass
class Request:
    method: str
    #: Path below the service's versioned root, e.g. ``/os-aggregates/1``.
    path: str
    query: dict[str, list[str]]
    headers: Mapping[str, str]
    body: Any
    caller: Caller
    version: tuple[int, int]
    #: The versioned root's URL, for links (``.../compute/v2.1``).
    root: str

    def arg(self, name: str, default: str | None = None) -> str | None:
        values = self.query.get(name)
        return values[-1] if values else default

    def at_least(self, major: int, minor: int) -> bool:
        return self.version >= (major, minor)

    def admin_only(self, rule: str) -> None:
        """Nova's default policy: ``rule`` is for admins."""
        if not self.caller.is_admin:
            raise errors.policy(rule)

    def json(self, key: str) -> dict[str, Any]:
        """The request body's ``key`` object, or Nova's schema 400."""
        if not isinstance(self.body, dict) or key not in self.body:
            raise errors.bad_request(
                "Invalid input for field/attribute "
                f"{key}. Value: None. '{key}' is a required property"
            )
        value = self.body[key]
        if not isinstance(value, dict):
            raise errors.invalid_input(
                key, value, f"{value!r} is not of type 'object'"
            )
        return value


Handler = Callable[..., tuple]


@dataclasses.dataclass(frozen=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    #: Name under which calls are counted (the benchmark reads them).
    name: str


class Routes:
    """A service's routes, matched in the order declared."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def add(self, method: str, template: str, name: str | None = None):
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        pattern = re.compile(f"^{regex}/?$")

        def register(handler: Handler) -> Handler:
            self.routes.append(
                Route(method, pattern, handler, name or template.lstrip("/"))
            )
            return handler

        return register

    def extend(self, other: Routes) -> None:
        self.routes.extend(other.routes)

    def match(self, method: str, path: str) -> tuple[Route, dict[str, str]]:
        """The route of a request, or the 404/405 of a real service."""
        allowed = False
        for route in self.routes:
            found = route.pattern.match(path)
            if found is None:
                continue
            if route.method == method or (
                method == "HEAD" and route.method == "GET"
            ):
                return route, found.groupdict()
            allowed = True
        if allowed:
            raise errors.nova(
                405, "The method specified is not allowed for this resource."
            )
        raise errors.not_found("The resource could not be found.")
