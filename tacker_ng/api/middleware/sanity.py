"""The one place where request paths, query strings and JSON bodies are
decoded and bounded, before pecan or a controller sees them.

A request is refused with a 400 ProblemDetails when:

* its path or query string is not UTF-8 once percent-decoded, or holds a
  control character (webob and pecan would fail on it later, as a 500);
* its JSON body is not UTF-8, is not strict JSON (NaN, Infinity), nests
  deeper than ``[api] max_json_depth``, holds more than ``[api]
  max_json_values`` values or a string (key or value) longer than
  ``[api] max_json_string_length``, or holds a C0 control character other
  than tab, line feed and carriage return, or a lone UTF-16 surrogate.

The last rule makes every free-text field behave the same on SQLite,
MariaDB and PostgreSQL (PostgreSQL cannot store NUL; MariaDB refuses lone
surrogates). The decoded body is kept in the WSGI environ so that the
controllers' validation does not parse it again.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

import webob
from oslo_config import cfg

from tacker_ng import exceptions
from tacker_ng.api import errors

#: environ key of the decoded JSON body.
JSON_BODY = "tacker_ng.json_body"

#: C0 controls but tab, LF and CR; and lone surrogates.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
#: In paths and query strings no control character at all.
_FORBIDDEN_IN_URL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")


class BadRequestData(exceptions.BadRequest):
    title = "Bad Request"


def _url_part(raw: str, what: str) -> None:
    """``raw`` (a WSGI latin-1 string) must be UTF-8, percent-decoded."""
    try:
        text = urllib.parse.unquote_to_bytes(raw.encode("latin-1")).decode(
            "utf-8"
        )
    except (UnicodeEncodeError, UnicodeDecodeError):
        raise BadRequestData(f"The request {what} is not UTF-8.") from None
    if _FORBIDDEN_IN_URL.search(text):
        raise BadRequestData(
            f"The request {what} contains a control character."
        )


def check_url(environ: dict[str, Any]) -> None:
    """400 unless the path and the query string are clean UTF-8."""
    _url_part(environ.get("PATH_INFO", ""), "path")
    query = environ.get("QUERY_STRING", "")
    if query:
        _url_part(query.replace("+", " "), "query string")


def is_json(content_type: str | None) -> bool:
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(raw: bytes, conf: cfg.ConfigOpts = cfg.CONF) -> Any:
    """The JSON document in ``raw``, within the configured limits."""
    limits = conf.api
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequestData("The request body is not UTF-8.") from None
    try:
        body = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise BadRequestData(
            "The request body nests deeper than "
            f"{limits.max_json_depth} levels."
        ) from None
    except ValueError as exc:
        raise BadRequestData(f"Malformed JSON body: {exc}") from None
    _check(body, limits)
    return body


def _check(body: Any, limits: Any) -> None:
    """Depth, number of values, string lengths and characters, without
    recursion (a deep document must not exhaust the stack here either)."""
    stack: list[tuple[Any, int]] = [(body, 1)]
    values = 0
    while stack:
        value, depth = stack.pop()
        values += 1
        if values > limits.max_json_values:
            raise BadRequestData(
                "The request body holds more than "
                f"{limits.max_json_values} values."
            )
        if isinstance(value, str):
            _check_string(value, limits)
        elif isinstance(value, dict | list):
            if depth > limits.max_json_depth:
                raise BadRequestData(
                    "The request body nests deeper than "
                    f"{limits.max_json_depth} levels."
                )
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_string(key, limits)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def _check_string(value: str, limits: Any) -> None:
    if len(value) > limits.max_json_string_length:
        raise BadRequestData(
            "The request body holds a string longer than "
            f"{limits.max_json_string_length} characters."
        )
    if _FORBIDDEN.search(value):
        raise BadRequestData(
            "The request body holds a control character or a lone UTF-16 "
            "surrogate; only tab, line feed and carriage return are "
            "accepted in strings."
        )


class JsonBodyGuard:
    """Decode and bound every JSON request body before the API sees it."""

    def __init__(self, app, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.app = app
        self.conf = conf

    def __call__(self, environ, start_response):
        if is_json(environ.get("CONTENT_TYPE")):
            req = webob.Request(environ)
            raw = req.body
            if raw:
                try:
                    environ[JSON_BODY] = decode(raw, self.conf)
                except exceptions.TackerNgError as exc:
                    return errors.from_exception(exc)(environ, start_response)
        return self.app(environ, start_response)
