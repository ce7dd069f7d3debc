"""The HTTPS server: authentication, discovery, the REST API and the
simulator's control API (``/simcloud/v1``), on one aiohttp application."""

from __future__ import annotations

import hmac
import json
import logging
import ssl
from typing import Any

from aiohttp import web

from tools.simcloud.k8s import control, errors, openapi, podmetrics, resources
from tools.simcloud.k8s.api import Api
from tools.simcloud.k8s.engine import Cluster
from tools.simcloud.k8s.rest import error_response, respond

LOG = logging.getLogger("simk8s")
PUBLIC = {"/version", "/healthz", "/livez", "/readyz"}
VERSION = {
    "major": "1",
    "minor": "30",
    "gitVersion": "v1.30.0",
    "gitCommit": "7c48c2bd72b9bf5c44d21d7338cc7bea77d0ad2a",
    "gitTreeState": "clean",
    "buildDate": "2024-04-17T17:27:03Z",
    "goVersion": "go1.22.2",
    "compiler": "gc",
    "platform": "linux/amd64",
}


def _group(name: str) -> dict:
    versions = [
        {"groupVersion": f"{name}/{v}", "version": v}
        for v in resources.GROUPS[name]
    ]
    return {
        "name": name,
        "versions": versions,
        "preferredVersion": versions[0],
    }


class Server:
    """Routes requests; holds the token and the cluster."""

    def __init__(self, cluster: Cluster, token: str, address: str) -> None:
        self.cluster = cluster
        self.api = Api(cluster)
        self._token = token
        self.address = address

    def app(self) -> web.Application:
        app = web.Application(
            middlewares=[self.middleware], client_max_size=64 * 1024 * 1024
        )
        app.router.add_route("*", "/{tail:.*}", self.dispatch)
        return app

    def _authenticated(self, request: web.Request) -> bool | None:
        """True: valid credentials; False: bad ones; None: anonymous."""
        header = request.headers.get("Authorization", "")
        if header:
            scheme, _, token = header.partition(" ")
            return scheme.lower() == "bearer" and hmac.compare_digest(
                token.strip().encode(), self._token.encode()
            )
        transport = request.transport
        cert = transport.get_extra_info("peercert") if transport else None
        if cert:
            return True
        return None

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Any
    ) -> web.StreamResponse:
        who = self._authenticated(request)
        paged = " paged" if "limit" in request.query else ""
        self.cluster.requests[f"{request.method} {request.path}{paged}"] += 1
        if who is False:
            return error_response(errors.unauthorized())
        if who is None and request.path not in PUBLIC:
            verb = request.method.lower()
            return error_response(
                errors.forbidden(
                    f'forbidden: User "system:anonymous" cannot {verb} path '
                    f'"{request.path}"',
                    {},
                )
            )
        try:
            return await handler(request)
        except errors.ApiError as exc:
            return error_response(exc)
        except web.HTTPException:
            raise
        except Exception as exc:
            LOG.exception("request %s %s failed", request.method, request.path)
            return error_response(errors.internal(str(exc)))

    async def dispatch(self, request: web.Request) -> web.StreamResponse:
        path = request.path.rstrip("/") or "/"
        parts = [p for p in path.split("/") if p]
        if path in ("/healthz", "/livez"):
            return web.Response(text="ok")
        if path == "/readyz":
            if not self.cluster.ready:
                return web.Response(status=500, text="[-]simk8s not ready")
            return web.Response(text="ok")
        if path == "/version":
            return respond(VERSION)
        if path == "/api":
            return respond(
                {
                    "kind": "APIVersions",
                    "versions": ["v1"],
                    "serverAddressByClientCIDRs": [
                        {
                            "clientCIDR": "0.0.0.0/0",
                            "serverAddress": self.address,
                        }
                    ],
                }
            )
        if path == "/apis":
            return respond(
                {
                    "kind": "APIGroupList",
                    "apiVersion": "v1",
                    "groups": [_group(g) for g in resources.GROUPS],
                }
            )
        if path == "/openapi/v2":
            return openapi.respond_v2(request)
        if parts and parts[0] == "simcloud":
            return await control.handle(self.cluster, request, parts[1:])
        if podmetrics.is_proxy(parts):
            return podmetrics.proxy(self.cluster, request, parts)
        if parts[:2] == ["api", "v1"]:
            if len(parts) == 2:
                return respond(resources.api_resource_list("", "v1"))
            return await self.api.handle(request, "", "v1", parts[2:])
        if (
            parts
            and parts[0] == "apis"
            and len(parts) >= 2
            and parts[1] in resources.GROUPS
        ):
            group = parts[1]
            if len(parts) == 2:
                return respond(
                    {"kind": "APIGroup", "apiVersion": "v1", **_group(group)}
                )
            if parts[2] not in resources.GROUPS[group]:
                raise _not_found()
            if len(parts) == 3:
                return respond(resources.api_resource_list(group, parts[2]))
            return await self.api.handle(request, group, parts[2], parts[3:])
        raise _not_found()


def _not_found() -> errors.ApiError:
    return errors.ApiError(
        404, "NotFound", "the server could not find the requested resource", {}
    )


def ssl_context(cert: str, key: str, ca: str) -> ssl.SSLContext:
    """TLS like the API server: our cert, optional client certs of our CA."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    ctx.load_verify_locations(ca)
    ctx.verify_mode = ssl.CERT_OPTIONAL
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


def kubeconfig(
    endpoint: str, ca_path: str, token: str, client_cert: str, client_key: str
) -> str:
    """A kubeconfig with a token user (default) and a client-cert user."""
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "preferences": {},
        "clusters": [
            {
                "name": "simk8s",
                "cluster": {
                    "server": endpoint,
                    "certificate-authority": ca_path,
                },
            }
        ],
        "users": [
            {"name": "simk8s-admin", "user": {"token": token}},
            {
                "name": "simk8s-cert",
                "user": {
                    "client-certificate": client_cert,
                    "client-key": client_key,
                },
            },
        ],
        "contexts": [
            {
                "name": "simk8s",
                "context": {
                    "cluster": "simk8s",
                    "user": "simk8s-admin",
                    "namespace": "default",
                },
            },
            {
                "name": "simk8s-cert",
                "context": {
                    "cluster": "simk8s",
                    "user": "simk8s-cert",
                    "namespace": "default",
                },
            },
        ],
        "current-context": "simk8s",
    }
    return json.dumps(config, indent=2) + "\n"
