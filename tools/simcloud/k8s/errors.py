"""Kubernetes ``Status`` failure bodies with the API server's reasons/texts.

Texts follow k8s.io/apimachinery/pkg/api/errors (NewNotFound,
NewAlreadyExists, NewConflict, NewInvalid, NewBadRequest, NewForbidden...).
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An API failure carried up to the HTTP layer as a Status body."""

    def __init__(
        self,
        code: int,
        reason: str,
        message: str,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if self.details is not None:
            body["details"] = self.details
        return body


def qualified(resource: str, group: str) -> str:
    """``deployments.apps`` or ``pods`` (schema.GroupResource.String())."""
    return f"{resource}.{group}" if group else resource


def _details(name: str, resource: str, group: str) -> dict[str, Any]:
    details: dict[str, Any] = {"name": name}
    if group:
        details["group"] = group
    details["kind"] = resource
    return details


def not_found(resource: str, group: str, name: str) -> ApiError:
    return ApiError(
        404,
        "NotFound",
        f'{qualified(resource, group)} "{name}" not found',
        _details(name, resource, group),
    )


def already_exists(resource: str, group: str, name: str) -> ApiError:
    return ApiError(
        409,
        "AlreadyExists",
        f'{qualified(resource, group)} "{name}" already exists',
        _details(name, resource, group),
    )


def conflict(
    resource: str,
    group: str,
    name: str,
    why: str = "the object has been modified; please apply your "
    "changes to the latest version and try again",
) -> ApiError:
    return ApiError(
        409,
        "Conflict",
        f"Operation cannot be fulfilled on {qualified(resource, group)} "
        f'"{name}": {why}',
        _details(name, resource, group),
    )


def invalid(
    kind: str, group: str, name: str, causes: list[dict[str, str]]
) -> ApiError:
    """422 Invalid; each cause has ``reason``, ``message`` and ``field``."""
    qualified_kind = f"{kind}.{group}" if group else kind
    texts = [
        f"{c['field']}: {c['message']}" if c.get("field") else c["message"]
        for c in causes
    ]
    summary = texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"
    details: dict[str, Any] = {"name": name}
    if group:
        details["group"] = group
    details["kind"] = kind
    details["causes"] = causes
    return ApiError(
        422,
        "Invalid",
        f'{qualified_kind} "{name}" is invalid: {summary}',
        details,
    )


def cause(reason: str, field: str, message: str) -> dict[str, str]:
    return {"reason": reason, "message": message, "field": field}


def required(field: str) -> dict[str, str]:
    return cause("FieldValueRequired", field, "Required value")


def invalid_value(field: str, value: Any, detail: str) -> dict[str, str]:
    shown = f'"{value}"' if isinstance(value, str) else value
    return cause(
        "FieldValueInvalid", field, f"Invalid value: {shown}: {detail}"
    )


def forbidden_field(field: str, detail: str) -> dict[str, str]:
    return cause("FieldValueForbidden", field, f"Forbidden: {detail}")


def bad_request(message: str) -> ApiError:
    return ApiError(400, "BadRequest", message)


def forbidden(message: str, details: dict[str, Any] | None = None) -> ApiError:
    return ApiError(403, "Forbidden", message, details)


def unauthorized() -> ApiError:
    return ApiError(401, "Unauthorized", "Unauthorized")


def method_not_allowed(
    message: str = "the server does not allow this "
    "method on the requested resource",
) -> ApiError:
    return ApiError(405, "MethodNotAllowed", message, {})


def unsupported_media(content_type: str) -> ApiError:
    return ApiError(
        415,
        "UnsupportedMediaType",
        f"the body of the request was in an unknown format - "
        f"accepted media types include: application/json, "
        f"application/yaml, application/json-patch+json, "
        f"application/merge-patch+json, "
        f"application/strategic-merge-patch+json "
        f"(got {content_type})",
    )


def gone(message: str) -> ApiError:
    return ApiError(410, "Expired", message)


def internal(message: str) -> ApiError:
    return ApiError(
        500,
        "InternalError",
        f"Internal error occurred: {message}",
        {"causes": [{"message": message}]},
    )
