"""Outermost middleware: ProblemDetails for every error, Version echo.

Inner pieces (pecan routing, keystonemiddleware, oslo.middleware's basic
auth and size limiter) answer errors in their own formats; this rewrites
any error that is not already ``application/problem+json`` and turns an
escaped exception into a 500 without leaking its text. Under a prefix
with its own registered error format (:func:`errors.error_format_for`)
errors are rewritten into that format instead, ProblemDetails included.
"""

import json

import webob

from tacker_ng import exceptions
from tacker_ng.api import errors, versions
from tacker_ng.api.middleware import sanity

#: Paths whose error bodies belong to someone else (load balancer probes).
_PASSTHROUGH_PREFIXES = ("/healthcheck",)


def _detail_from(resp: webob.Response) -> str | None:
    """A human message from a foreign JSON error body, if one is there
    (our own ProblemDetails are already safe to show, 5xx included)."""
    if resp.content_type == errors.PROBLEM_JSON:
        try:
            return json.loads(resp.body).get("detail")
        except (ValueError, AttributeError):
            return None
    if resp.status_code >= 500 or "json" not in (resp.content_type or ""):
        return None
    try:
        body = json.loads(resp.body)
    except ValueError:
        return None
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            message = err.get("message") or err.get("detail")
            if isinstance(message, str):
                return message
    return None


def _title(resp: webob.Response) -> str:
    """The title of a ProblemDetails body, else the status phrase."""
    if resp.content_type == errors.PROBLEM_JSON and resp.status_code < 500:
        try:
            title = json.loads(resp.body).get("title")
        except (ValueError, AttributeError):
            title = None
        if isinstance(title, str):
            return title
    return resp.status.split(" ", 1)[-1]


class ProblemDetailsMiddleware:
    """Guarantee ProblemDetails errors and the SOL ``Version`` header."""

    def __init__(self, app) -> None:
        self.app = app

    def __call__(self, environ, start_response):
        try:
            # Before anything reads the path: webob fails on non-UTF-8.
            sanity.check_url(environ)
        except exceptions.TackerNgError as exc:
            resp = errors.from_exception(exc)
            fmt = errors.error_format_for(environ.get("PATH_INFO") or "/")
            if not fmt.owns(resp):
                resp = self._rewrite(resp, fmt)
            return resp(environ, start_response)
        path = environ.get("PATH_INFO") or "/"
        # check_url proved it UTF-8; WSGI hands it over as latin-1.
        path = path.encode("latin-1").decode("utf-8")
        api = versions.api_for_path(path)
        version = (
            versions.response_version(
                api, environ.get("HTTP_" + versions.VERSION_HEADER.upper())
            )
            if api is not None
            else None
        )
        captured: list = []
        written: list[bytes] = []

        def capture(status, headers, exc_info=None):
            captured[:] = [status, headers, exc_info]
            return written.append  # the legacy write() callable

        try:
            body = self.app(environ, capture)
        except Exception as exc:  # noqa: BLE001 - rendered, never leaked
            return self._error(
                errors.from_exception(exc),
                path,
                version,
                environ,
                start_response,
            )
        status, headers, exc_info = captured
        if written:
            body = [*written, *body]
        if int(status.split(" ", 1)[0]) >= 400:
            # Errors are rare: build a response to inspect and rewrite it.
            resp = webob.Response(status=status, headerlist=list(headers))
            try:
                resp.body = b"".join(body)
            finally:
                if hasattr(body, "close"):
                    body.close()
            return self._error(resp, path, version, environ, start_response)
        # The success path stays plain WSGI: no copy of the body.
        if version is not None:
            headers = [
                (k, v)
                for k, v in headers
                if k.lower() != versions.VERSION_HEADER.lower()
            ]
            headers.append((versions.VERSION_HEADER, version))
        start_response(status, headers, exc_info)
        return body

    def _error(self, resp, path, version, environ, start_response):
        fmt = errors.error_format_for(path)
        if not fmt.owns(resp) and not path.startswith(_PASSTHROUGH_PREFIXES):
            resp = self._rewrite(resp, fmt)
        if version is not None:
            resp.headers[versions.VERSION_HEADER] = version
        return resp(environ, start_response)

    @staticmethod
    def _rewrite(
        resp: webob.Response, fmt: errors.ErrorFormat
    ) -> webob.Response:
        status = resp.status_code
        detail = _detail_from(resp)
        if status == 401:
            detail = "Authentication failed: credentials missing or wrong."
        elif detail is None:
            detail = (
                "An unexpected error occurred; see the server log."
                if status >= 500
                else resp.status.split(" ", 1)[-1]
            )
        keep = {
            name: resp.headers[name]
            for name in ("WWW-Authenticate", "Allow", "Retry-After")
            if name in resp.headers
        }
        if status == 401 and "WWW-Authenticate" not in keep:
            keep["WWW-Authenticate"] = 'Basic realm="tacker-ng"'
        return fmt.render(status, detail, _title(resp), keep)
