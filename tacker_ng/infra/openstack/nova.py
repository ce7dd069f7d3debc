"""Nova through python-novaclient: zones, servers and flavours.

Zones come from ``os-availability-zone/detail`` (the spec's
"GetDetailedAvailabilityZoneInformation"): zones that are available and
have a host running an enabled, up ``nova-compute``. That call is
admin-only by Nova's default policy; a project member gets 403, and then
the zone summary (available zones only, no hosts) is used instead. Only
the zones of ``[openstack] availability_zones`` are kept when it is set.
"""

import time
from typing import Any

from novaclient import client as nova_client
from novaclient import exceptions as nova_exc
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra.openstack import errors, polling

LOG = logging.getLogger(__name__)
MICROVERSION = "2.79"
INTERNAL_ZONE = "internal"


def _compute_up(hosts: dict[str, Any] | None) -> bool:
    for services in (hosts or {}).values():
        state = (services or {}).get("nova-compute")
        if state and state.get("available") and state.get("active"):
            return True
    return False


def usable_zones(detail: list[dict[str, Any]]) -> list[str]:
    """Zone names (sorted) with a working nova-compute, from the detail."""
    return sorted(
        z["zoneName"]
        for z in detail
        if z["zoneName"] != INTERNAL_ZONE
        and (z.get("zoneState") or {}).get("available")
        and _compute_up(z.get("hosts"))
    )


class Nova:
    """The Nova calls of the driver."""

    def __init__(
        self, session, region: str | None, conf: cfg.ConfigOpts = cfg.CONF
    ) -> None:
        self.client = nova_client.Client(
            MICROVERSION,
            session=session,
            region_name=region,
            endpoint_type=conf.openstack.endpoint_interface,
        )
        self.allowed = frozenset(conf.openstack.availability_zones)
        #: How errors name the VIM ("VIM <vimId>").
        self.vim = errors.vim_name(session)

    def zones(self) -> list[str]:
        """Compute availability zones usable for placement (sorted), of
        ``[openstack] availability_zones`` only when that is set."""
        zones = self._usable_zones()
        if self.allowed:
            zones = [z for z in zones if z in self.allowed]
        return zones

    def _usable_zones(self) -> list[str]:
        try:
            detail = self.client.availability_zones.list(detailed=True)
            return usable_zones([z.to_dict() for z in detail])
        except nova_exc.Forbidden:
            LOG.debug(
                "os-availability-zone/detail is forbidden for this user; "
                "using the zone summary"
            )
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova zone list", exc) from exc
        try:
            summary = self.client.availability_zones.list(detailed=False)
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova zone list", exc) from exc
        return sorted(
            z.zoneName
            for z in summary
            if z.zoneName != INTERNAL_ZONE
            and (z.zoneState or {}).get("available")
        )

    def server(self, server_id: str) -> dict[str, Any] | None:
        """id, status, zone and fault of a server; None if it is gone."""
        try:
            server = self.client.servers.get(server_id)
        except nova_exc.NotFound:
            return None
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova server show", exc) from exc
        return {
            "id": server.id,
            "status": server.status,
            "zone": getattr(server, "OS-EXT-AZ:availability_zone", None),
            "fault": getattr(server, "fault", None) or {},
            "flavor": (getattr(server, "flavor", None) or {}).get(
                "original_name"
            ),
            "image": (getattr(server, "image", None) or {}).get("id"),
            "task_state": getattr(server, "OS-EXT-STS:task_state", None),
        }

    def flavor_exists(self, name_or_id: str) -> bool:
        """Whether the VIM has a flavour with this name or id."""
        try:
            self.client.flavors.get(name_or_id)
            return True
        except nova_exc.NotFound:
            pass
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova flavor show", exc) from exc
        try:
            self.client.flavors.find(name=name_or_id)
            return True
        except nova_exc.NotFound:
            return False
        except nova_exc.NoUniqueMatch:
            return True
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova flavor list", exc) from exc

    def set_power(self, server_id: str, started: bool) -> str | None:
        """Start (os-start) or stop (os-stop) a server; Nova stops it
        gracefully (the guest's ACPI shutdown, bounded by Nova's own
        ``shutdown_timeout``). Returns the status seen before, None if the
        server is gone; a server already in the state is left alone."""
        server = self.server(server_id)
        if server is None:
            return None
        wanted = "ACTIVE" if started else "SHUTOFF"
        if server["status"] == wanted:
            return server["status"]
        try:
            if started:
                self.client.servers.start(server_id)
            else:
                self.client.servers.stop(server_id)
        except nova_exc.Conflict as exc:
            # A concurrent start/stop or a task in progress: the wait
            # that follows tells whether the state is reached.
            LOG.info("Nova refused to change %s now: %s", server_id, exc)
        except nova_exc.ClientException as exc:
            action = "start" if started else "stop"
            raise errors.refused(
                self.vim, f"Nova server {action}", exc
            ) from exc
        return server["status"]

    def delete_server(self, server_id: str, timeout: float) -> None:
        """Delete a server and wait until Nova no longer has it (its ports
        are free again); a server already gone is fine."""
        try:
            self.client.servers.delete(server_id)
        except nova_exc.NotFound:
            return
        except nova_exc.ClientException as exc:
            raise errors.refused(self.vim, "Nova server delete", exc) from exc
        deadline = time.monotonic() + timeout
        interval = 0.1
        while self.server(server_id) is not None:
            if time.monotonic() >= deadline:
                raise errors.VimError(
                    reason=f"server {server_id} still exists {timeout:.0f} s "
                    "after its deletion"
                )
            time.sleep(interval)
            interval = polling.backoff(interval)

    def create_image(
        self, server_id: str, name: str, metadata: dict[str, str]
    ) -> str:
        """Nova createImage of a server (its disk to a Glance image, and
        volume snapshots for a volume-backed one); the new image's id."""
        try:
            image_id = self.client.servers.create_image(
                server_id, name, metadata
            )
        except nova_exc.ClientException as exc:
            raise errors.refused(
                self.vim, f"Nova createImage of {server_id}", exc
            ) from exc
        # novaclient's StrWithMeta (it carries the response) cannot be
        # copied or pickled; progress and results hold plain strings.
        return str(image_id)

    def rebuild(self, server_id: str, image_id: str) -> None:
        """Nova rebuild of a server from an image (same id, ports, zone)."""
        try:
            self.client.servers.rebuild(server_id, image_id)
        except nova_exc.ClientException as exc:
            raise errors.refused(
                self.vim, f"Nova rebuild of {server_id} from {image_id}", exc
            ) from exc

    def detach_volume(self, server_id: str, volume_id: str) -> bool:
        """Detach a volume from a server; False if it was not attached."""
        try:
            self.client.volumes.delete_server_volume(server_id, volume_id)
        except nova_exc.NotFound:
            return False
        except nova_exc.ClientException as exc:
            raise errors.refused(
                self.vim,
                f"Nova detach of volume {volume_id} from {server_id}",
                exc,
            ) from exc
        return True

    def attach_volume(self, server_id: str, volume_id: str) -> None:
        """Attach a volume to a server (Nova names the attachment by the
        volume id, which Heat's VolumeAttachment keeps)."""
        try:
            self.client.volumes.create_server_volume(server_id, volume_id)
        except nova_exc.ClientException as exc:
            raise errors.refused(
                self.vim,
                f"Nova attach of volume {volume_id} to {server_id}",
                exc,
            ) from exc
