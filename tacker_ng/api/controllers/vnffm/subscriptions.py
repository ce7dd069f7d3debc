"""``/vnffm/v1/subscriptions`` (SOL003 7.4.4, 7.4.5): the generic SOL
subscription controllers with the FM kind: FmSubscriptionRequest, the
callback test, duplicates (303), list/show/delete."""

from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers import subscribing
from tacker_ng.api.schemas import vnffm as schemas
from tacker_ng.db import field_maps_fm
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.nfvo import fm_notify

FM = subscribing.SubscriptionKind(
    prefix=fm_notify.FM_PREFIX,
    policy="tacker_ng:vnffm",
    store=subscriptions_db.FM,
    schema=schemas.FM_SUBSCRIPTION_REQUEST,
    list_resource=api_listing.ListResource(
        "FmSubscription", field_maps_fm.FM_SUBSCRIPTION, None
    ),
    render=fm_notify.subscription_view,
)
