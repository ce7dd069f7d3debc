"""Operate (SOL003 5.4.10) on OpenStack: start or stop VNFC servers.

``changeStateTo`` STARTED is Nova's os-start, STOPPED its os-stop, which
already shuts the guest down gracefully (Nova's ``shutdown_timeout``);
Nova has no forced stop, so FORCEFUL differs from GRACEFUL only in not
waiting ``gracefulStopTimeout``. Each server's state before the change is
persisted first, so a retry skips the servers done and a rollback puts
back exactly the ones changed.
"""

import time
from typing import Any

from oslo_config import cfg

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors, nova, polling
from tacker_ng.objects import vnfc_info

_ACTIVE, _SHUTOFF = "ACTIVE", "SHUTOFF"


class PowerStateTimeout(errors.VimError):
    message = (
        "Server {server} of VNFC {vnfc} did not become {status} within "
        "{timeout} s (it is {seen})."
    )


def _wait(
    client: nova.Nova,
    vnfc: dict[str, Any],
    status: str,
    timeout: float,
    interval: float,
    task: base.LcmTask,
) -> None:
    server_id = vnfc["computeResource"]["resourceId"]
    deadline = time.monotonic() + timeout
    while True:
        seen = client.server(server_id)
        now = seen["status"] if seen else "gone"
        if now == status:
            return
        if seen is None or now == "ERROR" or time.monotonic() >= deadline:
            raise PowerStateTimeout(
                server=server_id,
                vnfc=vnfc["id"],
                status=status,
                timeout=int(timeout),
                seen=now,
            )
        task.check_cancel()
        time.sleep(interval)
        interval = polling.backoff(interval)


def _timeout(request: dict[str, Any], conf: cfg.ConfigOpts) -> float:
    if (
        request.get("changeStateTo") == vnfc_info.STOPPED
        and request.get("stopType") == "GRACEFUL"
        and request.get("gracefulStopTimeout")
    ):
        return float(request["gracefulStopTimeout"])
    return float(conf.openstack.power_state_timeout)


def operate(
    client: nova.Nova, task: base.LcmTask, conf: cfg.ConfigOpts
) -> base.LcmResult:
    """Bring the requested VNFCs to ``changeStateTo``; new vnfcInfo."""
    request: dict[str, Any] = dict(task.request)
    started = request["changeStateTo"] == vnfc_info.STARTED
    info = dict(task.instance.get("instantiatedVnfInfo") or {})
    chosen = vnfc_info.targets(info, request.get("vnfcInstanceId"))
    before: dict[str, str] = task.progress.setdefault("power_before", {})
    timeout = _timeout(request, conf)
    for vnfc in chosen:
        if vnfc["id"] in before:
            continue
        was = client.set_power(vnfc["computeResource"]["resourceId"], started)
        before[vnfc["id"]] = was or "gone"
        task.save_progress()
    for vnfc in chosen:
        _wait(
            client,
            vnfc,
            _ACTIVE if started else _SHUTOFF,
            timeout,
            conf.openstack.stack_poll_interval,
            task,
        )
    state = request["changeStateTo"]
    new_info = vnfc_info.with_vnfc_info(
        info, info, {v["id"]: state for v in chosen}
    )
    if not started and len(chosen) == len(info.get("vnfcResourceInfo") or []):
        new_info["vnfState"] = vnfc_info.STOPPED
    elif started:
        new_info["vnfState"] = vnfc_info.STARTED
    return base.LcmResult(
        instantiated_vnf_info=new_info,
        resource_changes={
            "affectedVnfcs": [
                {
                    "id": v["id"],
                    "vduId": v["vduId"],
                    "changeType": "MODIFIED",
                    "computeResource": v["computeResource"],
                }
                for v in chosen
            ]
        },
    )


def undo(
    client: nova.Nova, task: base.LcmTask, conf: cfg.ConfigOpts
) -> base.LcmResult:
    """Rollback of a failed operate: each server changed goes back to the
    state it had (ACTIVE or SHUTOFF), and the rollback waits until Nova
    says so; the instance's info is unchanged."""
    info = task.instance.get("instantiatedVnfInfo") or {}
    by_id = {v["id"]: v for v in info.get("vnfcResourceInfo") or []}
    restored = []
    for vnfc_id, was in (task.progress.get("power_before") or {}).items():
        vnfc = by_id.get(vnfc_id)
        if vnfc is None or was not in (_ACTIVE, _SHUTOFF):
            continue
        client.set_power(vnfc["computeResource"]["resourceId"], was == _ACTIVE)
        restored.append((vnfc, was))
    for vnfc, was in restored:
        _wait(
            client,
            vnfc,
            was,
            float(conf.openstack.power_state_timeout),
            conf.openstack.stack_poll_interval,
            task,
        )
    return base.LcmResult()
