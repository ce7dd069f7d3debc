"""Does a LifecycleChangeNotificationsFilter select a notification?

Pure logic (SOL003 5.5.3.12 and SOL013 VnfInstanceSubscriptionFilter):
every attribute present in the filter must match (AND); the values of a
list attribute are alternatives (OR). An absent or empty filter selects
everything.
"""

from collections.abc import Mapping
from typing import Any

OP_OCC_NOTIFICATION = "VnfLcmOperationOccurrenceNotification"
CREATION_NOTIFICATION = "VnfIdentifierCreationNotification"
DELETION_NOTIFICATION = "VnfIdentifierDeletionNotification"
NOTIFICATION_TYPES = (
    OP_OCC_NOTIFICATION,
    CREATION_NOTIFICATION,
    DELETION_NOTIFICATION,
)


def products_match(
    providers: list[dict[str, Any]], instance: Mapping[str, Any]
) -> bool:
    for provider in providers:
        if provider.get("vnfProvider") != instance["vnf_provider"]:
            continue
        products = provider.get("vnfProducts")
        if not products:
            return True
        for product in products:
            if product.get("vnfProductName") != instance["vnf_product_name"]:
                continue
            versions = product.get("versions")
            if not versions:
                return True
            for version in versions:
                if (
                    version.get("vnfSoftwareVersion")
                    != instance["vnf_software_version"]
                ):
                    continue
                vnfd_versions = version.get("vnfdVersions")
                if not vnfd_versions or (
                    instance["vnfd_version"] in vnfd_versions
                ):
                    return True
    return False


def instance_matches(
    instance_filter: Mapping[str, Any] | None, instance: Mapping[str, Any]
) -> bool:
    """VnfInstanceSubscriptionFilter against a ``vnf_instances`` row."""
    if not instance_filter:
        return True
    checks = (
        ("vnfdIds", lambda v: instance["vnfd_id"] in v),
        ("vnfProductsFromProviders", lambda v: products_match(v, instance)),
        ("vnfInstanceIds", lambda v: instance["id"] in v),
        ("vnfInstanceNames", lambda v: instance["vnf_instance_name"] in v),
    )
    return all(
        check(instance_filter[key])
        for key, check in checks
        if instance_filter.get(key)
    )


def matches(
    subscription_filter: Mapping[str, Any] | None,
    notification_type: str,
    instance: Mapping[str, Any],
    operation: str | None = None,
    operation_state: str | None = None,
) -> bool:
    """True when a subscription with this filter gets the notification."""
    f = subscription_filter or {}
    if f.get("notificationTypes") and (
        notification_type not in f["notificationTypes"]
    ):
        return False
    if notification_type == OP_OCC_NOTIFICATION:
        if f.get("operationTypes") and operation not in f["operationTypes"]:
            return False
        if f.get("operationStates") and (
            operation_state not in f["operationStates"]
        ):
            return False
    return instance_matches(f.get("vnfInstanceSubscriptionFilter"), instance)
