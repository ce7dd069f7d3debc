"""Blazar's error body for everything under ``/reservation``.

``{"error_code": 409, "error_message": "...", "error_name": "Conflict"}``
(``application/json``): python-blazarclient shows ``error_message``. The
status codes stay ours: 400, 404, 409 for no capacity, never 500 for an
expected outcome.
"""

import json

import webob

from tacker_ng.api import errors

PREFIX = "/reservation"


def render(
    status: int, detail: str, title: str, headers: dict[str, str]
) -> webob.Response:
    """A Blazar error response."""
    body = {
        "error_code": status,
        "error_message": detail,
        "error_name": "".join(title.split()) or str(status),
    }
    resp = webob.Response(
        status=status,
        body=json.dumps(body).encode(),
        content_type="application/json",
        charset=None,
    )
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def owns(resp: webob.Response) -> bool:
    if resp.content_type != "application/json":
        return False
    try:
        body = json.loads(resp.body)
    except ValueError:
        return False
    return isinstance(body, dict) and "error_message" in body


BLAZAR = errors.ErrorFormat("blazar", render, owns)


def register() -> None:
    """Use the Blazar format under ``/reservation`` (idempotent)."""
    errors.register_error_format(PREFIX, BLAZAR)
