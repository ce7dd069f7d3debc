"""HTTP plumbing of the REST API: JSON responses, bodies, resource paths."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import errors
from tools.simcloud.k8s.resources import Resource, lookup


def respond(
    body: Any, status: int = 200, headers: dict | None = None
) -> web.Response:
    return web.Response(
        body=json.dumps(body, separators=(",", ":")).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def error_response(exc: errors.ApiError) -> web.Response:
    return respond(exc.status(), exc.code)


async def read_body(request: web.Request) -> Any:
    raw = await request.read()
    ctype = request.content_type or "application/json"
    if "protobuf" in ctype:
        raise errors.unsupported_media(ctype)
    try:
        if "yaml" in ctype:
            import yaml

            return yaml.safe_load(raw)
        return json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise errors.bad_request(
            f"couldn't get version/kind; json parse error: {exc}"
        ) from exc


class Path:
    """A parsed resource path."""

    def __init__(
        self,
        res: Resource,
        namespace: str | None,
        name: str | None,
        sub: str | None,
    ) -> None:
        self.res, self.namespace, self.name, self.sub = (
            res,
            namespace,
            name,
            sub,
        )


def parse_path(group: str, version: str, parts: list[str]) -> Path:
    def res_of(plural: str) -> Resource:
        res = lookup(group, version, plural)
        if res is None:
            raise errors.ApiError(
                404,
                "NotFound",
                "the server could not find the requested resource",
                {},
            )
        return res

    if (
        len(parts) >= 3
        and parts[0] == "namespaces"
        and (group or parts[2] not in ("status", "finalize"))
    ):
        res = res_of(parts[2])
        if not res.namespaced:
            raise errors.ApiError(
                404,
                "NotFound",
                "the server could not find the requested resource",
                {},
            )
        return Path(
            res,
            parts[1],
            parts[3] if len(parts) > 3 else None,
            parts[4] if len(parts) > 4 else None,
        )
    if not parts or len(parts) > 3:
        raise errors.ApiError(
            404,
            "NotFound",
            "the server could not find the requested resource",
            {},
        )
    res = res_of(parts[0])
    return Path(
        res,
        None,
        parts[1] if len(parts) > 1 else None,
        parts[2] if len(parts) > 2 else None,
    )
