"""VNF snapshots on OpenStack: a Nova image of each VNFC's server and a
Cinder snapshot of each of its data volumes (:mod:`.volume_snapshots`);
revert rebuilds each server from its image and reverts its volumes
(after the driver brought the snapshot's VNFC set back with a stack
update when the VNF was scaled).

createImage of a volume-backed server also makes Cinder snapshots, which
Nova lists in the image's ``block_device_mapping`` and a rebuild uses.
Image ids are persisted as they are requested, so a retry does not take
a second image and a rollback deletes exactly the images taken. A revert
cannot be undone (the disks are replaced); its rollback leaves the
servers as they are.
"""

from typing import Any

from oslo_config import cfg

from tacker_ng.infra import base
from tacker_ng.infra.openstack import (
    cinder,
    errors,
    glance,
    nova,
    polling,
    volume_snapshots,
)
from tacker_ng.objects import vnf_snapshots as rules
from tacker_ng.objects import vnfc_info

IMAGE_TYPE = "OS::Glance::Image"
#: Glance statuses an image never leaves for ``active``.
_DEAD = ("killed", "deleted", "pending_delete")


class SnapshotFailed(errors.VimError):
    message = "Snapshot image {image} of VNFC {vnfc}: {reason}"


def _wait_idle(
    client: nova.Nova,
    server_id: str,
    timeout: float,
    interval: float,
    task: base.LcmTask,
) -> None:
    """Wait until Nova has no task running on the server: it refuses
    createImage (409) while an earlier image of it is still uploading,
    e.g. one whose snapshot was cancelled and rolled back."""

    def busy() -> str | None:
        seen = client.server(server_id)
        return (seen or {}).get("task_state")

    polling.poll(
        busy,
        timeout,
        interval,
        task,
        lambda state: errors.VimError(
            reason=f"server {server_id} is still busy ({state}) after "
            f"{timeout:.0f} s; no image taken"
        ),
    )


def create(
    client: nova.Nova,
    images: glance.Glance,
    task: base.LcmTask,
    vim_id: str,
    conf: cfg.ConfigOpts,
    volumes: cinder.Cinder | None = None,
) -> base.LcmResult:
    """Image every VNFC's server and snapshot its volumes; wait until
    each image is active and each volume snapshot available."""
    info = task.instance.get("instantiatedVnfInfo") or {}
    vnfcs = info.get("vnfcResourceInfo") or []
    taken: dict[str, dict[str, Any]] = task.progress.setdefault(
        "snapshot_images", {}
    )
    started = task.progress.setdefault("snapshot_started", polling.now())
    info_id = task.request["vnfSnapshotInfoId"]
    timeout = float(conf.openstack.snapshot_timeout)
    interval = conf.openstack.stack_poll_interval
    metadata = {volume_snapshots.VNF_SNAPSHOT_KEY: info_id}
    for vnfc in vnfcs:
        name = f"vnf-{task.instance['id']}-{vnfc['id']}-{info_id[:8]}"
        if vnfc["id"] not in taken:
            task.check_cancel()
            server_id = vnfc["computeResource"]["resourceId"]
            _wait_idle(client, server_id, timeout, interval, task)
            at = polling.now()
            image_id = client.create_image(server_id, name, metadata)
            taken[vnfc["id"]] = {"imageId": image_id, "startedAt": at}
            task.save_progress()
        if volume_snapshots.volumes_of(info, vnfc):
            volume_snapshots.request(
                _need(volumes), task, vnfc, name, metadata
            )
    for vnfc in vnfcs:
        item = taken[vnfc["id"]]
        if item.get("finishedAt"):
            continue
        _wait_active(
            images, vnfc["id"], item["imageId"], timeout, interval, task
        )
        if volume_snapshots.volumes_of(info, vnfc):
            volume_snapshots.wait(
                _need(volumes), task, vnfc["id"], (timeout, interval)
            )
        item["finishedAt"] = polling.now()
        task.save_progress()
    snapshots: list[dict[str, Any]] = [
        {
            "id": vnfc["id"],
            "vnfcInstanceId": vnfc["id"],
            "vnfcResourceInfoId": vnfc["id"],
            "creationStartedAt": taken[vnfc["id"]]["startedAt"],
            "creationFinishedAt": taken[vnfc["id"]]["finishedAt"],
            "computeSnapshotResource": {
                "vimConnectionId": vim_id,
                "resourceId": taken[vnfc["id"]]["imageId"],
                "vimLevelResourceType": IMAGE_TYPE,
            },
        }
        for vnfc in vnfcs
    ]
    for item in snapshots:
        storage = volume_snapshots.resources(task, item["id"], vim_id)
        if storage:
            item["storageSnapshotResources"] = storage
    return base.LcmResult(
        vnf_snapshot={
            "vnfcSnapshots": snapshots,
            "creationStartedAt": started,
            "creationFinishedAt": polling.now(),
        }
    )


