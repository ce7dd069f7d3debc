"""``/vnfpm/v2/pm_jobs``: create (201 + Location, callback test, write-only
authentication), list with filters, selectors and paging in SQL, read,
modify as a merge patch, delete; reports; bad input -> ProblemDetails."""

import pytest

from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs as pm_jobs_db
from tacker_ng.pm import bodies, reporting
from tacker_ng.tests.functional.receiver import Receiver
from tacker_ng.tests.unit.vnfpm.conftest import MERGE, V, make_instance

JOBS = "/vnfpm/v2/pm_jobs"
PROBLEM = "application/problem+json"


def job_request(instance_id, **changes):
    body = {
        "objectType": "Vnf",
        "objectInstanceIds": [instance_id],
        "criteria": {
            "performanceMetric": ["VCpuUsageMeanVnf"],
            "performanceMetricGroup": ["VirtualisedComputeResource"],
            "collectionPeriod": 60,
            "reportingPeriod": 300,
        },
        "callbackUri": "http://127.0.0.1:9/pm",
    }
    body.update(changes)
    return body


def test_create_show_list_modify_delete(api, instance):
    body = job_request(
        instance["id"],
        # Tacker's form: the metric named for one object instance.
        criteria={
            "performanceMetric": [f"VCpuUsageMeanVnf.{instance['id']}"],
            "collectionPeriod": 60,
            "reportingPeriod": 300,
        },
        authentication={
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "pm-secret"},
        },
    )
    resp = api.post_json(JOBS, body, headers=V)
    assert resp.status_int == 201
    assert resp.headers["Version"] == "2.1.0"
    job = resp.json
    assert resp.headers["Location"] == job["_links"]["self"]["href"]
    assert resp.headers["Location"].endswith(f"{JOBS}/{job['id']}")
    assert "pm-secret" not in resp.text and "authentication" not in job
    assert job["objectInstanceIds"] == [instance["id"]]
    assert job["criteria"] == body["criteria"]
    assert job["reports"] == []
    assert job["_links"]["objects"] == [
        {"href": f"http://localhost/vnflcm/v2/vnf_instances/{instance['id']}"}
    ]
    shown = api.get(f"{JOBS}/{job['id']}", headers=V).json
    assert shown == job

    listed = api.get(JOBS, headers=V).json
    # SOL003 6.4.2.3.2: reports is excluded unless asked for.
    assert listed == [{k: v for k, v in job.items() if k != "reports"}]
    assert api.get(f"{JOBS}?all_fields", headers=V).json == [job]
    assert (
        api.get(f"{JOBS}?fields=reports", headers=V).json[0]["reports"] == []
    )
    brief = api.get(f"{JOBS}?exclude_fields=criteria", headers=V).json[0]
    assert "criteria" not in brief and brief["reports"] == []

    patch = {
        "callbackUri": "http://127.0.0.1:9/moved",
        "authentication": {
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "new-secret"},
        },
    }
    resp = api.patch_json(f"{JOBS}/{job['id']}", patch, headers=MERGE)
    assert resp.json == {"callbackUri": "http://127.0.0.1:9/moved"}
    assert "new-secret" not in resp.text
    with db_api.reader() as s:
        row = pm_jobs_db.get(s, job["id"])
    assert row["callback_uri"] == "http://127.0.0.1:9/moved"
    password = row["authentication"]["paramsBasic"]["password"]
    assert password.startswith("fernet:")  # sealed at rest
    # Only the authentication, then none at all (merge patch null).
    resp = api.patch_json(
        f"{JOBS}/{job['id']}", {"authentication": None}, headers=MERGE
    )
    assert resp.json == {}
    with db_api.reader() as s:
        assert pm_jobs_db.get(s, job["id"])["authentication"] is None

    api.delete(f"{JOBS}/{job['id']}", headers=V, status=204)
    gone = api.get(f"{JOBS}/{job['id']}", headers=V, status=404)
    assert gone.content_type == PROBLEM and job["id"] in gone.json["detail"]
    api.delete(f"{JOBS}/{job['id']}", headers=V, status=404)


