"""A small facade over the ``kubernetes`` DynamicClient: plain dicts in and
out, any kind the cluster serves (found by discovery), and API refusals
turned into :class:`~tacker_ng.infra.kubernetes.errors.ApiError` with the
API server's own message (scrubbed of addresses) and a connection failure
into :class:`~tacker_ng.infra.kubernetes.errors.Unreachable` in our words;
urllib3's text (it holds the API server's host and port) is logged only
(:mod:`tacker_ng.outbound_errors`).
"""

import dataclasses
import json
from typing import Any

import urllib3
from kubernetes.dynamic import DynamicClient, discovery
from kubernetes.dynamic import exceptions as dyn_exc
from oslo_log import log as logging

from tacker_ng import outbound_errors
from tacker_ng.infra.kubernetes import errors

LOG = logging.getLogger(__name__)

JSON_MERGE = "application/merge-patch+json"


@dataclasses.dataclass(frozen=True)
class ObjectRef:
    """Which object: what the driver records of what it created."""

    api_version: str
    kind: str
    name: str
    namespace: str | None = None

    @classmethod
    def of(cls, body: dict[str, Any]) -> "ObjectRef":
        meta = body.get("metadata") or {}
        return cls(
            body["apiVersion"],
            body["kind"],
            meta["name"],
            meta.get("namespace"),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {"apiVersion": self.api_version, "kind": self.kind}
        out["name"] = self.name
        if self.namespace:
            out["namespace"] = self.namespace
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ObjectRef":
        return cls(
            data["apiVersion"],
            data["kind"],
            data["name"],
            data.get("namespace"),
        )

    def __str__(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind} {where}{self.name}"


def unreachable(exc: urllib3.exceptions.HTTPError) -> str:
    """Why the API server could not be reached, in our words (urllib3's
    text, with the server's address, is logged)."""
    LOG.warning("Kubernetes API server not reached: %s", exc)
    return (
        "the API server could not be reached: "
        f"{outbound_errors.transport_failure(exc)}"
    )


def status_message(exc: dyn_exc.DynamicApiError) -> str:
    """The ``message`` of the API server's Status body (else the reason),
    scrubbed of addresses."""
    try:
        body = json.loads(exc.body)
        text = body.get("message") or body.get("reason") or exc.reason
    except (TypeError, ValueError, AttributeError):
        text = f"{exc.status} {exc.reason}"
    return outbound_errors.scrub(text)


class _Discoverer(discovery.LazyDiscoverer):
    """Discovery kept in memory for one client: no cache file, which
    the library would otherwise write (JSON) to a shared temp dir."""

    def __init__(self, client, cache_file=None) -> None:
        super().__init__(client, "/nonexistent/tacker-ng-discovery.json")

    def _write_cache(self) -> None:
        return None


class Kube:
    """Generic CRUD on one cluster through one ApiClient."""

    def __init__(self, api_client, request_timeout: float = 60) -> None:
        self._timeout = request_timeout
        try:
            self.dyn = DynamicClient(api_client, discoverer=_Discoverer)
        except dyn_exc.DynamicApiError as exc:
            raise errors.ApiError(
                action="discover",
                kind="API",
                name="groups",
                reason=status_message(exc),
            ) from exc
        except urllib3.exceptions.HTTPError as exc:
            raise errors.Unreachable(
                action="discover",
                kind="API",
                name="groups",
                reason=unreachable(exc),
            ) from exc
        self._resources: dict[tuple[str, str], Any] = {}

    def resource(self, api_version: str, kind: str) -> Any:
        key = (api_version, kind)
        if key not in self._resources:
            try:
                self._resources[key] = self.dyn.resources.get(
                    api_version=api_version, kind=kind
                )
            except (
                dyn_exc.ResourceNotFoundError,
                dyn_exc.ResourceNotUniqueError,
            ) as exc:
                raise errors.InvalidManifest(
                    reason=f"the cluster serves no {kind} in {api_version}"
                ) from exc
        return self._resources[key]

    def namespaced(self, api_version: str, kind: str) -> bool:
        return bool(self.resource(api_version, kind).namespaced)

    def _call(self, action: str, ref, method: str, path: str, **kw) -> Any:
        try:
            response = self.dyn.request(
                method,
                path,
                serialize=False,
                _request_timeout=self._timeout,
                **kw,
            )
        except dyn_exc.DynamicApiError as exc:
            if exc.status == 404 and action in ("read", "delete"):
                return None
            error = errors.ApiError(
                action=action,
                kind=ref.kind,
                name=ref.name,
                reason=status_message(exc),
            )
            error.code = exc.status
            raise error from exc
        except urllib3.exceptions.HTTPError as exc:
            raise errors.Unreachable(
                action=action,
                kind=ref.kind,
                name=ref.name,
                reason=unreachable(exc),
            ) from exc
        return json.loads(response.data or b"null")

    def _path(self, ref: ObjectRef, name: str | None = None) -> str:
        resource = self.resource(ref.api_version, ref.kind)
        namespace = ref.namespace if resource.namespaced else None
        return resource.path(name=name, namespace=namespace)

    def get(self, ref: ObjectRef) -> dict[str, Any] | None:
        """The object, or None when it does not exist."""
        return self._call("read", ref, "get", self._path(ref, ref.name))

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        ref = ObjectRef.of(body)
        return self._call("create", ref, "post", self._path(ref), body=body)

    def replace(self, body: dict[str, Any]) -> dict[str, Any]:
        ref = ObjectRef.of(body)
        path = self._path(ref, ref.name)
        return self._call("replace", ref, "put", path, body=body)

    def merge_patch(self, ref: ObjectRef, patch: dict[str, Any]) -> Any:
        path = self._path(ref, ref.name)
        return self._call(
            "patch", ref, "patch", path, body=patch, content_type=JSON_MERGE
        )

    def delete(
        self,
        ref: ObjectRef,
        grace_period: int | None = None,
        propagation: str = "Background",
    ) -> bool:
        """Ask for the deletion; False when it was already gone."""
        body: dict[str, Any] = {
            "apiVersion": "v1",
            "kind": "DeleteOptions",
            "propagationPolicy": propagation,
        }
        if grace_period is not None:
            body["gracePeriodSeconds"] = grace_period
        path = self._path(ref, ref.name)
        return self._call("delete", ref, "delete", path, body=body) is not None

    def list(
        self,
        api_version: str,
        kind: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        ref = ObjectRef(api_version, kind, "", namespace)
        found = self._call(
            "list",
            ref,
            "get",
            self._path(ref),
            label_selector=label_selector,
            field_selector=field_selector,
        )
        return list((found or {}).get("items") or [])
