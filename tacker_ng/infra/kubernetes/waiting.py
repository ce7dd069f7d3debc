"""Wait for workloads to be ready, or for objects to be gone.

Polls with a growing interval (``[kubernetes] poll_interval`` up to
``poll_max_interval``), bounded by ``ready_timeout`` / ``delete_timeout``.
A pod the scheduler cannot place fails the wait once it stayed so for
``unschedulable_timeout``, with the scheduler's message. The time spent
sleeping is counted apart from the API calls (tools/bench/cnf.py).
"""

import time
from collections.abc import Callable, Iterable
from typing import Any

from oslo_config import cfg

from tacker_ng import outbound_errors
from tacker_ng.infra.kubernetes import errors, readiness
from tacker_ng.infra.kubernetes.kube import Kube, ObjectRef

Pods = list[dict[str, Any]]


class Waiter:
    def __init__(
        self,
        kube: Kube,
        conf: cfg.ConfigOpts,
        check_cancel: Callable[[], None] = lambda: None,
    ) -> None:
        self.kube = kube
        self.opts = conf.kubernetes
        self.check_cancel = check_cancel
        #: Seconds slept between polls.
        self.waited = 0.0

    def pause(self, interval: float) -> float:
        """Sleep ``interval``; the next, longer interval."""
        self.check_cancel()
        time.sleep(interval)
        self.waited += interval
        return min(interval * 1.5, self.opts.poll_max_interval)

    def pods_of(self, workload: dict[str, Any]) -> Pods:
        """Live pods of a workload (the Pod itself for a bare Pod)."""
        meta = workload["metadata"]
        if workload["kind"] == "Pod":
            pod = self.kube.get(ObjectRef.of(workload))
            return readiness.live([pod] if pod else [])
        selector = readiness.selector_string(
            (workload.get("spec") or {}).get("selector")
        )
        return readiness.live(
            self.kube.list(
                "v1", "Pod", meta["namespace"], label_selector=selector
            )
        )

    def until_ready(
        self,
        workloads: Iterable[dict[str, Any]],
        replaced: frozenset[str] = frozenset(),
    ) -> dict[str, tuple[dict[str, Any], Pods]]:
        """Workload name -> (workload as read, its pods), once all ready
        and none of the pods whose uid is in ``replaced`` is left."""
        pending = {w["metadata"]["name"]: w for w in workloads}
        done: dict[str, tuple[dict[str, Any], Pods]] = {}
        deadline = time.monotonic() + self.opts.ready_timeout
        first_seen: dict[str, float] = {}
        interval = self.opts.poll_interval
        while True:
            for name, workload in list(pending.items()):
                current = self.kube.get(ObjectRef.of(workload))
                if current is None:
                    raise errors.ApiError(
                        action="wait for",
                        kind=workload["kind"],
                        name=name,
                        reason="it was deleted meanwhile",
                    )
                pods = self.pods_of(current)
                if not {
                    p["metadata"].get("uid") for p in pods
                } & replaced and (readiness.workload_ready(current, pods)):
                    done[name] = (current, pods)
                    del pending[name]
                    continue
                self._check_schedulable(name, pods, first_seen)
            if not pending:
                return done
            if time.monotonic() > deadline:
                raise errors.NotReady(
                    what=", ".join(sorted(pending)),
                    state="ready",
                    timeout=self.opts.ready_timeout,
                    option="ready_timeout",
                )
            interval = self.pause(interval)

    def _check_schedulable(
        self, workload: str, pods: Pods, first_seen: dict[str, float]
    ) -> None:
        now = time.monotonic()
        for pod in pods:
            name = pod["metadata"]["name"]
            message = readiness.unschedulable(pod)
            if message is None:
                first_seen.pop(name, None)
                continue
            since = first_seen.setdefault(name, now)
            if now - since >= self.opts.unschedulable_timeout:
                raise errors.Unschedulable(
                    pod=name,
                    workload=workload,
                    reason=outbound_errors.scrub(message),
                )

    def until_gone(self, refs: Iterable[ObjectRef], grace: int = 0) -> None:
        """Return once none of ``refs`` exists any more."""
        pending = list(refs)
        timeout = self.opts.delete_timeout + grace
        deadline = time.monotonic() + timeout
        interval = self.opts.poll_interval
        while True:
            pending = [r for r in pending if self.kube.get(r) is not None]
            if not pending:
                return
            if time.monotonic() > deadline:
                raise errors.NotReady(
                    what=", ".join(str(r) for r in pending),
                    state="deleted",
                    timeout=timeout,
                    option="delete_timeout",
                )
            interval = self.pause(interval)

    def until_no_pods(
        self, selectors: list[tuple[str, str]], grace: int = 0
    ) -> None:
        """Return once no pod matches any (namespace, label selector)."""
        pending = list(selectors)
        timeout = self.opts.delete_timeout + grace
        deadline = time.monotonic() + timeout
        interval = self.opts.poll_interval
        while True:
            pending = [
                (ns, sel)
                for ns, sel in pending
                if self.kube.list("v1", "Pod", ns, label_selector=sel)
            ]
            if not pending:
                return
            if time.monotonic() > deadline:
                raise errors.NotReady(
                    what="pods " + ", ".join(f"{n}/{s}" for n, s in pending),
                    state="deleted",
                    timeout=timeout,
                    option="delete_timeout",
                )
            interval = self.pause(interval)
