"""Cinder v3 volumes and snapshots through the VIM's keystoneauth session
(the few calls a VNF snapshot of data volumes needs; no client library).

The catalog names Cinder ``block-storage`` (its official service type)
or, on older clouds, only ``volumev3``. Paths are relative to the
endpoint, which carries the project id when the catalog's does.
"""

from typing import Any

from keystoneauth1 import exceptions as ks_exc

from tacker_ng.infra.openstack import errors

SERVICE_TYPES = ("block-storage", "volumev3")
#: Revert to a snapshot needs volume API microversion 3.40.
REVERT_MICROVERSION = "volume 3.40"


class Cinder:
    """Show volumes; create, list, show, delete snapshots; revert."""

    def __init__(self, session, region: str | None, interface: str) -> None:
        self.session = session
        self.region = region
        self.interface = interface
        self._filter: dict[str, Any] | None = None

    def filter(self) -> dict[str, Any]:
        """The endpoint filter of the first service type the catalog has."""
        if self._filter is None:
            for service_type in SERVICE_TYPES:
                wanted = {
                    "service_type": service_type,
                    "region_name": self.region,
                    "interface": self.interface,
                }
                try:
                    found = self.session.get_endpoint(**wanted)
                except ks_exc.EndpointNotFound:
                    found = None
                if found:
                    self._filter = wanted
                    break
            else:
                raise errors.VimError(
                    reason="the VIM's catalog has no Cinder endpoint "
                    f"({' or '.join(SERVICE_TYPES)}); volumes cannot be "
                    "snapshotted"
                )
        return self._filter

    def _call(self, what: str, method: str, path: str, **kw: Any):
        where = self.filter()
        try:
            return getattr(self.session, method)(
                path, endpoint_filter=where, **kw
            )
        except ks_exc.NotFound:
            return None
        except ks_exc.ClientException as exc:
            raise errors.refused(
                errors.vim_name(self.session), f"Cinder {what}", exc
            ) from exc

    def volume(self, volume_id: str) -> dict[str, Any] | None:
        """The volume (status, attachments, ...); None if it is gone."""
        resp = self._call(
            f"volume show {volume_id}", "get", f"/volumes/{volume_id}"
        )
        return resp.json()["volume"] if resp is not None else None

    def create_snapshot(
        self, volume_id: str, name: str, metadata: dict[str, str]
    ) -> str:
        """Snapshot a volume (``force``: it is in use); the snapshot id."""
        body = {
            "snapshot": {
                "volume_id": volume_id,
                "name": name,
                "force": True,
                "metadata": metadata,
            }
        }
        resp = self._call(
            f"snapshot create of volume {volume_id}",
            "post",
            "/snapshots",
            json=body,
        )
        if resp is None:
            raise errors.VimError(
                reason=f"Cinder snapshot create: volume {volume_id} not found"
            )
        return str(resp.json()["snapshot"]["id"])

    def snapshot(self, snapshot_id: str) -> dict[str, Any] | None:
        """The snapshot (status, volume_id, created_at); None if gone."""
        resp = self._call(
            f"snapshot show {snapshot_id}", "get", f"/snapshots/{snapshot_id}"
        )
        return resp.json()["snapshot"] if resp is not None else None

    def snapshots_of(self, volume_id: str) -> list[dict[str, Any]]:
        """Every snapshot of a volume (id, status, created_at)."""
        resp = self._call(
            f"snapshot list of volume {volume_id}",
            "get",
            f"/snapshots/detail?volume_id={volume_id}",
        )
        found = resp.json()["snapshots"] if resp is not None else []
        # A Cinder ignoring the filter answers every snapshot.
        return [s for s in found if s.get("volume_id") == volume_id]

    def delete_snapshot(self, snapshot_id: str) -> bool:
        """Delete a snapshot; False if it was already gone."""
        resp = self._call(
            f"snapshot delete {snapshot_id}",
            "delete",
            f"/snapshots/{snapshot_id}",
        )
        return resp is not None

    def revert(self, volume_id: str, snapshot_id: str) -> None:
        """Revert an available volume to its latest snapshot (3.40)."""
        resp = self._call(
            f"revert of volume {volume_id} to snapshot {snapshot_id}",
            "post",
            f"/volumes/{volume_id}/action",
            json={"revert": {"snapshot_id": snapshot_id}},
            headers={"OpenStack-API-Version": REVERT_MICROVERSION},
        )
        if resp is None:
            raise errors.VimError(
                reason=f"Cinder revert: volume {volume_id} not found"
            )
