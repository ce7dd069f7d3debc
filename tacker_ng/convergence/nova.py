"""Batched observation of one OpenStack VIM through python-novaclient.

One cycle costs ``ceil(servers / page_size)`` paged ``servers/detail``
calls (``all_tenants`` when the VIM user may, its own project otherwise)
plus one ``os-services`` call for the compute hosts' state, whatever the
number of VNFs on the VIM: never one call per server.
"""

import dataclasses
from typing import Any

from novaclient import client as nova_client
from novaclient import exceptions as nova_exc
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence.drift import ObservedServer
from tacker_ng.infra.openstack import errors, session

LOG = logging.getLogger(__name__)
MICROVERSION = "2.79"


@dataclasses.dataclass
class VimListing:
    """Every server of a VIM (by id) and whether each compute host is up."""

    servers: dict[str, ObservedServer]
    hosts_up: dict[str, bool]
    calls: int


def _addresses(item: Any) -> tuple[tuple[str, str, int, str], ...]:
    out = []
    for network, entries in (getattr(item, "addresses", None) or {}).items():
        for entry in entries or ():
            out.append(
                (
                    network,
                    str(entry.get("addr") or ""),
                    int(entry.get("version") or 4),
                    str(entry.get("OS-EXT-IPS:type") or "fixed"),
                )
            )
    return tuple(out)


def _server(item: Any) -> ObservedServer:
    return ObservedServer(
        id=item.id,
        status=item.status,
        host=getattr(item, "OS-EXT-SRV-ATTR:host", None),
        zone=getattr(item, "OS-EXT-AZ:availability_zone", None),
        addresses=_addresses(item),
    )


class NovaLister:
    """Lists a VIM's servers in pages (``[convergence] page_size``)."""

    def __init__(
        self, vim: dict[str, Any], conf: cfg.ConfigOpts = cfg.CONF
    ) -> None:
        sess, region = session.make_session(vim)
        self.client = nova_client.Client(
            MICROVERSION,
            session=sess,
            region_name=region,
            endpoint_type=conf.openstack.endpoint_interface,
        )
        self.page_size = conf.convergence.page_size
        self.calls = 0

    def _pages(self, search_opts: dict[str, Any]) -> list[Any]:
        out: list[Any] = []
        marker = None
        while True:
            self.calls += 1
            page = self.client.servers.list(
                detailed=True,
                search_opts=search_opts,
                marker=marker,
                limit=self.page_size,
            )
            out.extend(page)
            if len(page) < self.page_size:
                return out
            marker = page[-1].id

    def servers(self) -> dict[str, ObservedServer]:
        """Every server the VIM user can see, all projects if allowed."""
        try:
            try:
                items = self._pages({"all_tenants": True})
            except nova_exc.Forbidden:
                LOG.debug("all_tenants listing forbidden; own project only")
                items = self._pages({})
        except nova_exc.ClientException as exc:
            raise errors.VimError(reason=f"Nova server list: {exc}") from exc
        return {item.id: _server(item) for item in items}

    def hosts_up(self) -> dict[str, bool]:
        """nova-compute host -> up; empty when the user may not ask."""
        self.calls += 1
        try:
            services = self.client.services.list(binary="nova-compute")
        except nova_exc.Forbidden:
            return {}
        except nova_exc.ClientException as exc:
            raise errors.VimError(reason=f"Nova service list: {exc}") from exc
        return {s.host: s.state == "up" for s in services}

    def listing(self) -> VimListing:
        """One observation of the VIM."""
        servers = self.servers()
        hosts = self.hosts_up()
        return VimListing(servers, hosts, self.calls)
