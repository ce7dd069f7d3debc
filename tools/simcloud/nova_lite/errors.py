"""Error answers in the words and body shapes of the real services.

Each service wraps its errors differently and clients parse them:
python-novaclient reads ``{"<faultName>": {"code", "message"}}`` (the
fault name follows Nova's ``wsgi.Fault._fault_names``, e.g. 409 is
``conflictingRequest``), keystoneauth reads Keystone's ``{"error":
{"code", "message", "title"}}`` and Placement answers ``{"errors":
[...]}``. The texts are Nova's, Keystone's and Placement's own (checked
against the 2026.1 services minicloud runs), so a caller's error handling
sees what it would see in a real cloud.
"""

from __future__ import annotations

import uuid
from typing import Any

#: Nova's fault names by status (nova/api/openstack/wsgi.py).
_NOVA_FAULTS = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    405: "badMethod",
    409: "conflictingRequest",
    413: "overLimit",
    415: "badMediaType",
    429: "overLimit",
    501: "notImplemented",
    503: "serviceUnavailable",
}
_TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
}
#: keystonemiddleware's answer to a missing, unknown or expired token.
UNAUTHENTICATED = "The request you have made requires authentication."


class ApiError(Exception):
    """An HTTP error answer: status, JSON body and extra headers."""

    def __init__(
        self,
        status: int,
        body: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status}: {body}")
        self.status = status
        self.body = body
        self.headers = headers or {}


def nova(status: int, message: str) -> ApiError:
    """A Nova fault (``itemNotFound``, ``badRequest`` ...)."""
    name = _NOVA_FAULTS.get(status, "computeFault")
    return ApiError(status, {name: {"code": status, "message": message}})


def not_found(message: str) -> ApiError:
    return nova(404, message)


def bad_request(message: str) -> ApiError:
    return nova(400, message)


def conflict(message: str) -> ApiError:
    return nova(409, message)


def policy(rule: str) -> ApiError:
    """Nova's 403 for a caller its default policy does not allow."""
    return nova(403, f"Policy doesn't allow {rule} to be performed.")


def invalid_input(field: str, value: Any, why: str) -> ApiError:
    """Nova's JSON-schema validation text for a request body field."""
    return bad_request(
        f"Invalid input for field/attribute {field}. Value: {value}. {why}"
    )


def keystone(status: int, message: str) -> ApiError:
    """A Keystone error body (also keystonemiddleware's 401)."""
    return ApiError(
        status,
        {
            "error": {
                "code": status,
                "message": message,
                "title": _TITLES.get(status, "Error"),
            }
        },
    )


def unauthenticated(auth_url: str) -> ApiError:
    """keystonemiddleware's 401 in front of Nova and Placement."""
    err = keystone(401, UNAUTHENTICATED)
    err.headers["WWW-Authenticate"] = f'Keystone uri="{auth_url}"'
    return err


def placement(status: int, detail: str) -> ApiError:
    """Placement's error list (webob's text, then the reason)."""
    title = _TITLES.get(status, "Error")
    lead = {
        404: "The resource could not be found.",
        400: "The server could not comply with the request since it is "
        "either malformed or otherwise incorrect.",
        403: "Access was denied to this resource.",
    }.get(status, "")
    return ApiError(
        status,
        {
            "errors": [
                {
                    "status": status,
                    "title": title,
                    "detail": f"{lead}\n\n {detail}  ",
                    "request_id": f"req-{uuid.uuid4()}",
                }
            ]
        },
    )
