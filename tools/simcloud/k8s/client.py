"""A small client of the simulator's control API (``/simcloud/v1``).

Stdlib only, so any test tool can drive faults without extra packages.
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from typing import Any


class ControlError(RuntimeError):
    """The control API answered with an error."""


class SimK8sControl:
    """Fault injection and state of one running simulator."""

    def __init__(self, endpoint: str, token: str, ca_path: str) -> None:
        self.endpoint = endpoint.rstrip("/")
        self._token = token
        self._ssl = ssl.create_default_context(cafile=ca_path)

    def _call(
        self, method: str, path: str, body: Any = None, auth: bool = True
    ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.endpoint + path, data=data, method=method
        )
        req.add_header("Content-Type", "application/json")
        if auth:
            req.add_header("Authorization", f"Bearer {self._token}")
        try:
            with urllib.request.urlopen(
                req,
                context=self._ssl,  # noqa: S310
                timeout=10,
            ) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            raise ControlError(
                f"{method} {path}: {exc.code} "
                f"{exc.read().decode(errors='replace')}"
            ) from exc
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode()

    def ready(self) -> bool:
        """True when /readyz answers ok (anonymous, like kube-apiserver)."""
        try:
            return self._call("GET", "/readyz", auth=False) == "ok"
        except (ControlError, OSError):
            return False

    def state(self) -> dict:
        return self._call("GET", "/simcloud/v1/state")

    def requests(self) -> dict[str, int]:
        """Requests served so far by ``METHOD /path`` (see control.py)."""
        return self._call("GET", "/simcloud/v1/requests")

    def configure(self, **timings: float) -> dict:
        """Change kubelet timings (ready_delay, terminate_delay, ...)."""
        return self._call("PUT", "/simcloud/v1/config", timings)

    def node_not_ready(self, name: str) -> dict:
        return self._call("POST", f"/simcloud/v1/nodes/{name}/notready", {})

    def node_ready(self, name: str) -> dict:
        return self._call("POST", f"/simcloud/v1/nodes/{name}/ready", {})

    def kubelet(self, name: str, running: bool) -> dict:
        """Kill (``running=False``) or revive the kubelet of node ``name``:
        its pods stay Terminating once deleted, until force-deleted."""
        return self._call(
            "POST",
            f"/simcloud/v1/nodes/{name}/kubelet",
            {"running": running},
        )

    def add_node(
        self,
        name: str,
        labels: dict | None = None,
        taints: list | None = None,
        allocatable: dict | None = None,
    ) -> dict:
        spec = {
            "name": name,
            "labels": labels or {},
            "taints": taints or [],
            "allocatable": allocatable or {},
        }
        return self._call("POST", "/simcloud/v1/nodes", spec)

    def delete_node(self, name: str) -> dict:
        return self._call("DELETE", f"/simcloud/v1/nodes/{name}")

    def crash_loop(
        self,
        namespace: str,
        pod: str,
        enabled: bool = True,
        containers: list[str] | None = None,
    ) -> dict:
        body: dict[str, Any] = {"enabled": enabled}
        if containers:
            body["containers"] = containers
        return self._call(
            "POST",
            f"/simcloud/v1/namespaces/{namespace}/pods/{pod}/crashloop",
            body,
        )

    def pod_metrics(
        self, namespace: str, pod: str, values: dict[str, Any] | None = None
    ) -> dict:
        """The values a pod's proxied /metrics serves; with ``values``
        (the test exporter's spec) change them first."""
        path = f"/simcloud/v1/namespaces/{namespace}/pods/{pod}/metrics"
        if values is None:
            return self._call("GET", path)
        return self._call("PATCH", path, values)
