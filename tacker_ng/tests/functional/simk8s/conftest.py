"""Helpers for the simulator's tests: clients, namespaces, watch waits."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from kubernetes import client, watch


@pytest.fixture
def api(simk8s):
    """(CoreV1Api, AppsV1Api) on the module's simulator."""
    with simk8s.api_client() as api_client:
        yield client.CoreV1Api(api_client), client.AppsV1Api(api_client)


@pytest.fixture
def namespace(simk8s, api) -> Iterator[str]:
    """A fresh namespace per test, deleted afterwards."""
    core, _ = api
    name = f"t-{uuid.uuid4().hex[:8]}"
    core.create_namespace({"metadata": {"name": name}})
    yield name
    core.delete_namespace(name)


def status_of(exc: client.ApiException) -> dict:
    """The Status body of a failed call."""
    return json.loads(exc.body)


def wait_list(
    list_fn: Callable[..., Any],
    predicate: Callable[[list], bool],
    timeout: float = 30,
    **kwargs: Any,
) -> list:
    """Watch a collection until ``predicate(items)`` holds (or fail).

    Each watch starts at the resourceVersion of the list it follows, so
    a change between the list and the watch is not missed (a watch from
    "now" would wait for a next event that may never come)."""
    deadline = time.monotonic() + timeout
    listed = list_fn(**kwargs)
    items = listed.items
    if predicate(items):
        return items
    while time.monotonic() < deadline:
        w = watch.Watch()
        remaining = max(1, int(deadline - time.monotonic()))
        for _event in w.stream(
            list_fn,
            timeout_seconds=remaining,
            resource_version=listed.metadata.resource_version,
            **kwargs,
        ):
            listed = list_fn(**kwargs)
            items = listed.items
            if predicate(items):
                w.stop()
                return items
    raise AssertionError(
        f"condition not met in {timeout}s; last items: "
        f"{[i.metadata.name for i in items]}"
    )


def pod_ready(pod: Any) -> bool:
    return any(
        c.type == "Ready" and c.status == "True"
        for c in (pod.status.conditions or [])
    )


def deployment(
    name: str, replicas: int = 1, labels: dict | None = None, **pod_spec: Any
) -> dict:
    labels = labels or {"app": name}
    spec = {"containers": [{"name": "app", "image": "nginx:1.25"}]}
    spec.update(pod_spec)
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": spec},
        },
    }


def rest(
    sim: Any,
    method: str,
    path: str,
    body: Any = None,
    content_type: str = "application/json",
) -> tuple[int, Any]:
    """A raw HTTPS call (bodies the typed client would refuse to send)."""
    import requests

    resp = requests.request(
        method,
        sim.endpoint + path,
        json=body,
        verify=sim.ca_path,
        headers={
            "Authorization": f"Bearer {sim.token}",
            "Content-Type": content_type,
        },
        timeout=30,
    )
    try:
        return resp.status_code, resp.json()
    except ValueError:
        return resp.status_code, resp.text