def test_filters_and_paging_in_sql(api, instance, conf):
    other = make_instance("default", vnfcs=("x1",))
    made = []
    for inst, object_type, metric in (
        (instance, "Vnf", "VCpuUsageMeanVnf"),
        (instance, "Vnfc", "VMemoryUsageMeanVnf"),
        (other, "Vnf", "VDiskUsagePeakVnf"),
    ):
        body = job_request(
            inst["id"],
            objectType=object_type,
            criteria={
                "performanceMetric": [metric],
                "collectionPeriod": 30,
                "reportingPeriod": 60,
            },
        )
        made.append(api.post_json(JOBS, body, headers=V).json["id"])

    def ids(query):
        return [j["id"] for j in api.get(f"{JOBS}?{query}", headers=V).json]

    assert ids(f"filter=(eq,objectInstanceIds,{other['id']})") == [made[2]]
    assert ids("filter=(eq,objectType,Vnfc)") == [made[1]]
    assert ids("filter=(eq,criteria/performanceMetric,VCpuUsageMeanVnf)") == [
        made[0]
    ]
    assert ids("filter=(gte,criteria/reportingPeriod,60)") == made
    assert ids(
        f"filter=(neq,objectInstanceIds,{other['id']});(eq,objectType,Vnf)"
    ) == [made[0]]
    bad = api.get(f"{JOBS}?filter=(eq,reports/href,x)", headers=V, status=400)
    assert bad.content_type == PROBLEM
    assert "not supported in filters of PmJob" in bad.json["detail"]
    api.get(f"{JOBS}?filter=(eq,objectType,Pnf)", headers=V, status=400)
    api.get(f"{JOBS}?fields=nope", headers=V, status=400)

    conf.set_override("max_page_size", 2, group="api")
    first = api.get(JOBS, headers=V)
    assert [j["id"] for j in first.json] == made[:2]
    link = first.headers["Link"]
    assert link.endswith('rel="next"')
    next_url = link[1 : link.index(">")]
    second = api.get(next_url.replace("http://localhost", ""), headers=V)
    assert [j["id"] for j in second.json] == made[2:]
    assert "Link" not in second.headers


def _publish(job_id, instance_id):
    with db_api.reader() as s:
        job = pm_jobs_db.get(s, job_id)
    entries = [
        bodies.report_entry(
            "Vnf", instance_id, "c1", "VCpuUsageMeanVnf",
            [{"timeStamp": job["next_report_at"], "value": 42.0}],
        )
    ]  # fmt: skip
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            return reporting.publish_report(
                s, job, entries, job["next_report_at"]
            )
    raise AssertionError("unreachable")


def test_reports_of_a_job(api, instance):
    job = api.post_json(JOBS, job_request(instance["id"]), headers=V).json
    report_id = _publish(job["id"], instance["id"])
    shown = api.get(f"{JOBS}/{job['id']}", headers=V).json
    (ref,) = shown["reports"]
    assert ref["href"].endswith(f"{JOBS}/{job['id']}/reports/{report_id}")
    assert ref["readyTime"].endswith("Z") and ref["expiryTime"].endswith("Z")
    listed = api.get(f"{JOBS}?all_fields", headers=V).json
    assert listed[0]["reports"] == [ref]
    report = api.get(ref["href"].replace("http://localhost", ""), headers=V)
    assert report.json == {
        "entries": [
            {
                "objectType": "Vnf",
                "objectInstanceId": instance["id"],
                "subObjectInstanceId": "c1",
                "performanceMetric": "VCpuUsageMeanVnf",
                "performanceValues": [
                    {"timeStamp": ref["readyTime"], "value": 42.0}
                ],
            }
        ]
    }
    api.get(f"{JOBS}/{job['id']}/reports/nope", headers=V, status=404)
    api.get(f"{JOBS}/nope/reports/{report_id}", headers=V, status=404)
    api.get(f"{JOBS}/{job['id']}/reports", headers=V, status=404)
    api.delete(
        ref["href"].replace("http://localhost", ""), headers=V, status=405
    )


@pytest.mark.parametrize(
    ("change", "status", "detail"),
    [
        ({"objectType": "Pnf"}, 400, "objectType"),
        ({"objectInstanceIds": []}, 400, "objectInstanceIds"),
        ({"callbackUri": "ftp://nfvo/cb"}, 400, "callbackUri"),
        ({"metadata": {"a": 1}}, 400, "metadata"),
        ({"criteria": {"collectionPeriod": 60}}, 400, "criteria"),
        (
            {
                "criteria": {
                    "performanceMetric": ["X"],
                    "collectionPeriod": 60,
                    "reportingPeriod": 60,
                    "extra": 1,
                }
            },
            400,
            "extra",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": ["VCpuUsageMeanVnf"],
                    "collectionPeriod": "60",
                    "reportingPeriod": 60,
                }
            },
            400,
            "collectionPeriod",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": ["VCpuUsageAverage"],
                    "collectionPeriod": 60,
                    "reportingPeriod": 60,
                }
            },
            422,
            "not a performance metric",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetricGroup": ["VnfExternalCp"],
                    "collectionPeriod": 60,
                    "reportingPeriod": 60,
                }
            },
            422,
            "performanceMetricGroup",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": ["VCpuUsageMeanVnf"],
                    "collectionPeriod": 1,
                    "reportingPeriod": 60,
                }
            },
            422,
            "collectionPeriod",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": ["VCpuUsageMeanVnf"],
                    "collectionPeriod": 60,
                    "reportingPeriod": 90,
                }
            },
            422,
            "multiple",
        ),  # fmt: skip
        (
            {
                "criteria": {
                    "performanceMetric": ["VCpuUsageMeanVnf"],
                    "collectionPeriod": 60,
                    "reportingPeriod": 60,
                    "reportingBoundary": "2020-01-01T00:00:00Z",
                }
            },
            422,
            "reportingBoundary",
        ),  # fmt: skip
        ({"objectInstanceIds": ["no-such-vnf"]}, 422, "does not exist"),
        ({"subObjectInstanceIds": ["c9"]}, 422, "not a VNFC"),
        (
            {"authentication": {"authType": ["BASIC"]}},
            422,
            "paramsBasic",
        ),
        (
            {"authentication": {"authType": ["OAUTH2_CLIENT_CERT"]}},
            400,
            "authType",
        ),
    ],
)
def test_bad_requests_are_problem_details(
    api, instance, change, status, detail
):
    body = job_request(instance["id"], **change)
    resp = api.post_json(JOBS, body, headers=V, status=status)
    assert resp.content_type == PROBLEM
    assert resp.json["status"] == status
    assert detail in resp.json["detail"]
    assert api.get(JOBS, headers=V).json == []


