"""Build LCM notifications and put them in the outbox.

Called inside the transaction that changes the state being reported, so a
notification exists exactly when its state change does. Delivery is the
conductor's job (:mod:`tacker_ng.nfvo.delivery`).
"""

import uuid
from collections.abc import Mapping
from typing import Any

from oslo_config import cfg
from sqlalchemy import orm

from tacker_ng.db import notifications as outbox
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo import subscription_filter as sf
from tacker_ng.objects import lcm, times, views

START_STATES = frozenset(
    {
        lcm.OperationState.STARTING,
        lcm.OperationState.PROCESSING,
        lcm.OperationState.ROLLING_BACK,
    }
)


def public_base_url(conf: cfg.ConfigOpts = cfg.CONF) -> str:
    """Base URL for links in notifications (no request to copy it from)."""
    if conf.api.public_endpoint:
        return conf.api.public_endpoint.rstrip("/")
    host = conf.api.host_ip
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{conf.api.port}"


def _links(base: str, subscription_id: str, instance_id: str) -> dict:
    return {
        "vnfInstance": {
            "href": f"{base}{views.LCM_PREFIX}/vnf_instances/{instance_id}"
        },
        "subscription": {
            "href": f"{base}{views.LCM_PREFIX}/subscriptions/{subscription_id}"
        },
    }


def _op_occ_payload(
    base: str,
    subscription: Mapping[str, Any],
    occ: Mapping[str, Any],
) -> dict[str, Any]:
    state = occ["operation_state"]
    payload: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "notificationType": sf.OP_OCC_NOTIFICATION,
        "subscriptionId": subscription["id"],
        "timeStamp": times.sol_time(utcnow()),
        "notificationStatus": "START" if state in START_STATES else "RESULT",
        "operationState": state,
        "vnfInstanceId": occ["vnf_instance_id"],
        "operation": occ["operation"],
        "isAutomaticInvocation": occ["is_automatic_invocation"],
        "verbosity": subscription["verbosity"],
        "vnfLcmOpOccId": occ["id"],
        "_links": {
            **_links(base, subscription["id"], occ["vnf_instance_id"]),
            "vnfLcmOpOcc": {
                "href": f"{base}{views.LCM_PREFIX}/vnf_lcm_op_occs/{occ['id']}"
            },
        },
    }
    changes = occ["resource_changes"] or {}
    if subscription["verbosity"] == "FULL" and state not in START_STATES:
        for key in (
            "affectedVnfcs",
            "affectedVirtualLinks",
            "affectedExtLinkPorts",
            "affectedVirtualStorages",
        ):
            if changes.get(key):
                payload[key] = changes[key]
        if occ["changed_info"]:
            payload["changedInfo"] = occ["changed_info"]
        if occ["changed_ext_connectivity"]:
            payload["changedExtConnectivity"] = occ["changed_ext_connectivity"]
    if occ["error"] and state not in START_STATES:
        payload["error"] = occ["error"]
    return payload


def op_occ_changed(
    session: orm.Session,
    occ: Mapping[str, Any],
    instance: Mapping[str, Any],
) -> int:
    """Enqueue the notification of an op occ's current state."""
    base = public_base_url()
    queued = 0
    for sub in subscriptions_db.for_project(session, instance["project_id"]):
        if sf.matches(
            sub["filter"],
            sf.OP_OCC_NOTIFICATION,
            instance,
            occ["operation"],
            occ["operation_state"],
        ):
            payload = _op_occ_payload(base, sub, occ)
            outbox.enqueue(session, sub["id"], sf.OP_OCC_NOTIFICATION, payload)
            queued += 1
    return queued


def identifier_changed(
    session: orm.Session,
    notification_type: str,
    instance: Mapping[str, Any],
) -> int:
    """Enqueue VnfIdentifierCreation/DeletionNotification."""
    base = public_base_url()
    queued = 0
    for sub in subscriptions_db.for_project(session, instance["project_id"]):
        if sf.matches(sub["filter"], notification_type, instance):
            payload = {
                "id": str(uuid.uuid4()),
                "notificationType": notification_type,
                "subscriptionId": sub["id"],
                "timeStamp": times.sol_time(utcnow()),
                "vnfInstanceId": instance["id"],
                "_links": _links(base, sub["id"], instance["id"]),
            }
            if notification_type == sf.DELETION_NOTIFICATION:
                del payload["_links"]["vnfInstance"]
            outbox.enqueue(session, sub["id"], notification_type, payload)
            queued += 1
    return queued
