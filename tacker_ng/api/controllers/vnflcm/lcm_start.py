"""Start an LCM operation from the API: validate, take the instance, cast.

The op occ (STARTING), the instance's hold and the STARTING notification
are one transaction; the cast to a conductor follows. Should the cast
fail, the op occ is set FAILED_TEMP at once so that the NFVO can retry or
roll it back instead of waiting forever.
"""

from collections.abc import Callable
from typing import Any

import oslo_messaging as messaging
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.api.controllers.vnflcm import common
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm, vnf_snapshots
from tacker_ng.infra import base, registry
from tacker_ng.lcm import rollback as lcm_rollback
from tacker_ng.lcm import transitions as state
from tacker_ng.nfvo import grant_request, notify
from tacker_ng.objects import lcm, state_machine, views, vim_refs, vnfc_info
from tacker_ng.objects import vnf_snapshots as snapshot_rules
from tacker_ng.packages import catalog
from tacker_ng.pm import measurements, scaling_rules

LOG = logging.getLogger(__name__)


class ConductorUnreachable(exceptions.ServiceUnavailable):
    message = (
        "The operation was accepted but no conductor could be reached; it "
        "is FAILED_TEMP and can be retried."
    )


def check_vims(vim_connection_info: dict[str, Any] | None) -> None:
    """422 unless every VIM's vimType has an installed infra driver
    (a null entry, a merge patch's "remove", names no driver)."""
    for vim_id, vim in (vim_connection_info or {}).items():
        if vim is not None and not registry.has_driver(vim["vimType"]):
            raise grant_request.InvalidLcmRequest(
                f"vimConnectionInfo '{vim_id}': no infra driver for "
                f"vimType '{vim['vimType']}'."
            )


def _check_driver_supports(instance, operation: lcm.Operation) -> None:
    """422 when the infra driver of the instance's VIM does not implement
    the operation (e.g. operate on a driver without it); VIMs the
    instance only provides (its Kubernetes cluster) do not count."""
    for vim in vim_refs.runs_on(instance["vim_connection_info"]).values():
        if not vim or not registry.has_driver(vim.get("vimType", "")):
            continue
        driver = registry.get_driver(vim["vimType"])
        if not driver.supports(operation):
            raise base.OperationNotSupported(
                driver=driver.name, operation=operation
            )


def check_rollback_supported(instance, operation: lcm.Operation) -> None:
    """409 when the infra driver of the instance's VIM cannot roll
    ``operation`` back (e.g. terminate): said before the op occ leaves
    FAILED_TEMP, so retry and fail remain open to the NFVO."""
    driver = lcm_rollback.driver_refusing(instance, operation)
    if driver is not None:
        raise base.RollbackNotSupported(
            driver=driver.name, operation=operation
        )


_SNAPSHOT_OPS = frozenset(
    {lcm.Operation.CREATE_SNAPSHOT, lcm.Operation.REVERT_TO_SNAPSHOT}
)


class SnapshotConflict(exceptions.Conflict):
    message = "VNF snapshot {id} cannot be used here: {reason}."


def _check_snapshot(session, operation, instance, body, scope) -> None:
    """404 for an unknown vnfSnapshotInfoId; 409 when a create_snapshot
    targets a filled one, or a revert one not of this instance's VNFCs."""
    row = vnf_snapshots.get(session, body["vnfSnapshotInfoId"], scope)
    if operation == lcm.Operation.CREATE_SNAPSHOT:
        if row["vnf_snapshot"]:
            raise SnapshotConflict(
                id=row["id"],
                reason="it already holds a snapshot (delete it, or create "
                "another VnfSnapshotInfo)",
            )
        return
    reason = snapshot_rules.revert_conflict(instance, row["vnf_snapshot"])
    if reason:
        raise SnapshotConflict(id=row["id"], reason=reason)


#: Operations that start from a package and so need it ENABLED.
_NEEDS_ENABLED = frozenset(
    {lcm.Operation.INSTANTIATE, lcm.Operation.CHANGE_VNFPKG}
)


