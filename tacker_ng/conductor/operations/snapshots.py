"""VNF snapshots in the conductor: record a taken snapshot, give a revert
its snapshot, delete a snapshot's VIM images and then its row."""

from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng import crypto
from tacker_ng.conductor.operations import vim as vim_select
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm, vnf_snapshots
from tacker_ng.infra import registry
from tacker_ng.nfvo import notify
from tacker_ng.objects import lcm
from tacker_ng.objects import vnf_snapshots as rules

LOG = logging.getLogger(__name__)


def record(
    context, occ: Mapping[str, Any], taken: Mapping[str, Any] | None
) -> None:
    """CREATE_SNAPSHOT: store the VnfSnapshot (instance as it is now, with
    its credentials sealed, and the driver's VNFC snapshots)."""
    if occ["operation"] != lcm.Operation.CREATE_SNAPSHOT:
        return
    request = crypto.unseal(occ["operation_params"] or {})
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            instance = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
            body = rules.compose(
                notify.public_base_url(),
                instance,
                occ["id"],
                taken or {},
                request,
            )
            vnf_snapshots.record(
                session, request["vnfSnapshotInfoId"], occ["id"], body
            )


def for_revert(context, occ: Mapping[str, Any]) -> dict[str, Any] | None:
    """REVERT_TO_SNAPSHOT: the VnfSnapshot to revert to (credentials of
    its vimConnectionInfo decrypted, like the task's instance)."""
    if occ["operation"] != lcm.Operation.REVERT_TO_SNAPSHOT:
        return None
    request = occ["operation_params"] or {}
    with db_api.reader(context) as session:
        row = vnf_snapshots.get(session, request["vnfSnapshotInfoId"])
    return crypto.unseal(dict(row["vnf_snapshot"] or {}))


def delete(context, snapshot_id: str) -> None:
    """Delete the VIM images of a snapshot marked deleting, then its row.
    A VIM error leaves the row (hidden, deleting) and is logged."""
    with db_api.reader(context) as session:
        try:
            row = vnf_snapshots.get(session, snapshot_id, deleting=True)
        except vnf_snapshots.VnfSnapshotNotFound:
            return
    snapshot = row["vnf_snapshot"]
    if snapshot:
        vims = (snapshot.get("vnfInstance") or {}).get("vimConnectionInfo")
        try:
            _, vim = vim_select.select(vims)
            driver = registry.get_driver(vim["vimType"])
            driver.delete_snapshot(vim, crypto.unseal(dict(snapshot)))
        except Exception:  # noqa: BLE001 - logged; the row stays hidden
            LOG.warning(
                "VNF snapshot %s: its VIM images could not be deleted; the "
                "resource stays hidden (deleting) for an operator",
                snapshot_id,
                exc_info=True,
            )
            return
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            vnf_snapshots.remove(session, snapshot_id)
    LOG.info("VNF snapshot %s deleted", snapshot_id)
