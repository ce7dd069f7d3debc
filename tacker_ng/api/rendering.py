"""JSON rendering for pecan: SOL date-time strings, compact output."""

import datetime
import json


def _default(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise ValueError("naive datetime in an API response")
        return (
            value.astimezone(datetime.UTC)
            .isoformat(timespec="seconds")
            .replace("+00:00", "Z")
        )
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def dumps(body) -> str:
    """Serialize an API body; datetimes become RFC 3339 UTC strings."""
    return json.dumps(body, default=_default, separators=(",", ":"))


class JsonRenderer:
    """Pecan renderer registered as ``json``."""

    def __init__(self, path, extra_vars) -> None:
        pass

    def render(self, template_path, namespace) -> str:
        return dumps(namespace)
