"""Test-only infra driver and MgmtDriver: a deterministic fake VIM.

Registered for vimType ``TACKERNG.TEST.FAKE`` through a throw-away
distribution (see :mod:`tacker_ng.tests.drivers.plugin`); never part of
the product. Behaviour is steered by ``additionalParams.fake`` of the
operation request:

* ``fail_at``: operation name (``INSTANTIATE``, ...) or ``rollback`` or a
  hook name (``instantiate_start``) that fails;
* ``fail_times``: how many runs fail before one succeeds (default: all);
* ``fail_with``: ``bug`` raises a foreign exception (a bug of ours),
  ``unreachable`` a 504 "VIM unreachable" caused by a socket timeout,
  instead of a VIM error;
* ``sleep``: seconds the driver works (checking for FORCEFUL cancel);
* ``sleep_at``: where it sleeps instead: the operation name (the driver
  step), ``rollback`` or a hook name (``heal_end``); by default the driver
  step and the rollback;
* ``sleep_times``: how many runs sleep there (default: all);
* ``provide_vim``: ``{hook name: VimConnectionInfo}``: that hook returns
  the VIM as provided by the VNF (what the k8s cluster MgmtDriver does);
* ``withdraw_vim``: ``{hook name: vimId}``: that hook withdraws it.

The VIM's ``extra.call_wait`` (seconds, default 0) makes every VIM call
of the driver (each operation's and rollback's call, ``list_zones``)
block that long without touching the database, as a real VIM's HTTP
round trip does: what the LCM throughput benchmark measures conductors
against (I/O waits, not CPU).

Before sleeping, the place is appended to ``progress["sleeping"]`` (what
a test waits for before it kills the conductor); ``progress["driver_runs"]``
counts the driver step's starts. The MgmtDriver appends a
hook's name to ``progress["hooks"]`` when it starts and to
``progress["hooks_done"]`` when it returns.

The "VIM" is the instance's own ``instantiatedVnfInfo``: VNFCs come from
the grant (zones included) and go with removeResources.
"""

import time
import uuid
from typing import Any

from tacker_ng import exceptions
from tacker_ng.infra import base
from tacker_ng.mgmt import base as mgmt_base
from tacker_ng.objects import vnf_snapshots as snapshot_rules
from tacker_ng.objects import vnfc_info

VIM_TYPE = "TACKERNG.TEST.FAKE"


class FakeVimError(exceptions.TackerNgError):
    status = 500
    title = "VIM Error"
    message = "Simulated VIM failure during {where}."


class FakeVimUnreachable(exceptions.TackerNgError):
    status = 504
    title = "VIM unreachable"
    message = "VIM unreachable during {where}: no answer in time."


def _fake(task: base.LcmTask) -> dict[str, Any]:
    return (task.request.get("additionalParams") or {}).get("fake") or {}


def maybe_fail(task: base.LcmTask, where: str) -> None:
    params = _fake(task)
    if params.get("fail_at") != where:
        return
    key = f"failures:{where}"
    done = task.progress.get(key, 0)
    if done < params.get("fail_times", 10**9):
        task.progress[key] = done + 1
        task.save_progress()
        if params.get("fail_with") == "bug":
            raise KeyError(f"internal-secret-{where}")
        if params.get("fail_with") == "unreachable":
            try:
                raise TimeoutError("timed out")
            except TimeoutError as exc:
                raise FakeVimUnreachable(where=where) from exc
        raise FakeVimError(where=where)


def _work(task: base.LcmTask, where: str, default: bool = True) -> None:
    """Sleep ``sleep`` seconds if this is where the request says."""
    params = _fake(task)
    seconds = float(params.get("sleep", 0))
    at = params.get("sleep_at", where if default else None)
    if seconds <= 0 or at != where:
        return
    key = f"sleeps:{where}"
    done = task.progress.get(key, 0)
    if done >= params.get("sleep_times", 10**9):
        return
    task.progress[key] = done + 1
    task.progress.setdefault("sleeping", []).append(where)
    task.save_progress()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        task.check_cancel()
        time.sleep(0.05)


def call_wait(vim: dict[str, Any] | None) -> None:
    """Block for the VIM's ``extra.call_wait`` seconds (an I/O wait)."""
    seconds = float(((vim or {}).get("extra") or {}).get("call_wait", 0))
    if seconds > 0:
        time.sleep(seconds)


def _vim_of(task: base.LcmTask) -> dict[str, Any] | None:
    vims = task.instance.get("vimConnectionInfo") or {}
    return next(iter(vims.values()), None)


