"""``/vnflcm/v2/subscriptions`` (SOL003 5.4.18/19)."""

import hashlib
import json

import pecan
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import common, listing
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import notifications as outbox
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.nfvo import callback
from tacker_ng.objects import views

LOG = logging.getLogger(__name__)
P = "tacker_ng:vnflcm"


class CallbackTestFailed(exceptions.BadRequest):
    message = (
        "The callbackUri did not answer the test GET with 204 No Content: "
        "{reason}"
    )


def fingerprint(body: dict) -> str:
    """Identity of a subscription for duplicate detection."""
    key = json.dumps(
        {"callbackUri": body["callbackUri"], "filter": body.get("filter")},
        sort_keys=True,
    )
    return hashlib.sha256(key.encode()).hexdigest()


def _test_callback(body: dict) -> None:
    try:
        resp = callback.send(
            body["callbackUri"], body.get("authentication"), "GET"
        )
    except callback.CallbackError as exc:
        LOG.info("Test GET of callbackUri failed (%s): %s", exc, exc.cause)
        raise CallbackTestFailed(reason=str(exc)) from exc
    if resp.status_code != 204:
        raise CallbackTestFailed(reason=f"it answered {resp.status_code}")


class SubscriptionController:
    def __init__(self, subscription_id: str) -> None:
        self.subscription_id = subscription_id

    def _row(self, rule: str):
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = subscriptions_db.get(
                session, self.subscription_id, common.scope(ctx)
            )
        common.authorize(f"{P}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> dict:
        return views.subscription(
            common.base_url(), self._row("subscription_show")
        )

    @index.when(method="DELETE", template="json")
    def delete(self) -> str:
        row = self._row("subscription_delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                subscriptions_db.delete(session, row["id"], common.scope(ctx))
                outbox.drop_for_subscription(session, row["id"])
        return common.empty(204)


class SubscriptionsController:
    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize(f"{P}:subscription_index")
        base = common.base_url()
        return listing.respond(
            api_listing.SUBSCRIPTIONS,
            common.scope(ctx),
            lambda row: views.subscription(base, row),
        )

    @index.when(method="POST", template="json")
    def create(self):
        ctx = common.context()
        common.authorize(f"{P}:subscription_create")
        body = validation.parse_json(
            pecan.request, schemas.LCCN_SUBSCRIPTION_REQUEST
        )
        auth = body.get("authentication")
        if auth:
            for needed, params in (
                ("BASIC", "paramsBasic"),
                ("OAUTH2_CLIENT_CREDENTIALS", "paramsOauth2ClientCredentials"),
            ):
                if needed in auth["authType"] and params not in auth:
                    raise exceptions.UnprocessableEntity(
                        f"authType {needed} needs {params}."
                    )
        callback.check_urls(body["callbackUri"], auth)
        base = common.base_url()
        fp = fingerprint(body)
        if cfg.CONF.notification.duplicate_subscription == "see_other":
            with db_api.reader(ctx) as session:
                dup = subscriptions_db.find_duplicate(
                    session, fp, common.scope(ctx)
                )
            if dup is not None:
                return common.empty(
                    303, f"{base}{views.LCM_PREFIX}/subscriptions/{dup['id']}"
                )
        if cfg.CONF.notification.test_callback_uri:
            _test_callback(body)
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                sub_id = subscriptions_db.insert(
                    session,
                    {
                        "callback_uri": body["callbackUri"],
                        "filter": body.get("filter"),
                        "verbosity": body.get("verbosity", "FULL"),
                        "authentication": crypto.seal(auth) if auth else None,
                        "fingerprint": fp,
                        "project_id": ctx.project_id,
                    },
                )
                row = subscriptions_db.get(session, sub_id, None)
        return common.created(
            f"{base}{views.LCM_PREFIX}/subscriptions/{sub_id}",
            views.subscription(base, row),
        )

    @pecan.expose()
    def _lookup(self, subscription_id, *remainder):
        return SubscriptionController(subscription_id), remainder
