"""Nova (and Placement) for the reservation service, conductor side only.

python-novaclient on a keystoneauth1 session made from
``[reservation_nova]`` (admin credentials). Every method is idempotent:
objects are found by their deterministic name or id before they are made,
and deleting what is gone is not an error, so a conductor that takes over
a half-done lease event can simply run it again. Errors become
:class:`~tacker_ng.reservation.exceptions.NovaError` (503) in our words
(:mod:`tacker_ng.outbound_errors`): which call, Nova's status and message
or how the connection failed - never the credentials, nor keystoneauth's
text with Nova's URL, which is logged.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from typing import Any

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading
from novaclient import client as nova_client
from novaclient import exceptions as nova_exc
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import exceptions as base_exceptions
from tacker_ng import outbound_errors
from tacker_ng.conf import reservation as conf_reservation
from tacker_ng.reservation import exceptions

LOG = logging.getLogger(__name__)
GROUP = conf_reservation.NOVA_GROUP
_RESOURCES = {"vcpus": "VCPU", "memory_mb": "MEMORY_MB", "local_gb": "DISK_GB"}


def _translated(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except base_exceptions.TackerNgError:
            raise
        except (nova_exc.ClientException, ks_exc.ClientException) as exc:
            what = func.__name__.replace("_", " ")
            LOG.warning("Nova: %s failed: %s", what, exc)
            if outbound_errors.http_status(exc) is None:
                how = outbound_errors.transport_failure(exc)
            else:
                how = f"Nova answered {outbound_errors.answer(exc)}"
            raise exceptions.NovaError(reason=f"{what}: {how}") from exc

    return wrapper


class NovaGateway:
    """What the reservation service does in Nova and Placement."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        self.conf = conf
        auth = ks_loading.load_auth_from_conf_options(conf, GROUP)
        if auth is None:
            raise exceptions.NovaNotConfigured()
        self.session = ks_loading.load_session_from_conf_options(
            conf, GROUP, auth=auth
        )
        self.region_name = conf[GROUP].region_name
        self.timeout = conf.reservation.nova_timeout
        self.nova = self._client(self.session)
        self._projects: dict[str, Any] = {}

    def _client(self, session):
        group = self.conf[GROUP]
        interfaces = group.valid_interfaces or ["public"]
        return nova_client.Client(
            group.api_microversion,
            session=session,
            region_name=group.region_name,
            endpoint_type=interfaces[0],
            endpoint_override=group.endpoint_override,
        )

    def in_project(self, project_id: str):
        """A Nova client of the service user scoped to ``project_id``.

        Nova lets only a server group's own project use it as a
        scheduling hint, so groups are made in the lease's project; the
        service user needs a role there (Blazar uses a trust instead).
        """
        if project_id not in self._projects:
            auth = ks_loading.load_auth_from_conf_options(
                self.conf,
                GROUP,
                project_id=project_id,
                project_name=None,
                project_domain_id=None,
                project_domain_name=None,
            )
            session = ks_loading.load_session_from_conf_options(
                self.conf, GROUP, auth=auth
            )
            self._projects[project_id] = self._client(session)
        return self._projects[project_id]

    # -- hosts -----------------------------------------------------------
    @_translated
    def service_project_id(self) -> str:
        """Project of the service credentials (the freepool's tenant)."""
        return self.session.get_project_id()

    @_translated
    def hypervisor(self, name: str) -> dict[str, Any]:
        """Details of the hypervisor named exactly ``name``."""
        try:
            found = self.nova.hypervisors.search(name)
        except nova_exc.NotFound:
            found = []
        match = [h for h in found if h.hypervisor_hostname == name]
        if not match:
            raise exceptions.HypervisorNotFound(name=name)
        details = self.nova.hypervisors.get(match[0].id).to_dict()
        service = details.get("service") or {}
        cpu_info = details.get("cpu_info")
        return {
            "hypervisor_hostname": name,
            "service_name": service.get("host", name),
            "hypervisor_type": details.get("hypervisor_type"),
            "hypervisor_version": details.get("hypervisor_version"),
            "cpu_info": cpu_info
            if isinstance(cpu_info, str)
            else str(cpu_info),
            "vcpus": details.get("vcpus", 0),
            "memory_mb": details.get("memory_mb", 0),
            "local_gb": details.get("local_gb", 0),
        }

    @_translated
    def capacity(self, name: str) -> dict[str, int] | None:
        """Schedulable vcpus/memory_mb/local_gb from Placement:
        (total - reserved) x allocation_ratio; None when unknown."""
        filt = {"service_type": "placement", "region_name": self.region_name}
        rps = self.session.get(
            f"/resource_providers?name={name}", endpoint_filter=filt
        ).json()["resource_providers"]
        if not rps:
            return None
        inv = self.session.get(
            f"/resource_providers/{rps[0]['uuid']}/inventories",
            endpoint_filter=filt,
        ).json()["inventories"]
        out = {}
        for key, rc in _RESOURCES.items():
            if rc not in inv:
                return None
            i = inv[rc]
            out[key] = int(
                (i["total"] - i["reserved"]) * i["allocation_ratio"]
            )
        return out

    @_translated
    def compute_services(self) -> dict[str, Any]:
        """nova-compute services by host name."""
        return {
            s.host: s for s in self.nova.services.list(binary="nova-compute")
        }

    # -- aggregates --------------------------------------------------------
    def _aggregate(self, agg_id: int | None, name: str | None):
        for agg in self.nova.aggregates.list():
            if (agg_id is not None and agg.id == agg_id) or (
                name is not None and agg.name == name
            ):
                return agg
        return None

    @_translated
    def ensure_aggregate(self, name: str, metadata: dict[str, str]) -> int:
        """The aggregate named ``name`` with (at least) ``metadata``."""
        agg = self._aggregate(None, name)
        if agg is None:
            try:
                agg = self.nova.aggregates.create(name, None)
            except nova_exc.Conflict:
                agg = self._aggregate(None, name)
        current = agg.metadata or {}
        missing = {k: v for k, v in metadata.items() if current.get(k) != v}
        if missing:
            self.nova.aggregates.set_metadata(agg.id, missing)
        return agg.id

    @_translated
    def set_aggregate_hosts(self, agg_id: int, hosts: list[str]) -> None:
        """Make the aggregate hold exactly ``hosts``."""
        agg = self._aggregate(agg_id, None)
        if agg is None:
            raise exceptions.NovaError(reason=f"aggregate {agg_id} vanished")
        current = set(agg.hosts or [])
        for host in sorted(set(hosts) - current):
            self.add_host(agg_id, host)
        for host in sorted(current - set(hosts)):
            self.remove_host(agg_id, host)

    @_translated
    def add_host(self, agg_id: int, host: str) -> None:
        try:
            self.nova.aggregates.add_host(agg_id, host)
        except nova_exc.Conflict:
            LOG.debug("Host %s already in aggregate %s", host, agg_id)

    @_translated
    def remove_host(self, agg_id: int, host: str) -> None:
        try:
            self.nova.aggregates.remove_host(agg_id, host)
        except (nova_exc.NotFound, nova_exc.Conflict):
            LOG.debug("Host %s not in aggregate %s", host, agg_id)

    @_translated
    def delete_aggregate(self, agg_id: int | None, name: str) -> None:
        agg = self._aggregate(agg_id, name)
        if agg is None:
            return
        for host in agg.hosts or []:
            self.remove_host(agg.id, host)
        with contextlib.suppress(nova_exc.NotFound):
            self.nova.aggregates.delete(agg.id)

    # -- server groups and flavors ----------------------------------------
    @_translated
    def ensure_server_group(
        self, name: str, policy: str, project_id: str | None = None
    ) -> str:
        """The server group ``name``, made in ``project_id`` if given."""
        for group in self.nova.server_groups.list(all_projects=True):
            if group.name == name:
                return group.id
        client = self.in_project(project_id) if project_id else self.nova
        return client.server_groups.create(name=name, policy=policy).id

    @_translated
    def delete_server_group(self, group_id: str | None, name: str) -> None:
        ids = [group_id] if group_id else []
        if not ids:
            ids = [
                g.id
                for g in self.nova.server_groups.list(all_projects=True)
                if g.name == name
            ]
        for gid in ids:
            with contextlib.suppress(nova_exc.NotFound):
                self.nova.server_groups.delete(gid)

    @_translated
    def ensure_flavor(
        self,
        *,
        flavor_id: str,
        name: str,
        vcpus: int,
        ram: int,
        disk: int,
        extra_specs: dict[str, str],
        project_id: str,
    ) -> str:
        """A private flavor with ``extra_specs``, shared with a project."""
        try:
            flavor = self.nova.flavors.get(flavor_id)
        except nova_exc.NotFound:
            flavor = self.nova.flavors.create(
                name, ram, vcpus, disk, flavorid=flavor_id, is_public=False
            )
        if flavor.get_keys() != extra_specs:
            flavor.set_keys(extra_specs)
        try:
            self.nova.flavor_access.add_tenant_access(flavor, project_id)
        except nova_exc.Conflict:
            LOG.debug("Flavor %s already shared with the project", flavor_id)
        return flavor.id

    @_translated
    def delete_flavor(self, flavor_id: str) -> None:
        with contextlib.suppress(nova_exc.NotFound):
            self.nova.flavors.delete(flavor_id)

    @_translated
    def delete_servers_with_flavor(self, flavor_id: str) -> int:
        """Delete every server booted with the flavor; wait until gone."""

        def servers():
            return self.nova.servers.list(
                search_opts={"all_tenants": True, "flavor": flavor_id}
            )

        victims = servers()
        count = len(victims)
        for server in victims:
            with contextlib.suppress(nova_exc.NotFound):
                server.delete()
        deadline = time.monotonic() + self.timeout
        interval = 0.1  # short first, half again as long each time, <= 2 s
        while victims:
            victims = servers()
            if not victims:
                break
            if time.monotonic() > deadline:
                raise exceptions.NovaError(
                    reason=f"servers of flavor {flavor_id} still exist "
                    f"after {self.timeout}s"
                )
            time.sleep(interval)
            interval = min(interval * 1.5, 2.0)
        return count


_GATEWAY: NovaGateway | None = None
_LOCK = threading.Lock()


def get_gateway() -> NovaGateway:
    """The process-wide gateway (made on first use, after config)."""
    global _GATEWAY  # noqa: PLW0603
    with _LOCK:
        if _GATEWAY is None:
            _GATEWAY = NovaGateway()
        return _GATEWAY


def reset() -> None:
    """Forget the gateway (tests; after config changes)."""
    global _GATEWAY  # noqa: PLW0603
    _GATEWAY = None
