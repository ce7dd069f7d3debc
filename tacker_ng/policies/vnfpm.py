"""Policy for the VNF performance management API (``/vnfpm/v2``): PM
jobs, their reports and thresholds. Readers of a project read its jobs,
reports and thresholds; members create, modify and delete them."""

from tacker_ng.policies import base

PREFIX = "tacker_ng:vnfpm"
READER = "rule:project_reader_or_admin"
MEMBER = "rule:project_member_or_admin"
JOBS = "/vnfpm/v2/pm_jobs"
JOB = f"{JOBS}/{{pmJobId}}"
REPORT = f"{JOB}/reports/{{reportId}}"
THRESHOLDS = "/vnfpm/v2/thresholds"
THRESHOLD = f"{THRESHOLDS}/{{thresholdId}}"

_RULES = [
    ("pm_job_create", MEMBER, "Create a PM job.", [("POST", JOBS)]),
    ("pm_job_index", READER, "List PM jobs.", [("GET", JOBS)]),
    ("pm_job_show", READER, "Show a PM job.", [("GET", JOB)]),
    (
        "pm_job_update",
        MEMBER,
        "Modify a PM job's callbackUri or authentication.",
        [("PATCH", JOB)],
    ),
    ("pm_job_delete", MEMBER, "Delete a PM job.", [("DELETE", JOB)]),
    (
        "pm_report_show",
        READER,
        "Read a performance report.",
        [("GET", REPORT)],
    ),
    (
        "threshold_create",
        MEMBER,
        "Create a threshold.",
        [("POST", THRESHOLDS)],
    ),
    ("threshold_index", READER, "List thresholds.", [("GET", THRESHOLDS)]),
    ("threshold_show", READER, "Show a threshold.", [("GET", THRESHOLD)]),
    (
        "threshold_update",
        MEMBER,
        "Modify a threshold's callbackUri or authentication.",
        [("PATCH", THRESHOLD)],
    ),
    (
        "threshold_delete",
        MEMBER,
        "Delete a threshold.",
        [("DELETE", THRESHOLD)],
    ),
]

rules = base.documented(PREFIX, _RULES)


def list_rules() -> list:
    return rules
