"""``/vnfpm/v2/pm_jobs`` (SOL003 6.4.2-6.4.4): create (with the callback
test), list (attribute filter and selectors in SQL, paged; ``reports``
left out unless asked for), read, modify the callback (merge patch),
delete; and ``/pm_jobs/{pmJobId}/reports/{reportId}``.

The API only stores the job: a collector on the conductors measures it
and publishes its reports (:mod:`tacker_ng.pm.reporting`).
"""

import uuid

import pecan
from oslo_config import cfg

from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, selectors, validation
from tacker_ng.api.controllers.vnflcm import common
from tacker_ng.api.controllers.vnfpm import callbacks
from tacker_ng.api.controllers.vnfpm import common as pm_common
from tacker_ng.api.schemas import vnfpm as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import field_maps_pm
from tacker_ng.db import listing as db_listing
from tacker_ng.db import pm_jobs as pm_jobs_db
from tacker_ng.db.types import utcnow
from tacker_ng.pm import bodies, rules, schedule, shards

P = pm_common.P
_COMPLEX = "objectInstanceIds subObjectInstanceIds criteria reports"
#: SOL003 6.4.2.3.2: ``reports`` is left out unless selected.
PM_JOB_SELECTORS = selectors.Spec(
    "PmJob",
    frozenset(f"id objectType callbackUri _links {_COMPLEX}".split()),
    frozenset(_COMPLEX.split()),
    frozenset({"reports"}),
)
PM_JOBS = api_listing.ListResource(
    "PmJob", field_maps_pm.PM_JOB, PM_JOB_SELECTORS
)


class ReportController:
    """``.../pm_jobs/{pmJobId}/reports/{reportId}``: read."""

    def __init__(self, job_id: str, report_id: str) -> None:
        self.job_id = job_id
        self.report_id = report_id

    @routing.resource()
    def index(self) -> dict:
        ctx = common.context()
        with db_api.reader(ctx) as session:
            job = pm_jobs_db.get(session, self.job_id, common.scope(ctx))
            common.authorize(f"{P}:pm_report_show", job["project_id"])
            _, entries = pm_jobs_db.get_report(
                session, self.job_id, self.report_id
            )
        return bodies.performance_report_view(entries)


class ReportsController:
    """``.../pm_jobs/{pmJobId}/reports``: only its members are resources."""

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id

    @pecan.expose()
    def _lookup(self, report_id, *remainder):
        return ReportController(self.job_id, report_id), remainder


class PmJobController:
    """``/vnfpm/v2/pm_jobs/{pmJobId}``: read, modify, delete."""

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self.reports = ReportsController(job_id)

    def _row(self, rule: str):
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = pm_jobs_db.get(session, self.job_id, common.scope(ctx))
        common.authorize(f"{P}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> dict:
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = pm_jobs_db.get(session, self.job_id, common.scope(ctx))
            reports = pm_jobs_db.reports_of(session, [row["id"]])
        common.authorize(f"{P}:pm_job_show", row["project_id"])
        return bodies.pm_job_view(common.base_url(), row, reports[row["id"]])

    @index.when(method="PATCH", template="json")
    def patch(self) -> dict:
        row = self._row("pm_job_update")
        body = validation.parse_json(
            pecan.request, schemas.PM_JOB_MODIFICATIONS, validation.MERGE_PATCH
        )
        changes = callbacks.modified(row, body)
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                pm_jobs_db.modify(
                    session, self.job_id, common.scope(ctx), changes
                )
        return bodies.modifications_view(body)

    @index.when(method="DELETE", template="json")
    def delete(self):
        self._row("pm_job_delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                pm_jobs_db.delete(session, self.job_id, common.scope(ctx))
        return common.empty(204)


def _page(base: str, project_id: str | None) -> list[dict]:
    """One page of PmJobs; the reports of the page's jobs in one more
    statement, and only when the selectors keep them."""
    request = pecan.request
    query = api_listing.parse_list_query(request, PM_JOBS)

    def reads(attribute: str) -> bool:
        # _links.objects is made of objectInstanceIds: always read them.
        return attribute == "objectInstanceIds" or query.includes(attribute)

    with db_api.read_connection(request.context) as conn:
        rows, marker = db_listing.page(
            conn,
            PM_JOBS.fields,
            reads,
            project_id,
            query.filter,
            query.marker,
            query.limit,
        )
        reports = None
        if query.includes("reports"):
            reports = pm_jobs_db.reports_of(conn, [r["id"] for r in rows])
    link = api_listing.link_header(request, marker)
    if link:
        pecan.response.headers["Link"] = link
    views = [
        bodies.pm_job_view(
            base, row, None if reports is None else reports[row["id"]]
        )
        for row in rows
    ]
    if query.select_needed():
        return [query.select(view) for view in views]
    return views


class PmJobsController:
    """``/vnfpm/v2/pm_jobs``: list, create."""

    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize(f"{P}:pm_job_index")
        return _page(common.base_url(), common.scope(ctx))

    @index.when(method="POST", template="json")
    def create(self) -> dict:
        ctx = common.context()
        common.authorize(f"{P}:pm_job_create")
        body = validation.parse_json(
            pecan.request, schemas.CREATE_PM_JOB_REQUEST
        )
        now = utcnow()
        pm = cfg.CONF.pm
        boundary = rules.check_pm_job(
            body,
            pm_common.table(),
            min_collection_period=pm.min_collection_period,
            max_reporting_period=pm.max_reporting_period,
            now=now,
        )
        rules.check_objects(
            body["objectType"],
            body["objectInstanceIds"],
            body.get("subObjectInstanceIds"),
            pm_common.instances(body["objectInstanceIds"]),
        )
        sealed = callbacks.accept(
            body["callbackUri"], body.get("authentication")
        )
        job_id = str(uuid.uuid4())
        values = {
            "id": job_id,
            "object_type": body["objectType"],
            "object_instance_ids": body["objectInstanceIds"],
            "sub_object_instance_ids": body.get("subObjectInstanceIds"),
            "criteria": body["criteria"],
            "callback_uri": body["callbackUri"],
            "authentication": sealed,
            "project_id": ctx.project_id,
            "shard": shards.shard_of(job_id),
            "next_report_at": schedule.first_due(
                now, body["criteria"]["reportingPeriod"], boundary
            ),
            "reporting_boundary": boundary,
            "created_at": now,
        }
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                pm_jobs_db.insert(session, values)
                row = pm_jobs_db.get(session, job_id)
        base = common.base_url()
        return common.created(
            bodies.job_href(base, job_id), bodies.pm_job_view(base, row, [])
        )

    @pecan.expose()
    def _lookup(self, job_id, *remainder):
        return PmJobController(job_id), remainder
