"""``/vnffm/v1/alarms`` (SOL003 7.4.2, 7.4.3): list with an attribute
filter (in SQL, paged), show, and PATCH to acknowledge.

Alarms are raised and cleared by the conductors' observer; the NFVO only
reads them and changes ``ackState``.
"""

import pecan

from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import common, listing
from tacker_ng.api.schemas import vnffm as schemas
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import field_maps_fm
from tacker_ng.nfvo import fm_notify

P = "tacker_ng:vnffm"
ALARMS = api_listing.ListResource("Alarm", field_maps_fm.ALARM, None)


class AlarmController:
    """``/vnffm/v1/alarms/{alarmId}``: show, acknowledge."""

    def __init__(self, alarm_id: str) -> None:
        self.alarm_id = alarm_id

    def _row(self, rule: str):
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = alarms_db.get(session, self.alarm_id, common.scope(ctx))
        common.authorize(f"{P}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> dict:
        return fm_notify.alarm_view(common.base_url(), self._row("alarm_show"))

    @index.when(method="PATCH", template="json")
    def patch(self) -> dict:
        self._row("alarm_update")
        # SOL003 7.4.3.3.4: the body is an AlarmModifications merge patch
        # (RFC 7396); any other Content-Type is 415.
        body = validation.parse_json(
            pecan.request, schemas.ALARM_MODIFICATIONS, validation.MERGE_PATCH
        )
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                alarms_db.set_ack_state(
                    session, self.alarm_id, body["ackState"], common.scope(ctx)
                )
        return {"ackState": body["ackState"]}


class AlarmsController:
    """``/vnffm/v1/alarms``: list."""

    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize(f"{P}:alarm_index")
        base = common.base_url()
        return listing.respond(
            ALARMS,
            common.scope(ctx),
            lambda row: fm_notify.alarm_view(base, row),
        )

    @pecan.expose()
    def _lookup(self, alarm_id, *remainder):
        return AlarmController(alarm_id), remainder
