"""``/openapi/v2``: a minimal but well-formed OpenAPI document.

kubectl (1.20) downloads it as gnostic protobuf before ``apply``/``create``
to validate manifests client-side; an empty ``definitions`` makes it skip
that step for every kind (what it does for kinds it does not know), and the
server's own schema validation (422) does the checking instead.
"""

from __future__ import annotations

import json

from aiohttp import web

PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
TITLE = "Kubernetes"
VERSION = "v1.30.0"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def document_pb() -> bytes:
    """openapi_v2.Document{swagger: "2.0", info: {title, version}}."""
    info = _field(1, TITLE.encode()) + _field(2, VERSION.encode())
    return _field(1, b"2.0") + _field(2, info)


def respond_v2(request: web.Request) -> web.Response:
    if "protobuf" in request.headers.get("Accept", ""):
        # Go clients reject the "@" of the requested type in a response
        # Content-Type; the API server answers with octet-stream.
        return web.Response(
            body=document_pb(), content_type="application/octet-stream"
        )
    doc = {
        "swagger": "2.0",
        "info": {"title": TITLE, "version": VERSION},
        "paths": {},
        "definitions": {},
    }
    return web.Response(
        body=json.dumps(doc).encode(), content_type="application/json"
    )