def _zone_of(task: base.LcmTask, definition_id: str) -> str | None:
    zones = {z["id"]: z["zoneId"] for z in task.grant.get("zones") or []}
    for granted in (task.grant.get("addResources") or []) + (
        task.grant.get("updateResources") or []
    ):
        if granted["resourceDefinitionId"] == definition_id:
            return zones.get(granted.get("zoneId"))
    return None


class FakeInfraDriver(base.InfraDriver):
    name = "fake"

    def _info(self, task: base.LcmTask) -> dict[str, Any]:
        return dict(task.instance.get("instantiatedVnfInfo") or {})

    def _vnfcs(self, task, info) -> list[dict[str, Any]]:
        return list(info.get("vnfcResourceInfo") or [])

    def _add(self, task, vnfcs) -> list[dict[str, Any]]:
        added = []
        next_index: dict[str, int] = {}
        for v in vnfcs:
            idx = (v.get("metadata") or {}).get("index", 0)
            next_index[v["vduId"]] = max(
                next_index.get(v["vduId"], 0), idx + 1
            )
        for d in task.grant_request.get("addResources") or []:
            if d["type"] != "COMPUTE":
                continue
            index = next_index.get(d["vduId"], 0)
            next_index[d["vduId"]] = index + 1
            vnfc = {
                "id": d["id"],
                "vduId": d["vduId"],
                "computeResource": {
                    "resourceId": f"fake-server-{uuid.uuid4()}",
                    "vimLevelResourceType": "FAKE::Server",
                },
                "metadata": {"index": index},
            }
            zone = _zone_of(task, d["id"])
            if zone:
                vnfc["zoneId"] = zone
            added.append(vnfc)
        return added

    def _changes(self, added=(), removed=(), modified=()) -> dict:
        affected = [
            {
                "id": v["id"],
                "vduId": v["vduId"],
                "changeType": kind,
                "computeResource": v["computeResource"],
            }
            for kind, group in (
                ("ADDED", added),
                ("REMOVED", removed),
                ("MODIFIED", modified),
            )
            for v in group
        ]
        return {"affectedVnfcs": affected} if affected else {}

    def _result(self, task, info, vnfcs, added=(), removed=(), modified=()):
        info.update(
            {
                "flavourId": task.flavour_id,
                "vnfState": "STARTED",
                "vnfcResourceInfo": vnfcs,
            }
        )
        task.progress["resources"] = [v["id"] for v in vnfcs]
        task.save_progress()
        return base.LcmResult(
            instantiated_vnf_info=info,
            resource_changes=self._changes(added, removed, modified),
        )

    def _run(self, task: base.LcmTask) -> None:
        task.progress["driver_runs"] = task.progress.get("driver_runs", 0) + 1
        task.save_progress()
        call_wait(_vim_of(task))
        _work(task, str(task.operation))
        maybe_fail(task, str(task.operation))

    def instantiate(self, task):
        self._run(task)
        added = self._add(task, [])
        return self._result(task, {}, added, added=added)

    def terminate(self, task):
        self._run(task)
        vnfcs = self._vnfcs(task, self._info(task))
        return base.LcmResult(resource_changes=self._changes(removed=vnfcs))

    def _replace(self, task):
        self._run(task)
        info = self._info(task)
        vnfcs = self._vnfcs(task, info)
        gone = {
            d["id"] for d in task.grant_request.get("removeResources") or []
        }
        removed = [v for v in vnfcs if v["id"] in gone]
        kept = [v for v in vnfcs if v["id"] not in gone]
        added = self._add(task, kept)
        return self._result(task, info, kept + added, added, removed)

    scale = scale_to_level = change_flavour = _replace

    def heal(self, task):
        self._run(task)
        info = self._info(task)
        vnfcs = self._vnfcs(task, info)
        targets = {
            d["id"] for d in task.grant_request.get("updateResources") or []
        }
        healed = []
        for v in vnfcs:
            if v["id"] in targets:
                v["computeResource"] = {
                    **v["computeResource"],
                    "resourceId": f"fake-server-{uuid.uuid4()}",
                }
                healed.append(v)
        return self._result(task, info, vnfcs, modified=healed)

    def change_ext_conn(self, task):
        self._run(task)
        return base.LcmResult(
            changed_ext_connectivity=[
                {
                    "id": link["id"],
                    "resourceHandle": {"resourceId": link["resourceId"]},
                    "currentVnfExtCpData": link["extCps"],
                }
                for link in task.request.get("extVirtualLinks") or []
            ]
        )

    def change_vnfpkg(self, task):
        self._run(task)
        info = self._info(task)
        return self._result(
            task,
            info,
            self._vnfcs(task, info),
            modified=self._vnfcs(task, info),
        )

    def operate(self, task):
        """Record the requested VNFC state (no VIM behind it)."""
        self._run(task)
        info = self._info(task)
        chosen = vnfc_info.targets(info, task.request.get("vnfcInstanceId"))
        state = task.request["changeStateTo"]
        info = vnfc_info.with_vnfc_info(
            info, info, {v["id"]: state for v in chosen}
        )
        return base.LcmResult(
            instantiated_vnf_info=info,
            resource_changes=self._changes(modified=chosen),
        )

    def create_snapshot(self, task):
        """An image id per VNFC (no VIM behind it)."""
        self._run(task)
        info = self._info(task)
        vim_id = sorted(task.instance.get("vimConnectionInfo") or {"vim": 0})
        return base.LcmResult(
            vnf_snapshot={
                "vnfcSnapshots": [
                    {
                        "id": v["id"],
                        "vnfcInstanceId": v["id"],
                        "vnfcResourceInfoId": v["id"],
                        "creationStartedAt": "2026-01-01T00:00:00Z",
                        "creationFinishedAt": "2026-01-01T00:00:01Z",
                        "computeSnapshotResource": {
                            "vimConnectionId": vim_id[0],
                            "resourceId": f"fake-image-{uuid.uuid4()}",
                            "vimLevelResourceType": "fake.image",
                        },
                    }
                    for v in self._vnfcs(task, info)
                ],
                "creationStartedAt": "2026-01-01T00:00:00Z",
                "creationFinishedAt": "2026-01-01T00:00:01Z",
            }
        )

    def revert_to_snapshot(self, task):
        """The snapshot's info on the current servers; a VNFC scaled in
        since gets a new server."""
        self._run(task)
        info = self._info(task)
        now = {v["id"]: v for v in info.get("vnfcResourceInfo") or []}
        then = task.vnf_snapshot["vnfInstance"]["instantiatedVnfInfo"]
        after = [
            now.get(v["id"])
            or {
                **v,
                "computeResource": {
                    **v["computeResource"],
                    "resourceId": f"fake-server-{uuid.uuid4()}",
                },
            }
            for v in then.get("vnfcResourceInfo") or []
        ]
        return base.LcmResult(
            instantiated_vnf_info=snapshot_rules.restored_info(
                task.vnf_snapshot, {**info, "vnfcResourceInfo": after}
            ),
            resource_changes={
                "affectedVnfcs": snapshot_rules.revert_changes(info, after)
            },
        )

    def delete_snapshot(self, vim, vnf_snapshot):
        """Nothing to delete (the images are only ids)."""

    def rollback(self, task):
        call_wait(_vim_of(task))
        _work(task, "rollback")
        maybe_fail(task, "rollback")
        task.progress["rolled_back"] = True
        task.save_progress()
        return base.LcmResult()

    def list_zones(self, vim):
        call_wait(vim)
        return list((vim.get("extra") or {}).get("zones") or ["zone-a"])


