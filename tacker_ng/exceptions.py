"""The one exception hierarchy of tacker-ng.

Every error a caller can see is a :class:`TackerNgError`; the API renders
it as an ETSI ProblemDetails body (``application/problem+json``) in one
place (:mod:`tacker_ng.api.errors`). ``status`` is the HTTP status code,
``title`` the short summary, ``detail`` the human-readable explanation.
Anything that is not a ``TackerNgError`` becomes a 500 with a generic
detail, never a traceback.
"""

from typing import Any


class TackerNgError(Exception):
    """Base of all tacker-ng errors. Subclasses set ``status``/``title``."""

    status: int = 500
    title: str = "Internal Server Error"
    #: Default detail; may use ``str.format`` fields filled from kwargs.
    message: str = "An unexpected error occurred."

    def __init__(
        self,
        detail: str | None = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.kwargs = kwargs
        #: Extra HTTP response headers (e.g. ``Allow`` on a 405).
        self.headers = headers or {}
        if detail is None:
            try:
                detail = self.message.format(**kwargs)
            except (KeyError, IndexError):
                detail = self.message
        self.detail = detail
        super().__init__(detail)

    def to_problem_details(self) -> dict[str, Any]:
        """ProblemDetails (SOL013 6.3) for this error."""
        return {
            "status": self.status,
            "title": self.title,
            "detail": self.detail,
        }


class BadRequest(TackerNgError):
    status = 400
    title = "Bad Request"
    message = "The request is malformed."


class InvalidFilter(BadRequest):
    message = "Invalid attribute-based filter: {reason}"


class Unauthorized(TackerNgError):
    status = 401
    title = "Unauthorized"
    message = "Authentication is required."


class Forbidden(TackerNgError):
    status = 403
    title = "Forbidden"
    message = "Policy does not allow this operation."


class NotFound(TackerNgError):
    status = 404
    title = "Not Found"
    message = "The resource could not be found."


class MethodNotAllowed(TackerNgError):
    status = 405
    title = "Method Not Allowed"
    message = "The method is not allowed on this resource."


class NotAcceptable(TackerNgError):
    status = 406
    title = "Not Acceptable"
    message = "The requested representation is not available."


class Conflict(TackerNgError):
    status = 409
    title = "Conflict"
    message = "The request conflicts with the state of the resource."


class PreconditionFailed(TackerNgError):
    status = 412
    title = "Precondition Failed"
    message = "The resource changed since it was read (ETag mismatch)."


class PayloadTooLarge(TackerNgError):
    status = 413
    title = "Payload Too Large"
    message = "The request body is too large."


class UnsupportedMediaType(TackerNgError):
    status = 415
    title = "Unsupported Media Type"
    message = "The request body's content type is not supported."


class UnprocessableEntity(TackerNgError):
    status = 422
    title = "Unprocessable Entity"
    message = "The request body is well formed but semantically wrong."


class ServiceUnavailable(TackerNgError):
    status = 503
    title = "Service Unavailable"
    message = "The service is temporarily unavailable."


class DBConfigurationError(TackerNgError):
    message = "Database is not configured: {reason}"
