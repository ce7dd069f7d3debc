"""SOL date-time strings (RFC 3339, UTC, ``Z``) from aware datetimes."""

import datetime


def sol_time(value: datetime.datetime) -> str:
    """``2026-11-21T23:27:31Z`` for an aware datetime."""
    if value.tzinfo is None:
        raise ValueError("naive datetime where a SOL date-time is needed")
    return (
        value.astimezone(datetime.UTC)
        .isoformat(timespec="seconds")
        .replace("+00:00", "Z")
    )
