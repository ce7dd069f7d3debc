"""nova-compute with minicloud's fake virt driver, whose snapshots reach
Glance.

Nova's ``fake`` driver answers createImage without uploading anything, so
the snapshot image stays ``queued`` in Glance for ever and Nova refuses
to rebuild a server from it ("Image ... is not active"). A real driver
(libvirt) uploads the guest's disk with ``disk_format`` and
``container_format`` set, and Glance makes the image ``active``.
:class:`FakeDriverWithSnapshots` does the same with a small stand-in disk
(the fake guests have none); everything else is
``FakeDriverWithoutFakeNodes``. Nova loads drivers from ``nova.virt``
only, so this script registers itself there as ``nova.virt.minicloud_fake``
(``compute_driver = minicloud_fake.FakeDriverWithSnapshots``) and then
runs nova-compute's own ``main``, exactly as the ``nova-compute`` script.
"""

import io
import sys

from nova.cmd import compute  # first, as the console script: it patches
from nova.image import glance
from nova.virt import fake


class FakeDriverWithSnapshots(fake.FakeDriverWithoutFakeNodes):
    """FakeDriverWithoutFakeNodes + a snapshot upload like libvirt's."""

    def snapshot(self, context, instance, image_id, update_task_state):
        super().snapshot(context, instance, image_id, update_task_state)
        disk = f"minicloud fake disk of server {instance.uuid}\n".encode()
        metadata = {
            "disk_format": "raw",
            "container_format": "bare",
            "properties": {"image_location": "snapshot"},
        }
        glance.API().update(
            context, image_id, metadata, io.BytesIO(disk), purge_props=False
        )


sys.modules["nova.virt.minicloud_fake"] = sys.modules[__name__]

if __name__ == "__main__":
    sys.exit(compute.main())
