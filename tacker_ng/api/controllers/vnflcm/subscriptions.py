"""``/vnflcm/v2/subscriptions`` (SOL003 5.4.18/19)."""

from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers import subscribing
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.objects import views

LCCN = subscribing.SubscriptionKind(
    prefix=views.LCM_PREFIX,
    policy="tacker_ng:vnflcm",
    store=subscriptions_db.LCM,
    schema=schemas.LCCN_SUBSCRIPTION_REQUEST,
    list_resource=api_listing.SUBSCRIPTIONS,
    render=views.subscription,
    extra_columns=lambda body: {"verbosity": body.get("verbosity", "FULL")},
)
