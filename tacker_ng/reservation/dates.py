"""Blazar's date formats, parsed and rendered in UTC (no I/O).

Requests carry ``"YYYY-MM-DD HH:MM"`` (UTC) or ``"now"``; seconds and ISO
8601 (what responses carry) are accepted too. Responses use Blazar's
``"YYYY-MM-DDTHH:MM:SS.ffffff"`` (UTC, no zone suffix), which
python-blazarclient parses back when it prolongs a lease.
"""

from __future__ import annotations

import datetime

from tacker_ng.reservation import exceptions

API_FORMAT = "%Y-%m-%d %H:%M"
RESPONSE_FORMAT = "%Y-%m-%dT%H:%M:%S.%f"
_FORMATS = (API_FORMAT, "%Y-%m-%d %H:%M:%S", RESPONSE_FORMAT)


def minute(now: datetime.datetime) -> datetime.datetime:
    """``now`` truncated to the minute: what ``"now"`` means to Blazar."""
    return now.replace(second=0, microsecond=0)


def parse(
    text: object, now: datetime.datetime, field: str = "date"
) -> datetime.datetime:
    """A request date as an aware UTC datetime, or a 400 naming ``field``."""
    if text is None or text == "":
        raise exceptions.MissingDate(field=field)
    if not isinstance(text, str):
        raise exceptions.InvalidDate(field=field, date=text)
    if text == "now":
        return minute(now)
    for fmt in _FORMATS:
        try:
            value = datetime.datetime.strptime(text, fmt)
        except ValueError:
            continue
        return value.replace(tzinfo=datetime.UTC)
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise exceptions.InvalidDate(field=field, date=text) from None
    if value.tzinfo is None:
        return value.replace(tzinfo=datetime.UTC)
    return value.astimezone(datetime.UTC)


def render(value: datetime.datetime | None) -> str | None:
    """A response date in Blazar's format (UTC)."""
    if value is None:
        return None
    return value.astimezone(datetime.UTC).strftime(RESPONSE_FORMAT)
