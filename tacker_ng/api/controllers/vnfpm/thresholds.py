"""``/vnfpm/v2/thresholds`` (SOL003 6.4.5, 6.4.6): create (with the
callback test), list (attribute filter in SQL, paged), read, modify the
callback (merge patch), delete.

A collector on the conductors evaluates each threshold every
``[pm] threshold_interval`` seconds (:mod:`tacker_ng.pm.crossings`).
"""

import uuid

import pecan
from oslo_config import cfg

from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import common, listing
from tacker_ng.api.controllers.vnfpm import callbacks
from tacker_ng.api.controllers.vnfpm import common as pm_common
from tacker_ng.api.schemas import vnfpm as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import field_maps_pm
from tacker_ng.db import pm_thresholds as thresholds_db
from tacker_ng.db.types import utcnow
from tacker_ng.pm import bodies, rules, shards

P = pm_common.P
THRESHOLDS = api_listing.ListResource(
    "Threshold", field_maps_pm.THRESHOLD, None
)


class ThresholdController:
    """``/vnfpm/v2/thresholds/{thresholdId}``: read, modify, delete."""

    def __init__(self, threshold_id: str) -> None:
        self.threshold_id = threshold_id

    def _row(self, rule: str):
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = thresholds_db.get(
                session, self.threshold_id, common.scope(ctx)
            )
        common.authorize(f"{P}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> dict:
        row = self._row("threshold_show")
        return bodies.threshold_view(common.base_url(), row)

    @index.when(method="PATCH", template="json")
    def patch(self) -> dict:
        row = self._row("threshold_update")
        body = validation.parse_json(
            pecan.request,
            schemas.THRESHOLD_MODIFICATIONS,
            validation.MERGE_PATCH,
        )
        changes = callbacks.modified(row, body)
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                thresholds_db.modify(
                    session, self.threshold_id, common.scope(ctx), changes
                )
        return bodies.modifications_view(body)

    @index.when(method="DELETE", template="json")
    def delete(self):
        self._row("threshold_delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                thresholds_db.delete(
                    session, self.threshold_id, common.scope(ctx)
                )
        return common.empty(204)


class ThresholdsController:
    """``/vnfpm/v2/thresholds``: list, create."""

    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize(f"{P}:threshold_index")
        base = common.base_url()
        return listing.respond(
            THRESHOLDS,
            common.scope(ctx),
            lambda row: bodies.threshold_view(base, row),
        )

    @index.when(method="POST", template="json")
    def create(self) -> dict:
        ctx = common.context()
        common.authorize(f"{P}:threshold_create")
        body = validation.parse_json(
            pecan.request, schemas.CREATE_THRESHOLD_REQUEST
        )
        rules.check_threshold(
            body,
            pm_common.table(),
            min_hysteresis=cfg.CONF.pm.min_hysteresis,
        )
        instance_id = body["objectInstanceId"]
        rules.check_objects(
            body["objectType"],
            [instance_id],
            body.get("subObjectInstanceIds"),
            pm_common.instances([instance_id]),
            where="objectInstanceId",
        )
        sealed = callbacks.accept(
            body["callbackUri"], body.get("authentication")
        )
        threshold_id = str(uuid.uuid4())
        now = utcnow()
        values = {
            "id": threshold_id,
            "object_type": body["objectType"],
            "object_instance_id": instance_id,
            "sub_object_instance_ids": body.get("subObjectInstanceIds"),
            "criteria": body["criteria"],
            "callback_uri": body["callbackUri"],
            "authentication": sealed,
            "project_id": ctx.project_id,
            "shard": shards.shard_of(threshold_id),
            # Evaluated at the collectors' next pass.
            "next_check_at": now,
            "created_at": now,
        }
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                thresholds_db.insert(session, values)
                row = thresholds_db.get(session, threshold_id)
        base = common.base_url()
        return common.created(
            bodies.threshold_href(base, threshold_id),
            bodies.threshold_view(base, row),
        )

    @pecan.expose()
    def _lookup(self, threshold_id, *remainder):
        return ThresholdController(threshold_id), remainder
