"""The grant step: build the GrantRequest, ask the NFVO, keep both."""

from collections.abc import Mapping
from typing import Any

from oslo_config import cfg

from tacker_ng.db import api as db_api
from tacker_ng.db import grants as grants_db
from tacker_ng.db import vnf_lcm
from tacker_ng.infra import registry
from tacker_ng.nfvo import grant_request, local, remote
from tacker_ng.objects import lcm, views
from tacker_ng.objects.vnfd import Vnfd
from tacker_ng.reservation import grants as reservation_api


def flavour_for(
    operation: lcm.Operation, instance: dict[str, Any], request: dict
) -> str:
    if operation == lcm.Operation.INSTANTIATE:
        return request["flavourId"]
    if operation == lcm.Operation.CHANGE_FLAVOUR:
        return request["newFlavourId"]
    return (instance.get("instantiatedVnfInfo") or {})["flavourId"]


def reservation_of(request: dict[str, Any]) -> str | None:
    """The reservation id an instantiate/scale request asks to use.

    ``additionalParams.reservationId`` (``reservation_id`` is accepted
    too, as OpenStack Tacker's users write it).
    """
    params = request.get("additionalParams") or {}
    return params.get("reservationId") or params.get("reservation_id")


def _existing_zones(instance: dict[str, Any]) -> dict[str, str]:
    info = instance.get("instantiatedVnfInfo") or {}
    return {
        v["computeResource"]["resourceId"]: v["zoneId"]
        for v in info.get("vnfcResourceInfo") or []
        if v.get("zoneId") and v.get("computeResource")
    }


def free_slots(
    slots: Mapping[str, int],
    instance: dict[str, Any],
    flavour_id: str | None,
    removed: set[str],
) -> dict[str, int]:
    """A reservation's instance slots per zone minus those its VNFCs
    already hold (VNFCs booted with its flavour, not being removed)."""
    free = dict(slots)
    info = instance.get("instantiatedVnfInfo") or {}
    for vnfc in info.get("vnfcResourceInfo") or []:
        meta = vnfc.get("metadata") or {}
        if not flavour_id or meta.get("computeFlavourId") != flavour_id:
            continue
        server = (vnfc.get("computeResource") or {}).get("resourceId")
        if server in removed or vnfc.get("zoneId") not in free:
            continue
        free[vnfc["zoneId"]] -= 1
    return free


def obtain(
    context,
    occ: Mapping[str, Any],
    instance_view: dict[str, Any],
    vnfd: Vnfd,
    vim_id: str,
    vim: dict[str, Any],
    conf: cfg.ConfigOpts = cfg.CONF,
    snapshot: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Grant the op occ; store request and grant; return the grant.
    ``snapshot``: a revert's VnfSnapshot (its VNFC set is what it brings
    back and removes)."""
    operation = lcm.Operation(occ["operation"])
    request = occ["operation_params"] or {}
    body = grant_request.build(
        operation,
        vnfd,
        instance_view,
        occ["id"],
        request,
        flavour_for(operation, instance_view, request),
        occ["is_automatic_invocation"],
        snapshot=snapshot,
    )
    remote_mode = conf.nfvo.mode == "remote"
    if remote_mode:
        grant = remote.request_grant(body, conf)
    else:
        grant = _grant_locally(
            context,
            body,
            request,
            instance_view,
            vim_id,
            vim,
            conf,
            project_id=occ.get("project_id"),
        )
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            grant_id = grants_db.save(
                session, occ["id"], occ["vnf_instance_id"], body, grant
            )
            vnf_lcm.update_op_occ(
                session,
                occ["id"],
                grant_id=grant_id,
                # Remote: the NFVO's URL of the grant. Local: served by
                # GET /grant/v1/grants/{id} (made absolute when shown).
                grant_href=remote.grant_href(grant, conf)
                if remote_mode
                else f"{views.GRANT_PREFIX}/{grant_id}",
            )
    return {"grant_request": body, "grant": grant}


def _grant_locally(
    context,
    body: dict[str, Any],
    request: dict[str, Any],
    instance_view: dict[str, Any],
    vim_id: str,
    vim: dict[str, Any],
    conf: cfg.ConfigOpts,
    project_id: str | None = None,
) -> dict[str, Any]:
    """The local NFVO's grant; from a reservation when the request names
    one (its zones only, its flavour and server group). The reservation
    must belong to ``project_id``, the op occ's project (the context
    may be an admin's, e.g. a re-dispatch)."""
    reservation = None
    reservation_id = reservation_of(request)
    if reservation_id:
        # 404/403/409 when unknown, of another project or not active:
        # the op occ goes FAILED_TEMP with that reason, before any VIM call.
        reservation = reservation_api.grant_info(
            context, reservation_id, project_id=project_id
        )
    if reservation and reservation["zones"]:
        zones = list(reservation["zones"])
    else:
        zones = list(conf.nfvo.local_zones) or registry.get_driver(
            vim["vimType"]
        ).list_zones(vim)
    capacity = None
    if reservation and reservation["zones"] and reservation.get("zone_slots"):
        # Slots per zone are known only when the reserved hosts have zones.
        capacity = free_slots(
            reservation["zone_slots"],
            instance_view,
            reservation.get("flavour_id"),
            {
                (d.get("resource") or {}).get("resourceId")
                for d in body.get("removeResources") or []
            },
        )
    try:
        grant = local.grant(
            body, vim_id, zones, _existing_zones(instance_view), capacity
        )
    except local.GrantRejected as exc:
        if capacity is None or reservation is None:
            raise
        raise local.GrantRejected(
            reason=f"reservation {reservation['reservationId']} cannot "
            f"hold this operation's VNFCs: {exc.kwargs.get('reason', exc)}"
        ) from exc
    if reservation:
        local.apply_reservation(grant, body, reservation, vim_id)
    return grant
