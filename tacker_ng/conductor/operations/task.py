"""Load what an LCM run needs and wrap it in an ``LcmTask``."""

import copy
from collections.abc import Mapping
from typing import Any

from tacker_ng import crypto
from tacker_ng.conductor.operations import snapshots
from tacker_ng.conductor.operations import vim as vim_select
from tacker_ng.db import api as db_api
from tacker_ng.db import grants as grants_db
from tacker_ng.db import vnf_lcm
from tacker_ng.infra import base
from tacker_ng.nfvo import notify
from tacker_ng.objects import lcm, views
from tacker_ng.packages import catalog


class Progress:
    """The op occ's persisted progress: finished steps + driver state."""

    def __init__(self, context, op_occ_id: str, data: dict | None) -> None:
        self.context = context
        self.op_occ_id = op_occ_id
        self.data: dict[str, Any] = copy.deepcopy(data or {})
        self.data.setdefault("steps", [])
        self.data.setdefault("driver", {})

    def done(self, step: str) -> bool:
        return step in self.data["steps"]

    def mark(self, step: str) -> None:
        if step not in self.data["steps"]:
            self.data["steps"].append(step)
        self.save()

    @db_api.retry_on_deadlock
    def save(self) -> None:
        with db_api.writer(self.context) as session:
            vnf_lcm.update_op_occ(
                session, self.op_occ_id, progress=copy.deepcopy(self.data)
            )


def load(context, op_occ_id: str):
    """(op occ row, instance row, package row) of a run."""
    with db_api.reader(context) as session:
        occ = vnf_lcm.get_op_occ(session, op_occ_id)
        instance = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
        vnfd_id = instance["vnfd_id"]
        if occ["operation"] == lcm.Operation.CHANGE_VNFPKG:
            vnfd_id = occ["operation_params"]["vnfdId"]
        package = catalog.find_onboarded(session, vnfd_id, enabled_only=False)
        grant = grants_db.for_op_occ(session, op_occ_id)
    return occ, instance, package, grant


def instance_view(instance: Mapping[str, Any]) -> dict[str, Any]:
    """The SOL VnfInstance with decrypted VIM credentials (for drivers)."""
    body = views.vnf_instance(notify.public_base_url(), instance)
    if instance["vim_connection_info"]:
        body["vimConnectionInfo"] = crypto.unseal(
            instance["vim_connection_info"]
        )
    if instance["instantiated_vnf_info"]:
        body["instantiatedVnfInfo"] = instance["instantiated_vnf_info"]
    return body


def build(
    context,
    occ: Mapping[str, Any],
    instance: Mapping[str, Any],
    package: Mapping[str, Any],
    progress: Progress,
    grant: Mapping[str, Any] | None,
) -> base.LcmTask:
    contents = catalog.load(package["id"])

    def cancel_requested() -> str | None:
        with db_api.reader(context) as session:
            row = vnf_lcm.get_op_occ(session, occ["id"])
        return row["cancel_mode"] if row["is_cancel_pending"] else None

    return base.LcmTask(
        context=context,
        operation=lcm.Operation(occ["operation"]),
        op_occ_id=occ["id"],
        instance=instance_view(instance),
        request=occ["operation_params"] or {},
        vnfd=contents.vnfd,
        package_root=contents.root,
        grant_request=(grant or {}).get("grant_request") or {},
        grant=(grant or {}).get("grant") or {},
        progress=progress.data["driver"],
        save_progress=progress.save,
        cancel_requested=cancel_requested,
        vnf_snapshot=snapshots.for_revert(context, occ),
    )


def vim_of(instance: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    return vim_select.select(instance["vim_connection_info"])
