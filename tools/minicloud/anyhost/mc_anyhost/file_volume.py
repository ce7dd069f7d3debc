"""A Cinder volume driver whose volumes are small files (minicloud only).

minicloud has no LVM, iSCSI or Ceph, and Nova's fake virt driver has no
guest to write to a disk. Each volume is the file ``volume-<id>`` in
``[file] volume_dir``, empty when created; a test writes into it where a
guest would write to its disk. A snapshot copies the file to
``snapshot-<id>``, a revert copies it back, a volume made from a
snapshot or a volume is a copy. Attach answers a ``local`` connection to
the file, which the fake virt driver records and never opens.
"""

from __future__ import annotations

import os
import shutil

from cinder.volume import driver
from oslo_config import cfg
from oslo_log import log as logging

LOG = logging.getLogger(__name__)

file_opts = [
    cfg.StrOpt(
        "volume_dir",
        help="Directory holding the volume and snapshot files.",
    ),
    cfg.IntOpt(
        "capacity_gb",
        default=1000,
        help="Capacity the backend reports to the scheduler.",
    ),
]


class FileVolumeDriver(driver.VolumeDriver):
    """Volumes and snapshots as files; revert copies the snapshot back."""

    VERSION = "1.0"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.configuration.append_config_values(file_opts)

    def _dir(self) -> str:
        return self.configuration.safe_get("volume_dir")

    def _volume_file(self, volume) -> str:
        return os.path.join(self._dir(), f"volume-{volume.id}")

    def _snapshot_file(self, snapshot) -> str:
        return os.path.join(self._dir(), f"snapshot-{snapshot.id}")

    def do_setup(self, context) -> None:
        os.makedirs(self._dir(), exist_ok=True)

    def check_for_setup_error(self) -> None:
        if not os.access(self._dir(), os.W_OK):
            raise RuntimeError(f"volume_dir {self._dir()} is not writable")

    def _update_volume_stats(self) -> None:
        size = self.configuration.safe_get("capacity_gb")
        name = self.configuration.safe_get("volume_backend_name")
        self._stats = {
            "volume_backend_name": name or "file",
            "vendor_name": "minicloud",
            "driver_version": self.VERSION,
            "storage_protocol": "local",
            "total_capacity_gb": size,
            "free_capacity_gb": size,
            "reserved_percentage": 0,
            "thin_provisioning_support": True,
            "max_over_subscription_ratio": 20.0,
        }

    def create_volume(self, volume) -> None:
        open(self._volume_file(volume), "wb").close()  # noqa: SIM115

    def delete_volume(self, volume) -> None:
        try:
            os.unlink(self._volume_file(volume))
        except FileNotFoundError:
            LOG.info("volume file of %s already gone", volume.id)

    def extend_volume(self, volume, new_size) -> None:
        """Sizes are bookkeeping only: the file holds what was written."""

    def create_snapshot(self, snapshot) -> None:
        shutil.copyfile(
            self._volume_file(snapshot.volume), self._snapshot_file(snapshot)
        )

    def delete_snapshot(self, snapshot) -> None:
        try:
            os.unlink(self._snapshot_file(snapshot))
        except FileNotFoundError:
            LOG.info("snapshot file of %s already gone", snapshot.id)

    def revert_to_snapshot(self, context, volume, snapshot) -> None:
        shutil.copyfile(
            self._snapshot_file(snapshot), self._volume_file(volume)
        )

    def create_volume_from_snapshot(self, volume, snapshot) -> None:
        shutil.copyfile(
            self._snapshot_file(snapshot), self._volume_file(volume)
        )

    def create_cloned_volume(self, volume, src_vref) -> None:
        shutil.copyfile(self._volume_file(src_vref), self._volume_file(volume))

    def copy_image_to_volume(
        self, context, volume, image_service, image_id, disk_format=None
    ) -> None:
        """A volume made from an image holds the image's bytes."""
        with open(self._volume_file(volume), "wb") as disk:
            image_service.download(context, image_id, disk)

    def create_export(self, context, volume, connector) -> None:
        return None

    def ensure_export(self, context, volume) -> None:
        return None

    def remove_export(self, context, volume) -> None:
        return None

    def initialize_connection(self, volume, connector) -> dict:
        return {
            "driver_volume_type": "local",
            "data": {"device_path": self._volume_file(volume)},
        }

    def terminate_connection(self, volume, connector, **kwargs) -> None:
        return None
