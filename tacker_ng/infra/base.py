"""The infra driver interface: what the conductor asks of a VIM driver.

One driver per ``vimType`` (entry point group ``tacker_ng.infra_drivers``,
name = vimType). The conductor has already granted the operation; the
driver turns the grant into VIM resources and answers the new
``instantiatedVnfInfo`` and the resource changes. Drivers persist their
own progress through ``LcmTask.progress`` so that a retry continues and a
rollback undoes exactly what was done, even on another conductor.
"""

import abc
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tacker_ng import exceptions
from tacker_ng.objects import lcm, sol003
from tacker_ng.objects.vnfd import Vnfd


class OperationNotSupported(exceptions.UnprocessableEntity):
    message = "The {driver} driver does not support {operation}."


class RollbackNotSupported(exceptions.Conflict):
    """The driver cannot roll this operation back: said before the op
    occ leaves FAILED_TEMP, so the NFVO can still retry or fail it."""

    title = "Rollback Not Supported"
    message = (
        "The {driver} driver cannot roll back {operation}; retry the "
        "operation occurrence or mark it failed (fail)."
    )


class Cancelled(exceptions.TackerNgError):
    """Raised by a driver that stopped because cancel was requested."""

    status = 409
    title = "Cancelled"
    message = "The operation was cancelled ({mode})."


@dataclasses.dataclass
class LcmTask:
    """Everything a driver (or MgmtDriver) needs for one operation run."""

    context: Any
    operation: lcm.Operation
    op_occ_id: str
    #: The VnfInstance; ``vimConnectionInfo`` decrypted.
    instance: sol003.VnfInstance
    #: The operation's request body (InstantiateVnfRequest, ...).
    request: sol003.LcmRequest
    vnfd: Vnfd
    #: Directory of the extracted VNF package.
    package_root: Path
    #: The GrantRequest sent and the Grant received ({} before the grant).
    grant_request: sol003.GrantRequest
    grant: sol003.Grant
    #: The driver's own persisted state for this op occ (mutable dict).
    progress: dict[str, Any]
    #: Persist ``progress`` now (call after every externally visible step).
    save_progress: Callable[[], None]
    #: Cancel mode (GRACEFUL/FORCEFUL) once cancel is requested, else None.
    cancel_requested: Callable[[], str | None]
    #: REVERT_TO_SNAPSHOT: the VnfSnapshot to revert to (credentials
    #: decrypted); None for other operations.
    vnf_snapshot: dict[str, Any] | None = None

    @property
    def flavour_id(self) -> str:
        """The deployment flavour the operation ends with."""
        flavour = (
            self.request.get("newFlavourId")
            or self.request.get("flavourId")
            or self.instance.get("instantiatedVnfInfo", {}).get("flavourId")
        )
        if not flavour:
            raise exceptions.Conflict(
                "The VNF instance has no deployment flavour yet."
            )
        return flavour

    def check_cancel(self) -> None:
        """Raise :class:`Cancelled` if a FORCEFUL cancel was requested."""
        mode = self.cancel_requested()
        if mode == lcm.CancelMode.FORCEFUL:
            raise Cancelled(mode=mode)


@dataclasses.dataclass
class LcmResult:
    """What an operation changed."""

    #: New instantiatedVnfInfo; None leaves it as it was.
    instantiated_vnf_info: sol003.InstantiatedVnfInfo | None = None
    #: affectedVnfcs / affectedVirtualLinks / affectedVirtualStorages /
    #: affectedExtLinkPorts of the op occ (SOL003 resourceChanges).
    resource_changes: dict[str, Any] = dataclasses.field(default_factory=dict)
    changed_info: dict[str, Any] | None = None
    changed_ext_connectivity: list[dict[str, Any]] | None = None
    #: CREATE_SNAPSHOT: ``vnfcSnapshots`` and ``creationStartedAt`` /
    #: ``creationFinishedAt`` of the snapshot taken (no credentials: the
    #: conductor adds the instance as it is).
    vnf_snapshot: dict[str, Any] | None = None


class InfraDriver(abc.ABC):
    """Base of infra drivers; an unsupported operation fails cleanly."""

    #: Short name for messages and logs.
    name: str = "infra"
    #: Operations whose rollback the driver implements (None: all).
    rollback_operations: frozenset[lcm.Operation] | None = None

    def _unsupported(self, task: LcmTask) -> LcmResult:
        raise OperationNotSupported(driver=self.name, operation=task.operation)

    @abc.abstractmethod
    def instantiate(self, task: LcmTask) -> LcmResult:
        """Create the VNF's resources per the grant."""

    @abc.abstractmethod
    def terminate(self, task: LcmTask) -> LcmResult:
        """Delete every resource of the VNF."""

    def scale(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def scale_to_level(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def heal(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def change_flavour(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def change_ext_conn(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def change_vnfpkg(self, task: LcmTask) -> LcmResult:
        return self._unsupported(task)

    def operate(self, task: LcmTask) -> LcmResult:
        """Start or stop VNFCs (OperateVnfRequest)."""
        return self._unsupported(task)

    def create_snapshot(self, task: LcmTask) -> LcmResult:
        """Snapshot every VNFC (CreateVnfSnapshotRequest); the images
        taken go in ``LcmResult.vnf_snapshot``."""
        return self._unsupported(task)

    def revert_to_snapshot(self, task: LcmTask) -> LcmResult:
        """Bring every VNFC back to ``task.vnf_snapshot``."""
        return self._unsupported(task)

    def delete_snapshot(
        self, vim: sol003.VimConnectionInfo, vnf_snapshot: dict[str, Any]
    ) -> None:
        """Delete the VIM resources (images) a VnfSnapshot holds."""
        raise OperationNotSupported(
            driver=self.name, operation="deleting a VNF snapshot"
        )

    def supports(self, operation: lcm.Operation) -> bool:
        """Whether this driver implements ``operation`` (the API answers
        422 at once for one it does not)."""
        method = METHODS.get(operation)
        if method is None:
            return True
        return getattr(type(self), method) is not getattr(InfraDriver, method)

    def supports_rollback(self, operation: lcm.Operation) -> bool:
        """Whether :meth:`rollback` can undo ``operation`` (the API answers
        409 at once for one it cannot, leaving the op occ FAILED_TEMP)."""
        if operation not in METHODS or self.rollback_operations is None:
            return True
        return operation in self.rollback_operations

    @abc.abstractmethod
    def rollback(self, task: LcmTask) -> LcmResult:
        """Undo what ``task.operation`` did so far (see ``task.progress``)."""

    def list_zones(self, vim: sol003.VimConnectionInfo) -> list[str]:
        """Availability zones of a VIM (for the local NFVO); may be []."""
        return []


#: Operation -> driver method name.
METHODS: dict[lcm.Operation, str] = {
    lcm.Operation.INSTANTIATE: "instantiate",
    lcm.Operation.TERMINATE: "terminate",
    lcm.Operation.SCALE: "scale",
    lcm.Operation.SCALE_TO_LEVEL: "scale_to_level",
    lcm.Operation.HEAL: "heal",
    lcm.Operation.CHANGE_FLAVOUR: "change_flavour",
    lcm.Operation.CHANGE_EXT_CONN: "change_ext_conn",
    lcm.Operation.CHANGE_VNFPKG: "change_vnfpkg",
    lcm.Operation.OPERATE: "operate",
    lcm.Operation.CREATE_SNAPSHOT: "create_snapshot",
    lcm.Operation.REVERT_TO_SNAPSHOT: "revert_to_snapshot",
}
