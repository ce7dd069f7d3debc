"""Blazar's error body for everything under ``/reservation``.

``{"error_code": 409, "error_message": "...", "error_name": "Conflict"}``
(``application/json``): python-blazarclient shows ``error_message``, and
prints any other body as a raw dict. The status codes stay ours: 400,
404, 409 for no capacity, never 500 for an expected outcome.

The paths python-blazarclient calls when it was given the wrong endpoint
(``/leases`` at the API root, ...) answer in this format too, so that
the 404 telling where the reservation API is reads as a sentence.
"""

from tacker_ng.api import errors, unserved

PREFIX = "/reservation"


def _body(status: int, detail: str, title: str) -> dict:
    return {
        "error_code": status,
        "error_message": detail,
        "error_name": "".join(title.split()) or str(status),
    }


BLAZAR = errors.json_error_format("blazar", _body, "error_message")


def register() -> None:
    """Use the Blazar format under ``/reservation`` and where a
    misdirected python-blazarclient lands (idempotent)."""
    errors.register_error_format(PREFIX, BLAZAR)
    for prefix in unserved.MISDIRECTED_RESERVATION_PREFIXES:
        errors.register_error_format(prefix, BLAZAR)
