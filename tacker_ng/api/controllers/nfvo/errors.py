"""Tacker's legacy error body for everything under ``/v1.0``.

``{"TackerError": {"type": "NotFound", "message": "...", "detail": ""}}``
is what python-tackerclient parses and shows (``message``); the status
codes stay ours.
"""

import json

import webob

from tacker_ng.api import errors

PREFIX = "/v1.0"


def render(
    status: int, detail: str, title: str, headers: dict[str, str]
) -> webob.Response:
    """A Tacker v1.0 error response."""
    body = {
        "TackerError": {
            "type": "".join(title.split()) or str(status),
            "message": detail,
            "detail": "",
        }
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
    return isinstance(body, dict) and "TackerError" in body


TACKER = errors.ErrorFormat("tacker", render, owns)


def register() -> None:
    """Use Tacker's format under ``/v1.0`` (idempotent)."""
    errors.register_error_format(PREFIX, TACKER)
