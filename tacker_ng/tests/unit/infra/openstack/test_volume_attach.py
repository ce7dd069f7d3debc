"""Re-attaching a reverted volume while Nova still finishes its detach:
Cinder shows it available, Nova refuses the attach "already attached"
for a moment (seen on minicloud); the attach is sent again until taken,
bounded by the volume timeout; any other refusal fails at once."""

import types

import pytest

from tacker_ng.infra.openstack import errors, volume_attach

TASK = types.SimpleNamespace(check_cancel=lambda: None)
HELD = errors.VimError(
    reason="Nova attach of volume v1 to s1: Invalid volume: volume v1 is "
    "already attached to instances: s1 (HTTP 400)"
)


class Cloud:
    """Cinder's volume and Nova's attach: ``refusals`` refused first."""

    def __init__(self, refusals: list[Exception]) -> None:
        self.refusals = list(refusals)
        self.attachments: list[dict] = []
        self.calls = 0

    def volume(self, volume_id):
        return {"id": volume_id, "attachments": list(self.attachments)}

    def attach_volume(self, server_id, volume_id):
        self.calls += 1
        if self.refusals:
            raise self.refusals.pop(0)
        self.attachments.append({"server_id": server_id})


def test_attach_waits_out_a_detach_still_finishing():
    cloud = Cloud([HELD, HELD])
    volume_attach.attach(cloud, cloud, ("v1", "s1"), (5.0, 0.001), TASK)
    assert cloud.calls == 3
    assert volume_attach.attached(cloud.volume("v1"), "s1")


def test_an_attached_volume_is_left_alone():
    cloud = Cloud([])
    cloud.attachments.append({"server_id": "s1"})
    volume_attach.attach(cloud, cloud, ("v1", "s1"), (5.0, 0.001), TASK)
    assert cloud.calls == 0


def test_other_refusals_fail_at_once():
    cloud = Cloud([errors.VimError(reason="Nova attach: quota exceeded")])
    with pytest.raises(errors.VimError, match="quota"):
        volume_attach.attach(cloud, cloud, ("v1", "s1"), (5.0, 0.001), TASK)
    assert cloud.calls == 1


def test_a_volume_never_released_times_out():
    cloud = Cloud([HELD] * 10**6)
    with pytest.raises(errors.VimError, match="not released"):
        volume_attach.attach(cloud, cloud, ("v1", "s1"), (0.05, 0.001), TASK)
