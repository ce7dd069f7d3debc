"""One simulator, three services behind one port, laid out as devstack
lays them out: Keystone under ``/identity``, Nova under
``/compute/v2.1``, Placement under ``/placement``.

This module does what the services' middleware does before a handler
runs: version discovery documents (unauthenticated, for keystoneauth1's
and novaclient's negotiation), keystonemiddleware's token check, the
microversion negotiation, JSON in and out, and the request id headers.
Every request runs under the cloud's one lock (see :mod:`model`), and is
counted by route name for the benchmarks.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
import uuid
from collections.abc import Mapping
from typing import Any

from tools.simcloud.nova_lite import (
    aggregates_api,
    errors,
    flavors_api,
    groups_api,
    hosts_api,
    microversion,
    placement_api,
    servers_api,
)
from tools.simcloud.nova_lite.identity import Identity
from tools.simcloud.nova_lite.model import Cloud
from tools.simcloud.nova_lite.router import Request, Routes

NOVA_ROUTES = Routes()
for _module in (
    hosts_api,
    aggregates_api,
    flavors_api,
    groups_api,
    servers_api,
):
    NOVA_ROUTES.extend(_module.routes)

Answer = tuple[int, dict[str, str], bytes]


class Simulator:
    """Keystone + Nova + Placement state and request handling."""

    def __init__(
        self, base_url: str, region: str = "RegionOne", max_limit: int = 1000
    ) -> None:
        self.base_url = base_url
        self.cloud = Cloud(max_limit)
        self.identity = Identity(base_url, region)
        self.calls: dict[str, int] = {}
        self._calls_lock = threading.Lock()

    # -- counters ---------------------------------------------------------
    def count(self, name: str) -> None:
        with self._calls_lock:
            self.calls[name] = self.calls.get(name, 0) + 1

    def reset_calls(self) -> dict[str, int]:
        with self._calls_lock:
            calls, self.calls = self.calls, {}
        return calls

    # -- dispatch -------------------------------------------------------
    def handle(
        self, method: str, target: str, headers: Mapping[str, str], raw: bytes
    ) -> Answer:
        parts = urllib.parse.urlsplit(target)
        path = parts.path.rstrip("/") or "/"
        query = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
        request_id = f"req-{uuid.uuid4()}"
        extra = {"x-openstack-request-id": request_id}
        try:
            body = json.loads(raw) if raw.strip() else None
        except ValueError:
            body = _Malformed()
        try:
            with self.cloud.lock:
                status, out, more = self._route(
                    method, path, query, headers, body
                )
        except errors.ApiError as exc:
            status, out, more = exc.status, exc.body, exc.headers
        if path.startswith("/compute"):
            extra["x-compute-request-id"] = request_id
        extra.update(more)
        data = b"" if out is None else json.dumps(out).encode()
        if data:
            extra.setdefault("Content-Type", "application/json")
        return status, extra, data

    def _route(self, method, path, query, headers, body) -> tuple:
        for prefix, handler in (
            ("/identity", self._identity),
            ("/compute", self._compute),
            ("/placement", self._placement),
        ):
            if path == prefix or path.startswith(prefix + "/"):
                return handler(
                    method, path[len(prefix) :], query, headers, body
                )
        raise errors.not_found("The resource could not be found.")

    # -- Keystone -------------------------------------------------------
    def _identity(self, method, sub, query, headers, body) -> tuple:
        ident = self.identity
        token = headers.get("X-Auth-Token")
        subject = headers.get("X-Subject-Token")
        if isinstance(body, _Malformed):
            raise errors.keystone(400, "Malformed request body")
        if method in ("GET", "HEAD") and sub == "":
            return ident.versions()
        if method in ("GET", "HEAD") and sub == "/v3":
            return ident.version()
        if sub == "/v3/auth/tokens":
            if method == "POST":
                self.count("token")
                return ident.issue(body)
            if method in ("GET", "HEAD"):
                status, out, more = ident.validate(token, subject)
                return status, None if method == "HEAD" else out, more
            if method == "DELETE":
                return ident.revoke(token, subject)
        if method == "GET" and sub == "/v3/auth/projects":
            return ident.my_projects(token)
        if method == "GET" and sub == "/v3/auth/catalog":
            return ident.my_catalog(token)
        raise errors.keystone(404, "The resource could not be found.")

    # -- Nova -------------------------------------------------------------
    def _compute(self, method, sub, query, headers, body) -> tuple:
        if sub == "" and method in ("GET", "HEAD"):
            return 200, {"versions": [self._nova_version(links=False)]}, {}
        if not (sub == "/v2.1" or sub.startswith("/v2.1/")):
            raise errors.not_found("The resource could not be found.")
        version = microversion.nova(headers)
        answer_headers = microversion.nova_headers(version)
        if sub == "/v2.1" and method in ("GET", "HEAD"):
            return 200, {"version": self._nova_version()}, answer_headers
        caller = self.identity.caller(headers.get("X-Auth-Token"))
        if isinstance(body, _Malformed):
            raise errors.bad_request("Malformed request body")
        try:
            route, args = NOVA_ROUTES.match(method, sub[len("/v2.1") :])
        except errors.ApiError as exc:
            exc.headers.update(answer_headers)
            raise
        self.count(route.name)
        req = Request(
            method,
            sub,
            query,
            headers,
            body,
            caller,
            version,
            f"{self.base_url}/compute/v2.1",
        )
        try:
            status, out, *more = route.handler(self, req, **args)
        except errors.ApiError as exc:
            exc.headers.update(answer_headers)
            raise
        answer_headers.update(*more)
        return status, None if method == "HEAD" else out, answer_headers

    def _nova_version(self, links: bool = True) -> dict[str, Any]:
        href = f"{self.base_url}/compute/v2.1/"
        body: dict[str, Any] = {
            "id": "v2.1",
            "status": "CURRENT",
            "version": microversion.text(microversion.NOVA_MAX),
            "min_version": microversion.text(microversion.NOVA_MIN),
            "updated": "2013-07-23T11:33:21Z",
            "links": [{"rel": "self", "href": href}],
        }
        if links:
            body["links"].append(
                {
                    "rel": "describedby",
                    "type": "text/html",
                    "href": "http://docs.openstack.org/",
                }
            )
            body["media-types"] = [
                {
                    "base": "application/json",
                    "type": "application/vnd.openstack.compute+json;"
                    "version=2.1",
                }
            ]
        return body

    # -- Placement ------------------------------------------------------
    def _placement(self, method, sub, query, headers, body) -> tuple:
        if sub == "" and method in ("GET", "HEAD"):
            version = {
                "id": "v1.0",
                "max_version": microversion.text(microversion.PLACEMENT_MAX),
                "min_version": microversion.text(microversion.PLACEMENT_MIN),
                "status": "CURRENT",
                "links": [{"rel": "self", "href": ""}],
            }
            answer = microversion.placement_headers(microversion.PLACEMENT_MIN)
            return 200, {"versions": [version]}, answer
        caller = self.identity.caller(headers.get("X-Auth-Token"))
        version = microversion.placement(headers)
        try:
            route, args = placement_api.routes.match(method, sub)
        except errors.ApiError as exc:
            if exc.status == 405:
                raise errors.placement(405, "") from None
            raise errors.placement(404, "") from None
        self.count(f"placement/{route.name}")
        req = Request(
            method,
            sub,
            query,
            headers,
            body,
            caller,
            version,
            f"{self.base_url}/placement",
        )
        status, out, *more = route.handler(self, req, **args)
        answer = microversion.placement_headers(version)
        answer.update(*more)
        return status, out, answer


class _Malformed:
    """A body that is not JSON (each service words its own 400)."""
