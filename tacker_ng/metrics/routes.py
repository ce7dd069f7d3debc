"""Request paths -> route templates, the ``route`` label of API metrics.

A label per raw path would make a time series per VNF instance id (and
let any caller create series at will); a label per route template
(``/vnflcm/v2/vnf_instances/{vnfInstanceId}/scale``) is what an operator
wants to see and a bounded set. The templates are the API's own OpenAPI
paths plus the few routes that document leaves out; a path that matches
none is ``unmatched`` when it failed (404s, 401s to garbage) and gets its
non-template segments replaced by ``{id}`` otherwise (a route that
answered 2xx/3xx exists, so the set stays bounded). Pure logic: one walk
down a tree of segments per request, no regular expressions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

UNMATCHED = "unmatched"

#: Routes served but not in the OpenAPI document.
EXTRA_TEMPLATES = (
    "/healthcheck",
    "/openapi.json",
    "/metrics",
    "/grant/v1/grants",
    "/v1.0/vims",
    "/v1.0/vims.json",
    "/v1.0/vims/{vimId}",
    "/v1.0/vims/{vimId}.json",
)
#: API prefixes served under two major versions with the same resources.
ALIASES = {"/vnfpkgm/v2/": "/vnfpkgm/v1/"}


@dataclasses.dataclass
class _Node:
    template: str | None = None
    static: dict[str, _Node] = dataclasses.field(default_factory=dict)
    #: (literal suffix after the parameter, e.g. ".json", child), the
    #: longest suffix first.
    params: list[tuple[str, _Node]] = dataclasses.field(default_factory=list)


def _segments(path: str) -> list[str]:
    return [s for s in path.split("/") if s]


class RouteTemplates:
    """Match request paths against a fixed set of route templates."""

    def __init__(self, templates: Iterable[str]) -> None:
        self._root = _Node()
        self._vocabulary: set[str] = set()
        for template in templates:
            self._add(template)
            for prefix, alias in ALIASES.items():
                if template.startswith(prefix):
                    self._add(alias + template[len(prefix) :])

    def _add(self, template: str) -> None:
        node = self._root
        for segment in _segments(template):
            if segment.startswith("{") and "}" in segment:
                suffix = segment[segment.index("}") + 1 :]
                child = next((n for s, n in node.params if s == suffix), None)
                if child is None:
                    child = _Node()
                    node.params.append((suffix, child))
                    node.params.sort(key=lambda p: -len(p[0]))
                node = child
            else:
                self._vocabulary.add(segment)
                node = node.static.setdefault(segment, _Node())
        node.template = (
            template if template.startswith("/") else "/" + template
        )

    def match(self, path: str) -> str | None:
        """The template of ``path``, or None."""
        node: _Node | None = self._root
        for segment in _segments(path):
            assert node is not None
            child = node.static.get(segment)
            if child is None:
                child = next(
                    (
                        n
                        for suffix, n in node.params
                        if segment.endswith(suffix)
                        and len(segment) > len(suffix)
                    ),
                    None,
                )
            if child is None:
                return None
            node = child
        return node.template if node is not None else None

    def label(self, path: str, status: int) -> str:
        """The ``route`` label of a request to ``path`` answered with
        ``status`` (see the module docstring)."""
        template = self.match(path)
        if template is not None:
            return template
        if status >= 400:
            return UNMATCHED
        return "/" + "/".join(
            s if s in self._vocabulary else "{id}" for s in _segments(path)
        )
