"""Batched observation of the Heat stacks of one OpenStack VIM.

One cycle costs one paged ``GET /stacks?status=FAILED`` listing per VIM
(``global_tenant`` when the VIM user may, its own project otherwise):
``ceil(failed stacks / page_size)`` calls, at least one, whatever the
number of VNFs - never one stack read per VNF. Only stacks in a
``*_FAILED`` state come back; a VNF's stack absent from the listing is
not failed. A VIM without a Heat endpoint has no stacks to judge (None).

Whether a stack still exists is asked only for the VNFs whose every
server is missing (a stack deleted behind the VNFM's back takes its
servers with it): one ``GET /stacks?name=...&name=...`` listing for all
of them, none in a cycle where no VNF lost every server.
"""

import time
from collections.abc import Iterable
from typing import Any

from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence import shard
from tacker_ng.convergence.drift import StackState
from tacker_ng.infra.openstack import errors, session

LOG = logging.getLogger(__name__)

#: VIMs (by :func:`~.shard.vim_key`) whose user may not list every
#: project's stacks (Heat's default ``stacks:global_index`` policy denies
#: everybody): not asked again, one call per page instead of two.
_NO_GLOBAL: set[str] = set()
#: VIM key -> time.monotonic() until which its catalog is known to have
#: no Heat endpoint (not even a token is spent on it meanwhile).
_NO_HEAT: dict[str, float] = {}
NO_HEAT_TTL = 600.0

#: Stack names per existence listing (``vnf-<uuid>``: 40 characters
#: each; the query string stays under 3 KB).
NAMES_PER_CALL = 50

#: The driver's stack name of a VNF instance (``vnf-<instance id>``).
STACK_PREFIX = "vnf-"


def stack_name(instance_id: str) -> str:
    return f"{STACK_PREFIX}{instance_id}"


def _state(item: Any) -> StackState:
    return StackState(
        id=item.id,
        name=item.stack_name,
        status=item.stack_status,
        reason=getattr(item, "stack_status_reason", None) or "",
    )


class HeatLister:
    """Lists a VIM's FAILED stacks in pages (``[convergence] page_size``)."""

    def __init__(
        self, vim: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
    ) -> None:
        sess, region = session.make_session(vim)
        self.client = heat_client.Client(
            "1",
            session=sess,
            region_name=region,
            interface=conf.openstack.endpoint_interface,
        )
        self.page_size = conf.convergence.page_size
        self.calls = 0
        self.key = shard.vim_key(vim)

    def _pages(
        self,
        extra: dict[str, Any],
        filters: dict[str, Any] | None = None,
    ) -> list[Any]:
        out: list[Any] = []
        marker = None
        while True:
            self.calls += 1
            params: dict[str, Any] = {
                "filters": filters or {"status": "FAILED"},
                "limit": self.page_size,
                **extra,
            }
            if marker:
                params["marker"] = marker
            page = list(self.client.stacks.list(**params))
            out.extend(page)
            if len(page) < self.page_size:
                return out
            marker = page[-1].id

    def _listed(self, filters: dict[str, Any] | None = None) -> list[Any]:
        """Every page, all projects when the VIM user may."""
        if self.key not in _NO_GLOBAL:
            try:
                return self._pages({"global_tenant": True}, filters)
            except heat_exc.Forbidden:
                LOG.debug("global_tenant stack list forbidden")
                _NO_GLOBAL.add(self.key)
        return self._pages({}, filters)

    def existing(self, names: Iterable[str]) -> set[str]:
        """Which of the stack ``names`` Heat has (in any state but
        deleted): listings filtered by name, :data:`NAMES_PER_CALL` names
        each (they go in the query string)."""
        wanted = sorted(set(names))
        found: set[str] = set()
        try:
            for i in range(0, len(wanted), NAMES_PER_CALL):
                chunk = wanted[i : i + NAMES_PER_CALL]
                items = self._listed({"name": chunk})
                found.update(item.stack_name for item in items)
        except (heat_exc.HTTPException, ks_exc.ClientException) as exc:
            raise errors.VimError(reason=f"Heat stack list: {exc}") from exc
        return found & set(wanted)

    def failed(self) -> dict[str, StackState] | None:
        """Stack name -> state of every FAILED stack the VIM user can
        see; None when the VIM has no Heat to ask."""
        try:
            items = self._listed()
        except ks_exc.EndpointNotFound:
            LOG.debug("No Heat endpoint; stacks not observed")
            _NO_HEAT[self.key] = time.monotonic() + NO_HEAT_TTL
            self.calls = 0  # nothing reached Heat
            return None
        except (heat_exc.HTTPException, ks_exc.ClientException) as exc:
            raise errors.VimError(reason=f"Heat stack list: {exc}") from exc
        return {item.stack_name: _state(item) for item in items}


def heat_lister(
    vim: dict[str, Any],
) -> tuple[dict[str, StackState] | None, int]:
    """(FAILED stacks by name or None, calls made)."""
    if _NO_HEAT.get(shard.vim_key(vim), 0.0) > time.monotonic():
        return None, 0
    lister = HeatLister(vim)
    return lister.failed(), lister.calls


def missing_stacks(
    vim: dict[str, Any], names: Iterable[str]
) -> tuple[set[str], int]:
    """(which of the stack ``names`` Heat does not have, calls made)."""
    wanted = set(names)
    if not wanted:
        return set(), 0
    lister = HeatLister(vim)
    return wanted - lister.existing(wanted), lister.calls
