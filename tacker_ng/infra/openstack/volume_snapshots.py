"""Cinder snapshots of the VNFCs' volumes, the storage half of a VNF
snapshot (SOL003 VnfcSnapshotInfo.storageSnapshotResources).

A VNFC's volumes are the ``storageResourceIds`` of its vnfcResourceInfo
(the driver reads them from the VNFC's nested stack). Snapshot ids are
persisted as they are requested, so a retry takes no second snapshot and
a rollback deletes exactly those taken. A revert puts each volume back
the only way Cinder allows (detach, revert to its latest snapshot,
re-attach), one persisted step at a time.
"""

from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng.infra import base
from tacker_ng.infra.openstack import (
    cinder,
    errors,
    nova,
    polling,
    volume_attach,
)

LOG = logging.getLogger(__name__)
SNAPSHOT_TYPE = "OS::Cinder::Snapshot"
#: Metadata key naming the VnfSnapshotInfo on its images and snapshots.
VNF_SNAPSHOT_KEY = "tacker_ng_vnf_snapshot_info_id"
#: Progress keys: VNFC id -> storage id -> requested snapshot; volume id
#: -> last revert step done (detached, reverted, attached).
TAKEN = "snapshot_volumes"
REVERTED = "volume_reverts"
#: Cinder snapshot statuses it never leaves for ``available``.
_DEAD = ("error", "deleting", "error_deleting", "gone")

Timing = tuple[float, float]


class VolumeSnapshotFailed(errors.VimError):
    message = "Snapshot {snapshot} of volume {volume}: {reason}"


def volumes_of(
    info: Mapping[str, Any], vnfc: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """(storage resource id, Cinder volume id) of a VNFC's volumes."""
    storage = {
        s["id"]: s for s in info.get("virtualStorageResourceInfo") or []
    }
    out = []
    for storage_id in vnfc.get("storageResourceIds") or []:
        item = storage.get(storage_id)
        if item is not None:
            out.append((storage_id, item["storageResource"]["resourceId"]))
    return out


def request(
    client: cinder.Cinder,
    task: base.LcmTask,
    vnfc: Mapping[str, Any],
    name: str,
    metadata: dict[str, str],
) -> None:
    """Request a snapshot of each volume of the VNFC not yet requested."""
    info = task.instance.get("instantiatedVnfInfo") or {}
    taken = task.progress.setdefault(TAKEN, {}).setdefault(vnfc["id"], {})
    for storage_id, volume_id in volumes_of(info, vnfc):
        if storage_id in taken:
            continue
        task.check_cancel()
        at = polling.now()
        snapshot_id = client.create_snapshot(
            volume_id, f"{name}-{storage_id[:8]}", metadata
        )
        taken[storage_id] = {
            "snapshotId": snapshot_id,
            "volumeId": volume_id,
            "startedAt": at,
        }
        task.save_progress()


def wait(
    client: cinder.Cinder, task: base.LcmTask, vnfc_id: str, timing: Timing
) -> None:
    """Wait until every snapshot requested for the VNFC is available."""
    for item in (task.progress.get(TAKEN) or {}).get(vnfc_id, {}).values():
        _wait_snapshot(client, item, timing, task)


def _wait_snapshot(client, item, timing: Timing, task) -> None:
    timeout, interval = timing

    def check() -> str | None:
        found = client.snapshot(item["snapshotId"])
        status = found["status"] if found else "gone"
        if status == "available":
            return None
        if status in _DEAD:
            raise VolumeSnapshotFailed(
                snapshot=item["snapshotId"],
                volume=item["volumeId"],
                reason=f"Cinder says {status}",
            )
        return status

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: VolumeSnapshotFailed(
            snapshot=item["snapshotId"],
            volume=item["volumeId"],
            reason=f"still {seen} after {int(timeout)} s "
            "([openstack] snapshot_timeout)",
        ),
    )


def resources(
    task: base.LcmTask, vnfc_id: str, vim_id: str
) -> list[dict[str, Any]]:
    """storageSnapshotResources of one VnfcSnapshotInfo."""
    taken = (task.progress.get(TAKEN) or {}).get(vnfc_id, {})
    return [
        {
            "storageResourceId": storage_id,
            "storageSnapshotResource": {
                "vimConnectionId": vim_id,
                "resourceId": item["snapshotId"],
                "vimLevelResourceType": SNAPSHOT_TYPE,
            },
        }
        for storage_id, item in sorted(taken.items())
    ]


