"""Revert to snapshot against Nova's rebuild state sequence (a scripted
Nova: what a real one showed for a stopped server's rebuild)."""

import types
from typing import Any

import pytest

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors, snapshot
from tacker_ng.objects import lcm

OLD, NEW = "image-old", "image-new"


class ScriptedNova:
    """The ``nova.Nova`` calls revert makes. After the rebuild, each
    ``server()`` call shows the next state of ``after_rebuild`` (the last
    one stays); ``set_power`` behaves as the real wrapper: a server already
    in the wanted status is left alone."""

    def __init__(self, status: str, after_rebuild: list[tuple[str, Any]]):
        self.state = (status, None, OLD)
        self.after_rebuild = after_rebuild
        self.rebuilt = False
        self.starts = 0

    def server(self, server_id):
        if self.rebuilt and self.after_rebuild:
            status, task_state = self.after_rebuild.pop(0)
            self.state = (status, task_state, NEW)
        status, task_state, image = self.state
        return {
            "id": server_id,
            "status": status,
            "task_state": task_state,
            "image": image,
        }

    def rebuild(self, server_id, image_id):
        assert image_id == NEW
        self.rebuilt = True

    def set_power(self, server_id, started):
        wanted = "ACTIVE" if started else "SHUTOFF"
        if self.state[0] == wanted:
            return wanted
        if started:
            self.starts += 1
        self.after_rebuild = [(wanted, None)]
        return self.state[0]


CONF = types.SimpleNamespace(
    openstack=types.SimpleNamespace(
        snapshot_timeout=0.5, stack_poll_interval=0
    )
)


def _task(progress):
    vnfc = {
        "id": "vnfc-1",
        "vduId": "VDU1",
        "computeResource": {"resourceId": "s1"},
    }
    info = {"flavourId": "simple", "vnfcResourceInfo": [vnfc]}
    taken = {
        "vnfInstance": {
            "instantiatedVnfInfo": {
                **info,
                "vnfcInfo": [{"id": "vnfc-1", "vnfcState": "STARTED"}],
            }
        },
        "vnfcSnapshots": [
            {
                "vnfcResourceInfoId": "vnfc-1",
                "computeSnapshotResource": {"resourceId": NEW},
            }
        ],
    }
    return base.LcmTask(
        None,
        lcm.Operation.REVERT_TO_SNAPSHOT,
        "occ-1",
        {"id": "inst-1", "instantiatedVnfInfo": info},
        {},
        None,
        None,
        {},
        {},
        progress,
        lambda: None,
        lambda: None,
        vnf_snapshot=taken,
    )


#: A stopped server's rebuild as Nova shows it: rebuilding, a moment
#: ACTIVE with no task after the spawn, powering off, stopped.
STOPPED_REBUILD = [
    ("SHUTOFF", "rebuilding"),
    ("SHUTOFF", "rebuild_spawning"),
    ("ACTIVE", None),
    ("ACTIVE", "powering-off"),
    ("SHUTOFF", None),
]


def test_stopped_server_is_started_after_its_rebuild_ends():
    """The ACTIVE moment in a stopped server's rebuild is not its end: the
    server, STARTED in the snapshot, is started once Nova stopped it."""
    nova = ScriptedNova("SHUTOFF", list(STOPPED_REBUILD))
    progress: dict = {}
    result = snapshot.revert(nova, _task(progress), CONF)
    assert nova.starts == 1
    assert nova.state == ("ACTIVE", None, NEW)
    assert progress["rebuild_settles"] == {"vnfc-1": "SHUTOFF"}
    (change,) = result.resource_changes["affectedVnfcs"]
    assert change["changeType"] == "MODIFIED"


def test_running_server_is_not_started_again():
    nova = ScriptedNova("ACTIVE", [("ACTIVE", "rebuilding"), ("ACTIVE", None)])
    progress: dict = {}
    snapshot.revert(nova, _task(progress), CONF)
    assert nova.starts == 0
    assert progress["rebuild_settles"] == {"vnfc-1": "ACTIVE"}


@pytest.mark.parametrize(
    ("before", "settles"),
    [("SHUTOFF", "SHUTOFF"), ("ACTIVE", "ACTIVE"), ("ERROR", "ACTIVE")],
)
def test_rebuild_settles_at(before, settles):
    assert snapshot.rebuild_settles_at({"status": before}) == settles


def test_rebuild_that_never_ends_fails_with_what_it_saw():
    nova = ScriptedNova("SHUTOFF", [("SHUTOFF", "rebuild_spawning")])
    with pytest.raises(errors.VimError, match="rebuild_spawning"):
        snapshot.revert(nova, _task({}), CONF)


class BusyNova:
    """A server whose earlier image is still uploading for ``busy`` polls."""

    def __init__(self, busy: int):
        self.busy = busy

    def server(self, server_id):
        state = "image_uploading" if self.busy > 0 else None
        self.busy -= 1
        return {"id": server_id, "status": "ACTIVE", "task_state": state}


def test_image_waits_until_the_server_has_no_task():
    """Nova refuses createImage (409) while an earlier image of the server
    uploads: the snapshot waits for the server to be idle first."""
    nova = BusyNova(busy=3)
    snapshot._wait_idle(nova, "s1", 5, 0, _task({}))  # noqa: SLF001
    assert nova.busy == -1  # polled until it saw no task


def test_server_busy_too_long_fails_naming_its_task():
    nova = BusyNova(busy=10**6)
    with pytest.raises(errors.VimError, match="image_uploading"):
        snapshot._wait_idle(nova, "s1", 0.2, 0, _task({}))  # noqa: SLF001
