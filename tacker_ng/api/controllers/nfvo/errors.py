"""Tacker's legacy error body for everything under ``/v1.0``.

``{"TackerError": {"type": "NotFound", "message": "...", "detail": ""}}``
is what python-tackerclient parses and shows (``message``); the status
codes stay ours.
"""

from tacker_ng.api import errors

PREFIX = "/v1.0"


def _body(status: int, detail: str, title: str) -> dict:
    return {
        "TackerError": {
            "type": "".join(title.split()) or str(status),
            "message": detail,
            "detail": "",
        }
    }


TACKER = errors.json_error_format("tacker", _body, "TackerError")


def register() -> None:
    """Use Tacker's format under ``/v1.0`` (idempotent)."""
    errors.register_error_format(PREFIX, TACKER)
