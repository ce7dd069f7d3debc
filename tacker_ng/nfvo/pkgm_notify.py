"""Build VNF package management notifications and put them in the outbox.

Called inside the transaction that changes the package, like the LCM
notifications (:mod:`tacker_ng.nfvo.notify`), so a notification exists
exactly when its change does; the conductors' delivery loop sends them
with the subscription's authentication, in order, with retries.
"""

import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import orm

from tacker_ng.db import notifications as outbox
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo import pkgm_filter as pf
from tacker_ng.nfvo.notify import public_base_url
from tacker_ng.objects import times, views


def _enqueue(
    session: orm.Session,
    notification_type: str,
    package: Mapping[str, Any],
    extra: dict[str, Any],
) -> int:
    base = public_base_url()
    # SOL005: one notification sent to several subscriptions keeps one id.
    notification_id = str(uuid.uuid4())
    queued = 0
    subs = subscriptions_db.PKGM.for_project(session, package["project_id"])
    for sub in subs:
        if not pf.matches(sub["filter"], notification_type, package):
            continue
        payload = {
            "id": notification_id,
            "notificationType": notification_type,
            "subscriptionId": sub["id"],
            "timeStamp": times.sol_time(utcnow()),
            "vnfPkgId": package["id"],
            "vnfdId": package["vnfd_id"],
            **extra,
            "_links": {
                "vnfPackage": {
                    "href": f"{base}{views.PKGM_PREFIX}/vnf_packages/"
                    f"{package['id']}"
                },
                "subscription": {
                    "href": f"{base}{views.PKGM_PREFIX}/subscriptions/"
                    f"{sub['id']}"
                },
            },
        }
        outbox.enqueue(session, sub["id"], notification_type, payload)
        queued += 1
    return queued


def onboarded(session: orm.Session, package: Mapping[str, Any]) -> int:
    """VnfPackageOnboardingNotification: ``package`` is now ONBOARDED."""
    return _enqueue(session, pf.ONBOARDING_NOTIFICATION, package, {})


def operational_state_changed(
    session: orm.Session, package: Mapping[str, Any]
) -> int:
    """VnfPackageChangeNotification, OP_STATE_CHANGE, with the new state
    (``package`` is the row after the change)."""
    return _enqueue(
        session,
        pf.CHANGE_NOTIFICATION,
        package,
        {
            "changeType": pf.OP_STATE_CHANGE,
            "operationalState": package["operational_state"],
        },
    )


def deleted(session: orm.Session, package: Mapping[str, Any]) -> int:
    """VnfPackageChangeNotification, PKG_DELETE (``package`` is the row as
    it was; only ONBOARDED packages were ever announced)."""
    if not package["vnfd_id"]:
        return 0
    return _enqueue(
        session,
        pf.CHANGE_NOTIFICATION,
        package,
        {"changeType": pf.PKG_DELETE},
    )
