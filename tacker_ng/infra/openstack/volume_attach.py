"""Attach a volume a revert just detached, waiting out the detach's end.

Nova releases a detached volume in steps: Cinder shows it ``available``
(no attachment) a moment before Nova has removed the server's block
device mapping and Cinder its attachment record, and an attach in that
moment is refused ("Invalid volume: volume ... is already attached to
instances: <the same server>", HTTP 400; seen on minicloud under load).
:func:`attach` sends the attach again, with back-off and within the
operation's volume timeout, while it is refused that way; it is done as
soon as Cinder shows the volume attached to the server.
"""

from collections.abc import Mapping
from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.openstack import cinder, errors, nova, polling

#: Nova's (and Cinder's) words when the volume is still held.
STILL_HELD = "already attached"


def attached(volume: Mapping[str, Any], server_id: str) -> bool:
    """Whether Cinder shows ``volume`` attached to ``server_id``."""
    return any(
        a.get("server_id") == server_id
        for a in volume.get("attachments") or []
    )


def attach(
    client: cinder.Cinder,
    compute: nova.Nova,
    ids: tuple[str, str],
    timing: tuple[float, float],
    task: base.LcmTask,
) -> None:
    """Attach volume ``ids[0]`` to server ``ids[1]`` unless it is;
    refusals because the last detach is not over yet are retried."""
    volume_id, server_id = ids
    timeout, interval = timing

    def check() -> str | None:
        if attached(client.volume(volume_id) or {}, server_id):
            return None
        try:
            compute.attach_volume(server_id, volume_id)
        except errors.VimError as exc:
            if STILL_HELD not in str(exc):
                raise
            return str(exc)
        return None

    polling.poll(
        check,
        timeout,
        interval,
        task,
        lambda seen: errors.VimError(
            reason=f"volume {volume_id} not released for a new attach to "
            f"{server_id} within {int(timeout)} s: {seen}"
        ),
    )
