"""Atomic state changes of a running op occ, each with its notification.

Every function here is one transaction: the op occ's state, the
instance's changes (and release, for final states) and the outbox rows
of the notification are written together or not at all.
"""

from collections.abc import Callable, Mapping
from typing import Any

import oslo_messaging as messaging
from oslo_log import log as logging

from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.nfvo import notify
from tacker_ng.objects import lcm, vnfc_info

LOG = logging.getLogger(__name__)
S = lcm.OperationState


def _notify(session, op_occ_id: str) -> Mapping[str, Any]:
    occ = vnf_lcm.get_op_occ(session, op_occ_id)
    instance = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
    notify.op_occ_changed(session, occ, instance)
    return occ


def move(
    context,
    op_occ_id: str,
    to_state: lcm.OperationState,
    from_states: set[lcm.OperationState] | None = None,
    also: Callable[[Any, Mapping[str, Any]], None] | None = None,
    **changes: Any,
) -> bool:
    """Non-final transition (PROCESSING, ROLLING_BACK, FAILED_TEMP);
    ``also(session, occ)`` runs in the same transaction (as in
    :func:`finish`)."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            occ = vnf_lcm.get_op_occ(session, op_occ_id) if also else None
            if not vnf_lcm.transition(
                session, op_occ_id, to_state, from_states, **changes
            ):
                return False
            if also is not None:
                also(session, occ)
            _notify(session, op_occ_id)
    LOG.info("Op occ %s is %s", op_occ_id, to_state)
    return True


def finish(
    context,
    op_occ_id: str,
    to_state: lcm.OperationState,
    from_states: set[lcm.OperationState] | None = None,
    instance_changes: dict[str, Any] | None = None,
    also: Callable[[Any, Mapping[str, Any]], None] | None = None,
    **changes: Any,
) -> bool:
    """Final transition: also applies instance changes and releases it.

    ``also(session, occ)`` runs in the same transaction once the instance
    is changed (records that must agree with the op occ's end, such as
    an FM alarm about the VNF the operation left).
    """
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            occ = vnf_lcm.get_op_occ(session, op_occ_id)
            if not vnf_lcm.transition(
                session, op_occ_id, to_state, from_states, **changes
            ):
                return False
            new_info = (instance_changes or {}).get("instantiated_vnf_info")
            if new_info:
                # Every driver's answer gets vnfcInfo (SOL003 5.5.3.23),
                # keeping the VNFC states the instance had.
                before = vnf_lcm.get_instance(session, occ["vnf_instance_id"])
                instance_changes = {
                    **(instance_changes or {}),
                    "instantiated_vnf_info": vnfc_info.with_vnfc_info(
                        dict(new_info), before["instantiated_vnf_info"]
                    ),
                }
            vnf_lcm.release_instance(
                session, occ["vnf_instance_id"], op_occ_id, instance_changes
            )
            if also is not None:
                also(session, occ)
            _notify(session, op_occ_id)
    LOG.info("Op occ %s ended %s", op_occ_id, to_state)
    return True


def cast_or_park(
    context: Any,
    cast: Callable[[Any, str], None],
    occ_id: str,
    from_state: lcm.OperationState,
    what: str,
) -> None:
    """Cast op occ ``occ_id`` (the VNFM's own operation or rollback) to
    the conductors; when the bus refuses it, the op occ goes from
    ``from_state`` to FAILED_TEMP with a 503, for the VNFM's next look."""
    try:
        cast(context, occ_id)
    except messaging.MessagingException as exc:
        LOG.error("Cast of %s %s failed: %s", what, occ_id, exc)
        move(
            context,
            occ_id,
            lcm.OperationState.FAILED_TEMP,
            {from_state},
            error={"status": 503, "detail": "No conductor could be reached."},
        )
