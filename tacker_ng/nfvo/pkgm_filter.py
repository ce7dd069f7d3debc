"""Does a PkgmNotificationsFilter select a package notification?

Pure logic (SOL005 9.5.3.2 PkgmNotificationsFilter): every attribute
present must match (AND), the values of a list are alternatives (OR), an
absent or empty filter selects everything. ``vnfProductsFromProviders``,
``vnfdId`` and ``vnfPkgId`` are alternatives of each other (the request
schema allows one of them).
"""

from collections.abc import Mapping
from typing import Any

from tacker_ng.nfvo.subscription_filter import products_match

ONBOARDING_NOTIFICATION = "VnfPackageOnboardingNotification"
CHANGE_NOTIFICATION = "VnfPackageChangeNotification"
NOTIFICATION_TYPES = (ONBOARDING_NOTIFICATION, CHANGE_NOTIFICATION)

#: VnfPackageChangeNotification.changeType values (SOL005 9.5.4.5).
OP_STATE_CHANGE = "OP_STATE_CHANGE"
PKG_DELETE = "PKG_DELETE"


def matches(
    subscription_filter: Mapping[str, Any] | None,
    notification_type: str,
    package: Mapping[str, Any],
) -> bool:
    """True when a subscription with this filter gets the notification
    about ``package`` (a ``vnf_packages`` row as it is after the change)."""
    f = subscription_filter or {}
    checks = (
        ("notificationTypes", lambda v: notification_type in v),
        ("vnfdId", lambda v: package["vnfd_id"] in v),
        ("vnfPkgId", lambda v: package["id"] in v),
        ("vnfProductsFromProviders", lambda v: products_match(v, package)),
        ("operationalState", lambda v: package["operational_state"] in v),
        ("usageState", lambda v: package["usage_state"] in v),
    )
    return all(check(f[key]) for key, check in checks if f.get(key))