def _wait_active(
    images: glance.Glance,
    vnfc_id: str,
    image_id: str,
    timeout: float,
    interval: float,
    task: base.LcmTask,
) -> None:
    def check() -> str | None:
        image = images.image(image_id)
        status = image["status"] if image else "gone"
        if status == "active":
            return None
        if status in _DEAD or status == "gone":
            raise SnapshotFailed(
                image=image_id, vnfc=vnfc_id, reason=f"Glance says {status}"
            )
        return status

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: SnapshotFailed(
            image=image_id,
            vnfc=vnfc_id,
            reason=f"still {seen} after {int(timeout)} s",
        ),
    )


def stores(
    sess, region: str | None, conf: cfg.ConfigOpts
) -> tuple[glance.Glance, cinder.Cinder]:
    """The clients of a snapshot's images and volume snapshots."""
    interface = conf.openstack.endpoint_interface
    return (
        glance.Glance(sess, region, interface),
        cinder.Cinder(sess, region, interface),
    )


def _need(volumes: cinder.Cinder | None) -> cinder.Cinder:
    if volumes is None:
        raise errors.VimError(reason="the VNF has volumes but no Cinder")
    return volumes


def undo_create(
    images: glance.Glance,
    task: base.LcmTask,
    volumes: cinder.Cinder | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> base.LcmResult:
    """Rollback of a failed snapshot: delete the images and the volume
    snapshots it took."""
    if task.progress.get(volume_snapshots.TAKEN):
        timing = (
            float(conf.openstack.snapshot_timeout),
            conf.openstack.stack_poll_interval,
        )
        volume_snapshots.undo(_need(volumes), task, timing)
    for item in (task.progress.get("snapshot_images") or {}).values():
        images.delete(item["imageId"])
    return base.LcmResult()


def delete(
    images: glance.Glance,
    volumes: cinder.Cinder | None,
    vnf_snapshot: dict[str, Any],
) -> None:
    """Delete the volume snapshots and images a VnfSnapshot holds (gone
    ones are skipped)."""
    if volume_snapshots.taken_of(vnf_snapshot):
        volume_snapshots.delete(_need(volumes), vnf_snapshot)
    for item in vnf_snapshot.get("vnfcSnapshots") or []:
        resource = item.get("computeSnapshotResource") or {}
        if resource.get("vimLevelResourceType") == IMAGE_TYPE:
            images.delete(resource["resourceId"])


def _wanted_states(snapshot: dict[str, Any]) -> dict[str, str]:
    info = snapshot["vnfInstance"].get("instantiatedVnfInfo") or {}
    return {
        v["id"]: v.get("vnfcState", vnfc_info.STARTED)
        for v in info.get("vnfcInfo") or []
    }


def check_images(
    snapshot: dict[str, Any], volumes: cinder.Cinder | None = None
) -> None:
    """Refuse, before anything changes, a snapshot lacking the image of
    one of its VNFCs, or whose volumes Cinder would not revert."""
    info = snapshot["vnfInstance"].get("instantiatedVnfInfo") or {}
    for vnfc in info.get("vnfcResourceInfo") or []:
        if rules.image_of(snapshot, vnfc["id"]) is None:
            raise errors.InvalidRequest(
                reason=f"the snapshot has no image of VNFC {vnfc['id']}"
            )
    if volume_snapshots.taken_of(snapshot):
        volume_snapshots.check(_need(volumes), snapshot)


def revert(
    client: nova.Nova,
    task: base.LcmTask,
    conf: cfg.ConfigOpts,
    vnfcs: list[dict[str, Any]] | None = None,
    volumes: cinder.Cinder | None = None,
) -> base.LcmResult:
    """Rebuild every VNFC's server from its snapshot image, revert its
    volumes, power it as it was then, and answer instantiatedVnfInfo as
    of the snapshot. ``vnfcs``: the vnfcResourceInfo to rebuild (the
    snapshot's VNFCs on the servers a re-scale left); default the
    instance's."""
    snapshot = task.vnf_snapshot or {}
    info = task.instance.get("instantiatedVnfInfo") or {}
    if vnfcs is None:
        vnfcs = info.get("vnfcResourceInfo") or []
    rebuilt: dict[str, str] = task.progress.setdefault("rebuilt", {})
    # The status each server is to come back to from its rebuild.
    settles: dict[str, str] = task.progress.setdefault("rebuild_settles", {})
    for vnfc in vnfcs:
        if vnfc["id"] in rebuilt:
            continue
        image_id = rules.image_of(snapshot, vnfc["id"])
        if image_id is None:
            raise errors.InvalidRequest(
                reason=f"the snapshot has no image of VNFC {vnfc['id']}"
            )
        task.check_cancel()
        server_id = vnfc["computeResource"]["resourceId"]
        before = client.server(server_id)
        client.rebuild(server_id, image_id)
        rebuilt[vnfc["id"]] = image_id
        settles[vnfc["id"]] = rebuild_settles_at(before)
        task.save_progress()
    timeout = float(conf.openstack.snapshot_timeout)
    interval = conf.openstack.stack_poll_interval
    states = _wanted_states(snapshot)
    for vnfc in vnfcs:
        server_id = vnfc["computeResource"]["resourceId"]
        _wait_rebuilt(
            client,
            server_id,
            rebuilt[vnfc["id"]],
            settles.get(vnfc["id"]),
            (timeout, interval),
            task,
        )
        if volume_snapshots.taken_of(snapshot, vnfc["id"]):
            volume_snapshots.restore(
                _need(volumes),
                client,
                task,
                vnfc["id"],
                server_id,
                (timeout, interval),
            )
        started = (
            states.get(vnfc["id"], vnfc_info.STARTED) == vnfc_info.STARTED
        )
        client.set_power(server_id, started)
        wanted = "ACTIVE" if started else "SHUTOFF"
        _wait_status(client, server_id, wanted, timeout, interval, task)
    return base.LcmResult(
        instantiated_vnf_info=rules.restored_info(
            snapshot, {**info, "vnfcResourceInfo": vnfcs}
        ),
        resource_changes={"affectedVnfcs": rules.revert_changes(info, vnfcs)},
    )


def rebuild_settles_at(server: dict[str, Any] | None) -> str:
    """The status Nova leaves a server in after a rebuild: a stopped
    server is stopped again, any other (ACTIVE, ERROR) ends ACTIVE."""
    if server is not None and server["status"] == "SHUTOFF":
        return "SHUTOFF"
    return "ACTIVE"


def _wait_rebuilt(client, server_id, image_id, settles, timing, task):
    """Wait for the end of a rebuild: the new image, no task, and the
    status it settles at. Nova shows a stopped server ACTIVE with no task
    for a moment after the spawn, then stops it again; only the status it
    had before tells that moment from the end (``settles`` None: a
    rebuild recorded before that status was, either status will do)."""
    timeout, interval = timing
    done = (settles,) if settles else ("ACTIVE", "SHUTOFF")

    def check() -> str | None:
        server = client.server(server_id)
        if server is None or server["status"] == "ERROR":
            raise errors.VimError(
                reason=f"Nova rebuild of {server_id}: the server is "
                f"{server['status'] if server else 'gone'}"
            )
        if (
            server["status"] in done
            and server["image"] == image_id
            and server["task_state"] is None
        ):
            return None
        return (
            f"{server['status']} ({server['task_state']}) on image "
            f"{server['image']}"
        )

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: errors.VimError(
            reason=f"Nova rebuild of {server_id} from {image_id}: still "
            f"{seen} after {int(timeout)} s"
        ),
    )


def _wait_status(client, server_id, status, timeout, interval, task):
    def check() -> str | None:
        server = client.server(server_id)
        if server is None:
            return "gone"
        if server["status"] == status and server["task_state"] is None:
            return None
        return f"{server['status']} ({server['task_state']})"

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: errors.VimError(
            reason=f"Server {server_id} did not become {status} within "
            f"{int(timeout)} s (it is {seen})"
        ),
    )