def _dry_run(session, operation, instance, body, scope) -> None:
    """Reject (422) requests that do not fit the VNFD or the instance."""
    if operation in (lcm.Operation.MODIFY_INFO, lcm.Operation.CHANGE_EXT_CONN):
        return
    vnfd_id = instance["vnfd_id"]
    if operation == lcm.Operation.CHANGE_VNFPKG:
        vnfd_id = body["vnfdId"]
    # A DISABLED package takes no new instantiations (SOL005), but the
    # VNFs already made from it are still scaled, healed and terminated.
    package = catalog.find_onboarded(
        session,
        vnfd_id,
        enabled_only=operation in _NEEDS_ENABLED,
        project_id=scope,
    )
    vnfd = catalog.load(package["id"]).vnfd
    view = {
        "id": instance["id"],
        "instantiatedVnfInfo": instance["instantiated_vnf_info"],
    }
    if operation == lcm.Operation.CHANGE_VNFPKG:
        return
    _check_driver_supports(instance, operation)
    if operation in _SNAPSHOT_OPS:
        _check_snapshot(session, operation, instance, body, scope)
        return
    if operation == lcm.Operation.OPERATE:
        try:
            vnfc_info.targets(
                instance["instantiated_vnf_info"] or {},
                body.get("vnfcInstanceId"),
            )
        except KeyError as exc:
            raise grant_request.InvalidLcmRequest(
                f"vnfcInstanceId {exc.args[0]} not found in the instance."
            ) from None
        return
    if operation == lcm.Operation.INSTANTIATE:
        flavour = body["flavourId"]
    elif operation == lcm.Operation.CHANGE_FLAVOUR:
        flavour = body["newFlavourId"]
    else:
        flavour = (instance["instantiated_vnf_info"] or {}).get("flavourId")
    grant_request.plan(operation, vnfd, flavour, view, body)
    params = body.get("additionalParams") or {}
    if (
        operation == lcm.Operation.INSTANTIATE
        and scaling_rules.PARAM in params
    ):
        # Scaling rules (automatic scaling) fit the VNFD and the
        # measurement table, or the instantiation is refused (422).
        scaling_rules.parse(
            params,
            vnfd.flavour(flavour),
            measurements.table(),
            cfg.CONF.autoscale.default_cooldown,
        )


def start(
    instance_id: str,
    operation: lcm.Operation,
    body: dict[str, Any],
    expected_version: int | None = None,
) -> str:
    """Start ``operation``; returns the op occ's URL for Location."""
    ctx = common.context()
    check_vims(body.get("vimConnectionInfo"))
    for attempt in db_api.retrying():
        with attempt, db_api.writer(ctx) as session:
            instance = vnf_lcm.get_instance(
                session, instance_id, common.scope(ctx)
            )
            if (
                expected_version is not None
                and instance["version"] != expected_version
            ):
                raise exceptions.PreconditionFailed()
            required = state_machine.required_instantiation_state(operation)
            if required is None or instance["instantiation_state"] == required:
                _dry_run(session, operation, instance, body, common.scope(ctx))
            stored = crypto.seal(body)
            occ = vnf_lcm.start_operation(
                session, instance_id, operation, stored, common.scope(ctx)
            )
            if operation in _SNAPSHOT_OPS:
                # In the op occ's transaction: two operations on one
                # snapshot are decided by the database (409).
                vnf_snapshots.use(
                    session,
                    body["vnfSnapshotInfoId"],
                    occ["id"],
                    common.scope(ctx),
                )
            if body.get("vimConnectionInfo") and operation != (
                lcm.Operation.MODIFY_INFO
            ):
                merged = dict(instance["vim_connection_info"] or {})
                merged.update(stored["vimConnectionInfo"])
                vnf_lcm.update_instance(
                    session, instance_id, {"vim_connection_info": merged}
                )
                instance = vnf_lcm.get_instance(session, instance_id)
            notify.op_occ_changed(session, occ, instance)
    cast_or_fail(
        ctx,
        occ["id"],
        rpcapi.get_api().run_lcm_op,
        lcm.OperationState.STARTING,
    )
    return f"{common.base_url()}{views.LCM_PREFIX}/vnf_lcm_op_occs/{occ['id']}"


def cast_or_fail(
    ctx,
    op_occ_id: str,
    cast: Callable[[Any, str], None],
    sent_from: lcm.OperationState,
) -> None:
    """Cast the op occ (in ``sent_from``) to a conductor; if the message
    bus cannot take it, set it FAILED_TEMP and answer 503 (a retry or a
    rollback starts it again once the bus is back)."""
    try:
        cast(ctx, op_occ_id)
    except messaging.MessagingException as exc:
        LOG.error("Cast of op occ %s failed: %s", op_occ_id, exc)
        state.move(
            ctx,
            op_occ_id,
            lcm.OperationState.FAILED_TEMP,
            {sent_from},
            error=ConductorUnreachable().to_problem_details(),
        )
        raise ConductorUnreachable() from exc
