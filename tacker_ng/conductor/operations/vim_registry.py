"""The VIM registry, seen from an operation: record what hooks provide,
resolve vimId-only VimConnectionInfo entries, withdraw on terminate.

A VNF that builds a VIM (the Kubernetes cluster of the k8s_cluster
sample) returns it from its MgmtDriver hook; the conductor seals it into
``registered_vims`` under a vimId the hook derives from the instance and
adds a provided entry (vimId, type, endpoint; no secrets) to the
instance's vimConnectionInfo so that an NFVO learns the vimId. A CNF
instantiated with ``{"vimId": ..., "vimType": ...}`` only is resolved
from the registry when its operation runs.
"""

from collections.abc import Mapping
from typing import Any

from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.db import api as db_api
from tacker_ng.db import vim_registry as vim_registry_db
from tacker_ng.db import vims as vims_db
from tacker_ng.db import vnf_lcm
from tacker_ng.mgmt.base import HookResult
from tacker_ng.objects import vim_refs

LOG = logging.getLogger(__name__)


class UnknownVim(exceptions.UnprocessableEntity):
    message = (
        "vimConnectionInfo '{key}' names vimId '{vim_id}' without "
        "accessInfo, and the VNFM knows no VIM of that id (of vimType "
        "'{vim_type}'); give the VIM's interfaceInfo and accessInfo, or the "
        "vimId of a registered VIM (e.g. the one a Kubernetes-cluster VNF "
        "shows in its vimConnectionInfo)."
    )


def record(context, instance_id: str, result: HookResult | None) -> None:
    """Write what a hook returned: the registry rows and the instance's
    provided entries, in one transaction."""
    if result is None or not (result.provided_vims or result.withdrawn_vims):
        return
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            if result.withdrawn_vims:
                vims_db.withdraw(session, instance_id, result.withdrawn_vims)
            owner = vnf_lcm.get_instance(session, instance_id)["project_id"]
            for vim_id, vim in result.provided_vims.items():
                vims_db.register(
                    session, vim_id, crypto.seal(vim), instance_id, owner
                )
            _show(session, instance_id, result)
    LOG.info(
        "VNF instance %s: VIMs provided %s, withdrawn %s",
        instance_id,
        sorted(result.provided_vims),
        sorted(result.withdrawn_vims),
    )


def withdraw_all(context, instance_id: str) -> None:
    """TERMINATE: the instance no longer provides any VIM."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            gone = vims_db.provided_by(session, instance_id)
            if not gone:
                return
            vims_db.withdraw(session, instance_id)
            _show(session, instance_id, HookResult(withdrawn_vims=gone))
    LOG.info("VNF instance %s: VIMs withdrawn %s", instance_id, gone)


def _show(session, instance_id: str, result: HookResult) -> None:
    """Mirror ``result`` into the instance's vimConnectionInfo (entries
    keyed by vimId, no secrets)."""
    row = vnf_lcm.get_instance(session, instance_id)
    vims = dict(row["vim_connection_info"] or {})
    for vim_id in result.withdrawn_vims:
        if vim_refs.is_provided(vims.get(vim_id)):
            del vims[vim_id]
    for vim_id, vim in result.provided_vims.items():
        vims[vim_id] = vim_refs.provided_entry(vim_id, vim, instance_id)
    vnf_lcm.update_instance(
        session, instance_id, {"vim_connection_info": vims or None}
    )


def resolve(
    session,
    vim_connection_info: Mapping[str, Any] | None,
    project_id: str | None = None,
) -> dict[str, Any] | None:
    """``vim_connection_info`` (sealed) with every vimId-only entry
    replaced by its registered VIM (still sealed); 422 if unknown or if
    it belongs to a project other than ``project_id``."""
    if not vim_connection_info:
        return None
    resolved = dict(vim_connection_info)
    for key, vim in vim_connection_info.items():
        if not vim_refs.is_reference(vim):
            continue
        registered = vims_db.get(session, vim["vimId"], project_id)
        if registered is None or registered["vimType"] != vim["vimType"]:
            raise UnknownVim(
                key=key, vim_id=vim["vimId"], vim_type=vim["vimType"]
            )
        resolved[key] = {**registered, "vimId": vim["vimId"]}
    return resolved


def resolve_instance(context, instance: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the instance row with its VIM references resolved (for
    this run only: the row keeps the references, so a VNF-B follows its
    cluster's new credentials after a whole-cluster heal). An instance
    with no VIM of its own runs on its project's default VIM of the
    registry, if there is one (else on ``[vim]``'s)."""
    project_id = instance.get("project_id")
    with db_api.reader(context) as session:
        vims = resolve(session, instance["vim_connection_info"], project_id)
        if not vim_refs.runs_on(vims) and project_id:
            default = vim_registry_db.default_for(session, project_id)
            if default is not None:
                vims = {
                    **(vims or {}),
                    default["vim_id"]: {
                        **default["vim_connection_info"],
                        "vimId": default["vim_id"],
                    },
                }
    return {**instance, "vim_connection_info": vims}
