"""Keyset paging (SOL013 5.4) with signed ``nextpage_opaque_marker`` values.

Pages are ordered by ``(created_at, id)``; the marker carries the last
row's key, so the next page is one indexed range query however deep the
client pages, and rows added or removed meanwhile cause neither duplicates
nor gaps. Markers are HMAC-signed with a key derived from the database
URL, which every API worker and host sharing the database derives alike;
a marker that was altered, forged or made for another resource is a 400.
The signature makes markers tamper-evident, not secret: they only say
where a page starts, and filters and project scoping still apply.
"""

import base64
import binascii
import datetime
import functools
import hashlib
import hmac
import json
from typing import Any

import sqlalchemy as sa

from tacker_ng import exceptions

PARAM = "nextpage_opaque_marker"
_VERSION = 1
_CONTEXT = b"tacker-ng nextpage_opaque_marker v1\0"
_MAC_BYTES = 16
MAX_MARKER_LENGTH = 512


def order_by(table: sa.Table) -> tuple[sa.ColumnElement, ...]:
    """The stable order every list uses: oldest first, then by id."""
    return (table.c.created_at.asc(), table.c.id.asc())


@functools.lru_cache(maxsize=8)
def _derive(url: str) -> bytes:
    return hashlib.sha256(_CONTEXT + url.encode()).digest()


def signing_key(bind: sa.Engine | sa.Connection) -> bytes:
    """The marker key for the database behind ``bind``."""
    engine = bind if isinstance(bind, sa.Engine) else bind.engine
    return _derive(engine.url.render_as_string(hide_password=False))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    padded = text + "=" * (-len(text) % 4)
    return base64.b64decode(padded, altchars=b"-_", validate=True)


def encode_marker(
    resource: str, created_at: datetime.datetime, row_id: str, key: bytes
) -> str:
    """An opaque, URL-safe marker for the page after the given row."""
    if created_at.tzinfo is None:
        created_at = created_at.replace(tzinfo=datetime.UTC)
    payload = json.dumps(
        [_VERSION, resource, created_at.isoformat(), row_id],
        separators=(",", ":"),
    ).encode()
    mac = hmac.new(key, payload, hashlib.sha256).digest()[:_MAC_BYTES]
    return f"{_b64(payload)}.{_b64(mac)}"


def _bad(reason: str) -> exceptions.BadRequest:
    return exceptions.BadRequest(f"Invalid {PARAM}: {reason}.")


def decode_marker(
    marker: str, resource: str, key: bytes
) -> tuple[datetime.datetime, str]:
    """``(created_at, id)`` of a marker made by :func:`encode_marker`."""
    if not marker or len(marker) > MAX_MARKER_LENGTH or marker.count(".") != 1:
        raise _bad("not a marker issued by this server")
    payload_text, mac_text = marker.split(".")
    try:
        payload = _unb64(payload_text)
        mac = _unb64(mac_text)
    except (binascii.Error, ValueError):
        raise _bad("not a marker issued by this server") from None
    expected = hmac.new(key, payload, hashlib.sha256).digest()[:_MAC_BYTES]
    if not hmac.compare_digest(mac, expected):
        raise _bad("the signature does not match (altered or forged)")
    try:
        version, kind, created_at, row_id = json.loads(payload)
        when = datetime.datetime.fromisoformat(created_at)
    except (ValueError, TypeError):
        raise _bad("unreadable content") from None
    if version != _VERSION or kind != resource or not isinstance(row_id, str):
        raise _bad(f"it was not issued for a list of {resource}")
    return when, row_id


def after(table: sa.Table, key: tuple[datetime.datetime, str]) -> Any:
    """Rows strictly after ``key`` in :func:`order_by` order.

    The leading ``created_at >= t`` is implied by the rest; it is there
    for the planner: PostgreSQL did not read ``created_at > t OR
    (created_at = t AND id > y)`` as a range of the (created_at, id)
    index, so page 500 of 100,000 instances cost several times page 1.
    With it both backends start the index scan at the marker."""
    created_at, row_id = key
    return sa.and_(
        table.c.created_at >= created_at,
        sa.or_(table.c.created_at > created_at, table.c.id > row_id),
    )