def undo(client: cinder.Cinder, task: base.LcmTask, timing: Timing) -> None:
    """Rollback of a failed snapshot: delete the volume snapshots it took."""
    for per_vnfc in (task.progress.get(TAKEN) or {}).values():
        for item in per_vnfc.values():
            _delete_settled(client, item, timing, task)


def _delete_settled(client, item, timing: Timing, task) -> None:
    """Delete a snapshot once it is no longer ``creating`` (Cinder
    refuses to delete one that is)."""
    timeout, interval = timing

    def creating() -> str | None:
        found = client.snapshot(item["snapshotId"])
        busy = found is not None and found["status"] == "creating"
        return "creating" if busy else None

    polling.poll(
        creating,
        timeout,
        interval,
        task,
        lambda _: VolumeSnapshotFailed(
            snapshot=item["snapshotId"],
            volume=item["volumeId"],
            reason=f"still creating after {int(timeout)} s; not deleted",
        ),
    )
    client.delete_snapshot(item["snapshotId"])


def taken_of(
    snapshot: Mapping[str, Any], vnfc_id: str | None = None
) -> list[tuple[str, str, str]]:
    """(VNFC id, volume id, Cinder snapshot id) a VnfSnapshot holds, of
    one VNFC or all. A storageResourceId the snapshot's instance does not
    describe is taken as the volume id (the driver's ids are)."""
    info = (snapshot.get("vnfInstance") or {}).get("instantiatedVnfInfo")
    storage = {
        s["id"]: s["storageResource"]["resourceId"]
        for s in (info or {}).get("virtualStorageResourceInfo") or []
    }
    out = []
    for item in snapshot.get("vnfcSnapshots") or []:
        if vnfc_id is not None and item.get("vnfcResourceInfoId") != vnfc_id:
            continue
        for res in item.get("storageSnapshotResources") or []:
            handle = res.get("storageSnapshotResource") or {}
            if handle.get("vimLevelResourceType") != SNAPSHOT_TYPE:
                continue
            volume_id = (
                storage.get(res["storageResourceId"])
                or (res["storageResourceId"])
            )
            out.append(
                (item["vnfcResourceInfoId"], volume_id, handle["resourceId"])
            )
    return out


def refuse_deleting_held(
    client: cinder.Cinder,
    instance: Mapping[str, Any],
    vnfc_ids: set[str] | None = None,
) -> None:
    """Refuse, before the stack changes, an operation that deletes a
    volume with Cinder snapshots (a VNF snapshot's): Cinder deletes no
    such volume, so Heat would fail half-way with servers already gone.
    ``vnfc_ids``: the VNFCs it removes (None: all). VNFCs without volumes
    cost no Cinder call."""
    info = instance.get("instantiatedVnfInfo") or {}
    for vnfc in info.get("vnfcResourceInfo") or []:
        if vnfc_ids is not None and vnfc["id"] not in vnfc_ids:
            continue
        for _, volume_id in volumes_of(info, vnfc):
            held = client.snapshots_of(volume_id)
            if not held:
                continue
            owners = sorted(
                {
                    (s.get("metadata") or {}).get(VNF_SNAPSHOT_KEY)
                    or f"none (Cinder snapshot {s['id']})"
                    for s in held
                }
            )
            raise errors.VolumeHasSnapshots(
                reason=f"volume {volume_id} of VNFC {vnfc['id']} has "
                f"{len(held)} Cinder snapshot(s) and Cinder deletes no "
                "volume that has snapshots; delete the VNF snapshot(s) "
                f"holding them ({', '.join(owners)}), then retry"
            )


def delete(client: cinder.Cinder, vnf_snapshot: Mapping[str, Any]) -> None:
    """Delete the volume snapshots a VnfSnapshot holds (gone ones skipped)."""
    for _, _, snapshot_id in taken_of(vnf_snapshot):
        client.delete_snapshot(snapshot_id)


