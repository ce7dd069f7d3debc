"""Two projects: a project's PM jobs, reports and thresholds are not
visible or usable from the other, and another project's VNF instance is
as absent as a deleted one; readers read, only members write."""

from tacker_ng.tests.unit.vnfpm.conftest import (
    MERGE,
    V,
    app_for,
    make_instance,
)
from tacker_ng.tests.unit.vnfpm.test_pm_jobs import JOBS, job_request
from tacker_ng.tests.unit.vnfpm.test_thresholds import (
    THRESHOLDS,
    threshold_request,
)


def test_projects_do_not_see_each_others_pm(pm_conf, db):
    vnf_a = make_instance("proj-a")
    vnf_b = make_instance("proj-b")
    a = app_for(pm_conf, "proj-a")
    b = app_for(pm_conf, "proj-b")
    job = a.post_json(JOBS, job_request(vnf_a["id"]), headers=V).json
    th = a.post_json(
        THRESHOLDS, threshold_request(vnf_a["id"]), headers=V
    ).json

    # B cannot measure A's VNF: the same 422 as an id that never existed.
    taken = b.post_json(JOBS, job_request(vnf_a["id"]), headers=V, status=422)
    unknown = b.post_json(
        JOBS, job_request("no-such-vnf"), headers=V, status=422
    )
    assert taken.json["detail"].replace(vnf_a["id"], "X") == (
        unknown.json["detail"].replace("no-such-vnf", "X")
    )
    b.post_json(
        THRESHOLDS, threshold_request(vnf_a["id"]), headers=V, status=422
    )
    b.post_json(JOBS, job_request(vnf_b["id"]), headers=V, status=201)

    # B neither lists nor reads nor changes A's job or threshold.
    assert job["id"] not in {j["id"] for j in b.get(JOBS, headers=V).json}
    assert b.get(THRESHOLDS, headers=V).json == []
    for path in (f"{JOBS}/{job['id']}", f"{THRESHOLDS}/{th['id']}"):
        b.get(path, headers=V, status=404)
        b.patch_json(
            path, {"callbackUri": "http://127.0.0.1:9/b"}, headers=MERGE,
            status=404,
        )  # fmt: skip
        b.delete(path, headers=V, status=404)
        assert (
            a.get(path, headers=V).json["callbackUri"].endswith(("/pm", "/th"))
        )
    b.get(f"{JOBS}/{job['id']}/reports/any", headers=V, status=404)
    assert [j["id"] for j in a.get(JOBS, headers=V).json] == [job["id"]]


def test_readers_read_members_write(pm_conf, db):
    vnf = make_instance("proj-a")
    member = app_for(pm_conf, "proj-a")
    job = member.post_json(JOBS, job_request(vnf["id"]), headers=V).json
    reader = app_for(pm_conf, "proj-a", roles=("reader",))
    assert reader.get(f"{JOBS}/{job['id']}", headers=V).json["id"] == job["id"]
    assert len(reader.get(JOBS, headers=V).json) == 1
    forbidden = reader.post_json(
        JOBS, job_request(vnf["id"]), headers=V, status=403
    )
    assert forbidden.content_type == "application/problem+json"
    reader.delete(f"{JOBS}/{job['id']}", headers=V, status=403)
    reader.patch_json(
        f"{JOBS}/{job['id']}", {"callbackUri": "http://127.0.0.1:9/r"},
        headers=MERGE, status=403,
    )  # fmt: skip
    reader.post_json(
        THRESHOLDS, threshold_request(vnf["id"]), headers=V, status=403
    )
