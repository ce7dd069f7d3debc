"""``/vnfpkgm/v2/subscriptions`` (SOL005 9.4.8/9.4.9): an NFVO or OSS
subscribes to VnfPackageOnboardingNotification and
VnfPackageChangeNotification."""

from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers import subscribing
from tacker_ng.api.schemas import vnfpkgm as schemas
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.objects import views

PKGM = subscribing.SubscriptionKind(
    prefix=views.PKGM_PREFIX,
    policy="tacker_ng:vnfpkgm",
    store=subscriptions_db.PKGM,
    schema=schemas.PKGM_SUBSCRIPTION_REQUEST,
    list_resource=api_listing.PKGM_SUBSCRIPTIONS,
    render=views.pkgm_subscription,
)
