"""Subscription resources shared by the SOL APIs (SOL013 clause 5.9):
``/vnflcm/v2/subscriptions`` and ``/vnfpkgm/v2/subscriptions``.

One :class:`SubscriptionKind` says what differs between them (table,
request schema, policy rules, representation, extra columns); the two
controllers below serve create (with the callback test and duplicate
detection), list, show and delete for any kind.
"""

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

import pecan
import webob
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import crypto, exceptions
from tacker_ng.api import etags, routing, validation
from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers.vnflcm import common, listing
from tacker_ng.db import api as db_api
from tacker_ng.db import notifications as outbox
from tacker_ng.db import reads
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.nfvo import callback

LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class SubscriptionKind:
    """What one SOL API's subscriptions are."""

    #: URI prefix of the API (``/vnflcm/v2``), for Location and links.
    prefix: str
    #: Policy rule prefix (``tacker_ng:vnflcm``).
    policy: str
    store: subscriptions_db.SubscriptionTable
    schema: dict[str, Any]
    list_resource: api_listing.ListResource
    render: Callable[[str, Mapping[str, Any]], dict[str, Any]]
    #: Columns beyond the common ones, from the validated body.
    extra_columns: Callable[[dict[str, Any]], dict[str, Any]] = lambda b: {}


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


def check_authentication(auth: dict | None) -> None:
    """422 when an authType lacks its parameters (SOL013 8.3.4)."""
    if not auth:
        return
    for needed, params in (
        ("BASIC", "paramsBasic"),
        ("OAUTH2_CLIENT_CREDENTIALS", "paramsOauth2ClientCredentials"),
    ):
        if needed in auth["authType"] and params not in auth:
            raise exceptions.UnprocessableEntity(
                f"authType {needed} needs {params}."
            )


def check_callback(body: dict) -> None:
    """400 unless the callbackUri answers the test GET with 204."""
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
    """``.../subscriptions/{subscriptionId}``: show, delete."""

    def __init__(self, kind: SubscriptionKind, subscription_id: str) -> None:
        self.kind = kind
        self.subscription_id = subscription_id

    def _row(self, rule: str):
        ctx = common.context()
        row = reads.run(
            lambda conn: self.kind.store.get(
                conn, self.subscription_id, common.scope(ctx)
            ),
            ctx,
        )
        common.authorize(f"{self.kind.policy}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> webob.Response:
        body = self.kind.render(
            common.base_url(), self._row("subscription_show")
        )
        return etags.json_response(pecan.request, pecan.response, body)

    @index.when(method="DELETE", template="json")
    def delete(self):
        row = self._row("subscription_delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                self.kind.store.delete(session, row["id"], common.scope(ctx))
                outbox.drop_for_subscription(session, row["id"])
        return common.empty(204)


class SubscriptionsController:
    """``.../subscriptions``: list, create."""

    def __init__(self, kind: SubscriptionKind) -> None:
        self.kind = kind

    @routing.resource()
    def index(self) -> webob.Response:
        ctx = common.context()
        common.authorize(f"{self.kind.policy}:subscription_index")
        base = common.base_url()
        return listing.respond(
            self.kind.list_resource,
            common.scope(ctx),
            lambda row: self.kind.render(base, row),
        )

    @index.when(method="POST", template="json")
    def create(self):
        kind = self.kind
        ctx = common.context()
        common.authorize(f"{kind.policy}:subscription_create")
        body = validation.parse_json(pecan.request, kind.schema)
        auth = body.get("authentication")
        check_authentication(auth)
        callback.check_urls(body["callbackUri"], auth)
        base = common.base_url()
        fp = fingerprint(body)
        if cfg.CONF.notification.duplicate_subscription == "see_other":
            with db_api.reader(ctx) as session:
                dup = kind.store.find_duplicate(session, fp, common.scope(ctx))
            if dup is not None:
                return common.empty(
                    303, f"{base}{kind.prefix}/subscriptions/{dup['id']}"
                )
        if cfg.CONF.notification.test_callback_uri:
            check_callback(body)
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                sub_id = kind.store.insert(
                    session,
                    {
                        "callback_uri": body["callbackUri"],
                        "filter": body.get("filter"),
                        "authentication": crypto.seal(auth) if auth else None,
                        "fingerprint": fp,
                        "project_id": ctx.project_id,
                        **kind.extra_columns(body),
                    },
                )
                row = kind.store.get(session, sub_id, None)
        return common.created(
            f"{base}{kind.prefix}/subscriptions/{sub_id}",
            kind.render(base, row),
        )

    @pecan.expose()
    def _lookup(self, subscription_id, *remainder):
        return SubscriptionController(self.kind, subscription_id), remainder