def check(client: cinder.Cinder, snapshot: Mapping[str, Any]) -> None:
    """Refuse, before anything changes, a revert Cinder would refuse: a
    volume gone, its snapshot gone, or a later snapshot of the volume
    (Cinder reverts a volume only to its latest snapshot)."""
    for vnfc_id, volume_id, snapshot_id in taken_of(snapshot):
        if client.volume(volume_id) is None:
            raise errors.InvalidRequest(
                reason=f"volume {volume_id} of VNFC {vnfc_id} no longer "
                "exists; it cannot be reverted to the snapshot"
            )
        own = client.snapshot(snapshot_id)
        if own is None or own["status"] != "available":
            raise errors.InvalidRequest(
                reason=f"Cinder snapshot {snapshot_id} of volume "
                f"{volume_id} is {own['status'] if own else 'gone'}"
            )
        later = sorted(
            s["id"]
            for s in client.snapshots_of(volume_id)
            if s["id"] != snapshot_id and s["created_at"] > own["created_at"]
        )
        if later:
            raise errors.InvalidRequest(
                reason=f"volume {volume_id} of VNFC {vnfc_id} has later "
                f"snapshot(s) {', '.join(later)}; Cinder reverts a volume "
                "only to its latest snapshot (delete the later VNF "
                "snapshots first)"
            )


def restore(
    client: cinder.Cinder,
    compute: nova.Nova,
    task: base.LcmTask,
    vnfc_id: str,
    server_id: str,
    timing: Timing,
) -> None:
    """Put each volume of the VNFC back to its snapshot: detach it from
    the server, revert it, attach it again (each step recorded). A step
    that fails re-attaches the volume first: a failed revert, and its
    rollback, leave no data volume detached."""
    done: dict[str, str] = task.progress.setdefault(REVERTED, {})
    snapshot = task.vnf_snapshot or {}
    for _, volume_id, snapshot_id in taken_of(snapshot, vnfc_id):
        if done.get(volume_id) == "attached":
            continue
        try:
            _restore_one(
                client, compute, task, (volume_id, snapshot_id, server_id),
                timing,
            )  # fmt: skip
        except Exception:
            _reattach(client, compute, task, volume_id, server_id)
            raise


def _restore_one(client, compute, task, ids, timing: Timing) -> None:
    volume_id, snapshot_id, server_id = ids
    done = task.progress[REVERTED]
    if volume_id not in done:
        task.check_cancel()
        compute.detach_volume(server_id, volume_id)
        _wait_volume(client, volume_id, None, timing, task)
        done[volume_id] = "detached"
        task.save_progress()
    if done[volume_id] == "detached":
        task.check_cancel()
        # A revert begun by an earlier attempt may still run.
        _wait_volume(client, volume_id, None, timing, task)
        client.revert(volume_id, snapshot_id)
        _wait_volume(client, volume_id, None, timing, task)
        done[volume_id] = "reverted"
        task.save_progress()
    volume_attach.attach(client, compute, (volume_id, server_id), timing, task)
    _wait_volume(client, volume_id, server_id, timing, task)
    done[volume_id] = "attached"
    task.save_progress()


def _reattach(client, compute, task, volume_id: str, server_id: str) -> None:
    """Best effort, after a failed step: attach the volume again if it is
    detached; a retry then starts that volume over (or, reverted, is done
    with it)."""
    done = task.progress[REVERTED]
    try:
        volume = client.volume(volume_id)
        if volume is None or volume["status"] != "available":
            return
        compute.attach_volume(server_id, volume_id)
    except Exception:  # noqa: BLE001 - the first failure is what counts
        LOG.warning(
            "Volume %s stays detached from %s after a failed revert step",
            volume_id,
            server_id,
            exc_info=True,
        )
        return
    if done.get(volume_id) == "detached":
        del done[volume_id]
    elif done.get(volume_id) == "reverted":
        done[volume_id] = "attached"
    task.save_progress()


def _wait_volume(
    client: cinder.Cinder,
    volume_id: str,
    server_id: str | None,
    timing: Timing,
    task: base.LcmTask,
) -> None:
    """Wait until the volume is ``available`` (``server_id`` None) or
    ``in-use`` attached to ``server_id``."""
    timeout, interval = timing
    wanted = "available" if server_id is None else "in-use"

    def check() -> str | None:
        volume = client.volume(volume_id)
        if volume is None or volume["status"].startswith("error"):
            raise errors.VimError(
                reason=f"Cinder volume {volume_id} is "
                f"{volume['status'] if volume else 'gone'}"
            )
        if volume["status"] == wanted and (
            server_id is None or volume_attach.attached(volume, server_id)
        ):
            return None
        return volume["status"]

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: errors.VimError(
            reason=f"Cinder volume {volume_id} did not become {wanted} "
            f"within {int(timeout)} s (it is {seen})"
        ),
    )
