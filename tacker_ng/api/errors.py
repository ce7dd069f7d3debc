"""Render every error as ETSI ProblemDetails (``application/problem+json``).

This is the one place errors become HTTP bodies: controllers raise
:class:`tacker_ng.exceptions.TackerNgError`; anything else is a 500 whose
detail never carries the exception text or a traceback.

An API that must keep another error body shape (the Blazar-compatible
``/reservation`` API) registers an :class:`ErrorFormat` for its path
prefix; the outermost middleware then renders that API's errors with it.
Everything else stays ProblemDetails.
"""

import dataclasses
import http
import json
from collections.abc import Callable

import webob
from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng import exceptions

LOG = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


def problem_body(status: int, detail: str, title: str | None = None) -> dict:
    """A ProblemDetails dict for ``status``."""
    if title is None:
        try:
            title = http.HTTPStatus(status).phrase
        except ValueError:
            title = "Error"
    return {"status": status, "title": title, "detail": detail}


def problem_response(
    body: dict, headers: dict[str, str] | None = None
) -> webob.Response:
    """A webob response carrying a ProblemDetails body."""
    resp = webob.Response(
        status=body["status"],
        body=json.dumps(body).encode(),
        content_type=PROBLEM_JSON,
        charset=None,
    )
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def from_exception(exc: BaseException) -> webob.Response:
    """ProblemDetails for any exception raised while serving a request."""
    if isinstance(exc, exceptions.TackerNgError):
        if exc.status >= 500:
            LOG.error("Request failed: %s", exc.detail)
        return problem_response(exc.to_problem_details(), exc.headers)
    if isinstance(exc, db_exc.DBConnectionError):
        LOG.warning("Database connection lost while serving a request")
        return problem_response(
            problem_body(
                503,
                "The database connection was lost; retry the request.",
                "Service Unavailable",
            ),
            {"Retry-After": "1"},
        )
    if isinstance(exc, webob.exc.HTTPException) and exc.code >= 400:
        detail = exc.detail or exc.explanation
        return problem_response(problem_body(exc.code, detail, exc.title))
    LOG.exception("Unexpected error while serving a request")
    return problem_response(
        problem_body(500, "An unexpected error occurred; see the server log.")
    )


#: ``render(status, detail, title, headers)`` -> response
Renderer = Callable[[int, str, str, dict[str, str]], webob.Response]


@dataclasses.dataclass(frozen=True)
class ErrorFormat:
    """An error body shape: how to render one, how to recognise one."""

    name: str
    render: Renderer
    owns: Callable[[webob.Response], bool]


PROBLEM_DETAILS = ErrorFormat(
    "problem",
    lambda status, detail, title, headers: problem_response(
        problem_body(status, detail, title), headers
    ),
    lambda resp: resp.content_type == PROBLEM_JSON,
)


def json_error_format(
    name: str, body: Callable[[int, str, str], dict], marker: str
) -> ErrorFormat:
    """An error format of another API family (Blazar's, Tacker's v1.0):
    ``body(status, detail, title)`` as ``application/json``, recognised
    by its top-level ``marker`` key."""

    def render(
        status: int, detail: str, title: str, headers: dict[str, str]
    ) -> webob.Response:
        resp = webob.Response(
            status=status,
            body=json.dumps(body(status, detail, title)).encode(),
            content_type="application/json",
            charset=None,
        )
        for header, value in (headers or {}).items():
            resp.headers[header] = value
        return resp

    def owns(resp: webob.Response) -> bool:
        if resp.content_type != "application/json":
            return False
        try:
            decoded = json.loads(resp.body)
        except ValueError:
            return False
        return isinstance(decoded, dict) and marker in decoded

    return ErrorFormat(name, render, owns)


#: URI prefix -> error format of the API under it.
_FORMATS: dict[str, ErrorFormat] = {}


def register_error_format(prefix: str, fmt: ErrorFormat) -> None:
    """Render errors under ``prefix`` (a path segment boundary) with fmt."""
    _FORMATS[prefix.rstrip("/")] = fmt


def error_format_for(path: str) -> ErrorFormat:
    """The error format of a request path (ProblemDetails by default)."""
    best = ""
    for prefix in _FORMATS:
        if (path == prefix or path.startswith(prefix + "/")) and len(
            prefix
        ) > len(best):
            best = prefix
    return _FORMATS[best] if best else PROBLEM_DETAILS