def test_sub_objects_are_the_instances_vnfcs(api, instance, db):
    body = job_request(
        instance["id"], objectType="Vnfc", subObjectInstanceIds=["c2"]
    )
    job = api.post_json(JOBS, body, headers=V).json
    assert job["subObjectInstanceIds"] == ["c2"]
    other = make_instance("default")
    two = job_request(
        instance["id"],
        objectInstanceIds=[instance["id"], other["id"]],
        subObjectInstanceIds=["c2"],
    )
    two["criteria"]["performanceMetric"] = ["VCpuUsageMeanVnf"]
    resp = api.post_json(JOBS, two, headers=V, status=422)
    assert "exactly one" in resp.json["detail"]
    idle = make_instance("default", instantiated=False)
    resp = api.post_json(
        JOBS,
        job_request(idle["id"], criteria={
            "performanceMetric": ["VCpuUsageMeanVnf"],
            "collectionPeriod": 60, "reportingPeriod": 60,
        }),
        headers=V,
        status=422,
    )  # fmt: skip
    assert "not instantiated" in resp.json["detail"]


def test_modifications_are_a_merge_patch(api, instance):
    job = api.post_json(JOBS, job_request(instance["id"]), headers=V).json
    path = f"{JOBS}/{job['id']}"
    for content_type in ("application/json", "text/plain"):
        resp = api.patch(
            path,
            '{"callbackUri": "http://127.0.0.1:9/x"}',
            headers={**V, "Content-Type": content_type},
            status=415,
        )
        assert resp.content_type == PROBLEM
    api.patch_json(path, {}, headers=MERGE, status=400)
    api.patch_json(path, {"objectType": "Vnfc"}, headers=MERGE, status=400)
    api.patch_json(path, {"callbackUri": "nope"}, headers=MERGE, status=400)
    api.patch_json(
        f"{JOBS}/nope",
        {"callbackUri": "http://x/y"},
        headers=MERGE,
        status=404,
    )
    api.put_json(path, {}, headers=V, status=405)
    assert api.get(path, headers=V).json["callbackUri"] == job["callbackUri"]


def test_version_header(api, instance):
    api.get(JOBS, status=400)
    resp = api.get(JOBS, headers={"Version": "2.0.0"}, status=406)
    assert "2.1.0" in resp.json["detail"]
    assert api.get("/vnfpm/v2/api_versions").json == {
        "uriPrefix": "/vnfpm/v2",
        "apiVersions": [{"version": "2.1.0", "isDeprecated": False}],
    }
    assert api.get("/vnfpm/api_versions").json["uriPrefix"] == "/vnfpm"
    apis = {a["name"]: a for a in api.get("/").json["apis"]}
    assert apis["vnfpm"]["uriPrefix"] == "/vnfpm/v2"


def test_the_callback_must_answer_the_test_get(api, instance, pm_conf):
    pm_conf.set_override("test_callback_uri", True, group="notification")
    with Receiver("nfvo", "cb-pass") as nfvo:
        body = job_request(instance["id"], callbackUri=nfvo.url)
        refused = api.post_json(JOBS, body, headers=V, status=400)
        assert "401" in refused.json["detail"]
        body["authentication"] = {
            "authType": ["BASIC"],
            "paramsBasic": {"userName": "nfvo", "password": "cb-pass"},
        }
        job = api.post_json(JOBS, body, headers=V).json
        # A new URI that does not answer is refused; the job keeps its own.
        resp = api.patch_json(
            f"{JOBS}/{job['id']}",
            {"callbackUri": "http://127.0.0.1:9/dead"},
            headers=MERGE,
            status=400,
        )
        assert "test GET" in resp.json["detail"]
        # The stored (sealed) credentials still open the receiver.
        moved = nfvo.url.replace("/notify", "/other")
        api.patch_json(
            f"{JOBS}/{job['id']}", {"callbackUri": moved}, headers=MERGE
        )
    assert api.get(f"{JOBS}/{job['id']}", headers=V).json["callbackUri"] == (
        moved
    )
