"""Heat through python-heatclient: stacks, their resources and events.

Waits poll with a growing interval (``[openstack] stack_poll_interval``
up to ``stack_poll_max_interval``) and end after ``stack_timeout``; a
FORCEFUL cancel of the operation stops a wait between two polls.

Once a stack has been seen, it is addressed as ``<name>/<id>``: Heat
answers a bare id with a redirect (a lookup in the engine and a second
round trip) on every show, resource and event list. Stacks are shown
without their outputs (the VNFM reads none; resolving them makes Heat
evaluate each output, some with a Nova call, on every poll).
"""

import math
import time
from collections.abc import Callable
from typing import Any

from heatclient import client as heat_client
from heatclient import exc as heat_exc
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra.openstack import errors

LOG = logging.getLogger(__name__)
SERVER_TYPE = "OS::Nova::Server"
VOLUME_TYPE = "OS::Cinder::Volume"


def _plain(obj: Any) -> dict[str, Any]:
    return obj.to_dict() if hasattr(obj, "to_dict") else dict(obj)


class Heat:
    """The stack operations the driver needs, with bounded waits."""

    def __init__(
        self,
        session,
        region: str | None,
        conf: cfg.ConfigOpts = cfg.CONF,
        check_cancel: Callable[[], None] = lambda: None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = heat_client.Client(
            "1",
            session=session,
            region_name=region,
            interface=conf.openstack.endpoint_interface,
        )
        self.conf = conf
        #: How errors name the VIM ("VIM <vimId>").
        self.vim = errors.vim_name(session)
        self.check_cancel = check_cancel
        self.sleep = sleep
        #: Seconds slept while waiting for Heat (not VNFM work).
        self.waited = 0.0
        #: time.time() when the poll that saw a stack's final state began.
        self.last_seen_at = 0.0
        #: stack id -> "<name>/<id>", for every stack seen.
        self._refs: dict[str, str] = {}

    def _ref(self, stack_id: str) -> str:
        """``<name>/<id>`` of a stack seen before, else ``stack_id``."""
        return self._refs.get(stack_id, stack_id)

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except heat_exc.HTTPException as exc:
            raise errors.refused(self.vim, f"Heat {what}", exc) from exc

    # -- stacks ----------------------------------------------------------
    def find(self, name_or_id: str) -> dict[str, Any] | None:
        """The stack, or None if Heat has none by that name/id."""
        try:
            stack = _plain(
                self.client.stacks.get(
                    self._ref(name_or_id), resolve_outputs=False
                )
            )
        except heat_exc.HTTPNotFound:
            return None
        except heat_exc.HTTPException as exc:
            raise errors.refused(self.vim, "Heat stack show", exc) from exc
        if stack.get("id") and stack.get("stack_name"):
            self._refs[stack["id"]] = f"{stack['stack_name']}/{stack['id']}"
        return stack

    def create(
        self,
        name: str,
        template: dict,
        files: dict[str, str],
        params: dict[str, Any],
    ) -> str:
        """Create a stack (rollback off: failed resources stay for the
        events and for the next update); returns its id.

        A stack of that name that Heat is still deleting (or has deleted
        but not yet released the name of: Heat writes DELETE_COMPLETE a
        moment before it frees the row) is waited for, then the create is
        sent again; a live stack of that name is a conflict (VimError)."""
        deadline = time.monotonic() + self.conf.openstack.stack_timeout
        interval = self.conf.openstack.stack_poll_interval
        while True:
            try:
                body = self.client.stacks.create(
                    stack_name=name,
                    template=template,
                    files=files,
                    parameters=params,
                    disable_rollback=True,
                    timeout_mins=self._timeout_mins(),
                )
                return body["stack"]["id"]
            except heat_exc.HTTPConflict as exc:
                if not self._name_being_released(name):
                    raise errors.refused(
                        self.vim, "Heat stack create", exc
                    ) from exc
                if time.monotonic() > deadline:
                    raise errors.StackTimeout(
                        stack=name,
                        status="DELETE_COMPLETE (name not released)",
                        timeout=self.conf.openstack.stack_timeout,
                    ) from exc
                LOG.info(
                    "Stack %s: the deleted stack of that name is not "
                    "released yet; creating again in %.1fs",
                    name,
                    interval,
                )
                interval = self._pause(interval)
            except heat_exc.HTTPException as exc:
                raise errors.refused(
                    self.vim, "Heat stack create", exc
                ) from exc

    def _name_being_released(self, name: str) -> bool:
        """Whether the stack named ``name`` is gone or going."""
        stack = self.find(name)
        return stack is None or stack["stack_status"] in (
            "DELETE_COMPLETE",
            "DELETE_IN_PROGRESS",
        )

    def update(
        self,
        stack_id: str,
        template: dict,
        files: dict[str, str],
        params: dict[str, Any],
    ) -> None:
        """Replace the stack's template and parameters (PUT)."""
        self._call(
            "stack update",
            self.client.stacks.update,
            self._ref(stack_id),
            template=template,
            files=files,
            parameters=params,
            disable_rollback=True,
            timeout_mins=self._timeout_mins(),
        )

    def delete(self, stack_id: str) -> None:
        """Delete the stack and wait until it is gone."""
        try:
            self.client.stacks.delete(self._ref(stack_id))
        except heat_exc.HTTPNotFound:
            return
        except heat_exc.HTTPException as exc:
            raise errors.refused(self.vim, "Heat stack delete", exc) from exc
        stack = self.wait(stack_id, allow_missing=True)
        if stack is not None and stack["stack_status"] != "DELETE_COMPLETE":
            raise errors.StackFailed(
                stack=stack_id,
                action="DELETE",
                reason=errors.verdict(stack.get("stack_status_reason")),
            )

    def _timeout_mins(self) -> int:
        return max(1, math.ceil(self.conf.openstack.stack_timeout / 60))

    def pause(self, interval: float) -> float:
        """Wait ``interval`` (cancellable, counted as polling); return the
        next, backed-off interval. For other pollers of this operation."""
        return self._pause(interval)

    def _pause(self, interval: float) -> float:
        self.check_cancel()
        self.sleep(interval)
        self.waited += interval
        return min(interval * 1.5, self.conf.openstack.stack_poll_max_interval)

    def wait(
        self, stack_id: str, allow_missing: bool = False
    ) -> dict[str, Any] | None:
        """Poll until the stack leaves ``*_IN_PROGRESS``; return it."""
        deadline = time.monotonic() + self.conf.openstack.stack_timeout
        interval = self.conf.openstack.stack_poll_interval
        while True:
            polled_at = time.time()
            stack = self.find(stack_id)
            self.last_seen_at = polled_at
            if stack is None:
                if allow_missing:
                    return None
                raise errors.VimError(reason=f"stack {stack_id} vanished")
            status = stack["stack_status"]
            if not status.endswith("_IN_PROGRESS"):
                return stack
            if time.monotonic() > deadline:
                raise errors.StackTimeout(
                    stack=stack_id,
                    status=status,
                    timeout=self.conf.openstack.stack_timeout,
                )
            interval = self._pause(interval)

    # -- resources and events -------------------------------------------
    def resources(self, stack_id: str, depth: int = 1) -> list[dict]:
        """Resources of the stack and of its nested stacks (``depth``)."""
        return [
            _plain(r)
            for r in self._call(
                "resource list",
                self.client.resources.list,
                self._ref(stack_id),
                nested_depth=depth,
            )
        ]

    def settle(self, stack_id: str) -> list[dict]:
        """After a failure, wait (bounded) until no resource is still in
        progress; return the resources (nested one level)."""
        deadline = time.monotonic() + self.conf.openstack.stack_settle_timeout
        interval = self.conf.openstack.stack_poll_interval
        while True:
            found = self.resources(stack_id)
            busy = [
                r["resource_name"]
                for r in found
                if r["resource_status"].endswith("_IN_PROGRESS")
            ]
            if not busy or time.monotonic() > deadline:
                if busy:
                    LOG.warning(
                        "Stack %s: %s still in progress after %ss",
                        stack_id,
                        ", ".join(busy),
                        self.conf.openstack.stack_settle_timeout,
                    )
                return found
            interval = self._pause(interval)

    def last_event_id(self, stack_id: str) -> str | None:
        """Id of the newest root-stack event (a marker for the next read)."""
        found = self._call(
            "event list",
            self.client.events.list,
            self._ref(stack_id),
            sort_dir="desc",
            limit=1,
        )
        return found[0].id if found else None

    def events_since(self, stack_id: str, marker: str | None) -> list[dict]:
        """Root-stack events after ``marker`` (oldest first)."""
        kwargs: dict[str, Any] = {"sort_dir": "asc"}
        if marker:
            kwargs["marker"] = marker
        return [
            _plain(e)
            for e in self._call(
                "event list",
                self.client.events.list,
                self._ref(stack_id),
                **kwargs,
            )
        ]

    def mark_unhealthy(
        self, stack_id: str, resource_name: str, reason: str
    ) -> None:
        """Mark a resource (e.g. a VNFC's server) for replacement."""
        self._call(
            "resource mark unhealthy",
            self.client.resources.mark_unhealthy,
            self._ref(stack_id),
            resource_name,
            True,
            reason,
        )


def nested_stack_id(resource: dict[str, Any]) -> str | None:
    """Id of the stack a resource lives in (from its 'stack' link)."""
    for link in resource.get("links") or []:
        if link.get("rel") == "stack":
            return link["href"].rstrip("/").rsplit("/", 1)[-1]
    return None


def servers_by_vnfc(
    resources: list[dict[str, Any]], names: set[str]
) -> dict[str, dict[str, Any]]:
    """VNFC name -> its OS::Nova::Server resource (top-level or nested)."""
    out = {}
    for r in resources:
        if r.get("resource_type") != SERVER_TYPE:
            continue
        owner = r.get("parent_resource") or r["resource_name"]
        if owner in names:
            out[owner] = r
    return out


def volumes_by_vnfc(
    resources: list[dict[str, Any]], names: set[str]
) -> dict[str, dict[str, str]]:
    """VNFC name -> {volume resource name: Cinder volume id}, from the
    OS::Cinder::Volume resources of each VNFC's nested stack."""
    out: dict[str, dict[str, str]] = {}
    for r in resources:
        owner = r.get("parent_resource")
        if r.get("resource_type") != VOLUME_TYPE or owner not in names:
            continue
        if r.get("physical_resource_id"):
            out.setdefault(owner, {})[r["resource_name"]] = r[
                "physical_resource_id"
            ]
    return out