class FakeMgmtDriver(mgmt_base.MgmtDriver):
    """Records every hook it starts and finishes in the op occ's progress."""

    def run_hook(self, hook, task, artifact) -> mgmt_base.HookResult:
        task.progress.setdefault("hooks", []).append(hook)
        # How many VNFCs the hook sees (an end hook: the driver's result).
        info = task.instance.get("instantiatedVnfInfo") or {}
        task.progress.setdefault("hook_vnfcs", []).append(
            len(info.get("vnfcResourceInfo") or [])
        )
        task.save_progress()
        _work(task, hook, default=False)
        maybe_fail(task, hook)
        task.progress.setdefault("hooks_done", []).append(hook)
        task.save_progress()
        params = _fake(task)
        provided = (params.get("provide_vim") or {}).get(hook)
        withdrawn = (params.get("withdraw_vim") or {}).get(hook)
        # A note for each VNFC the request names (as the cluster driver's
        # nodeDrain for the nodes it drained).
        note = (params.get("vnfc_note") or {}).get(hook)
        ids = task.request.get("vnfcInstanceId") or []
        return mgmt_base.HookResult(
            provided_vims={provided["vimId"]: provided} if provided else {},
            withdrawn_vims=[withdrawn] if withdrawn else [],
            vnfc_metadata=dict.fromkeys(ids, note) if note else {},
        )
