"""The collector's pass: one Prometheus query per metric whatever the
number of jobs, thresholds and VNFs; each job keeps its own VNFs,
sub-objects and period; a failed query leaves its jobs for the next
pass; only INSTANTIATED instances are measured; shards are respected."""

import pytest

from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs, pm_thresholds, vnf_lcm
from tacker_ng.pm import collector, shards
from tacker_ng.tests.unit.pm.conftest import T0, S, store_job, store_threshold
from tacker_ng.tests.unit.pm.fake_prometheus import FakePrometheus
from tacker_ng.tests.unit.vnfpm.conftest import make_instance


def _series(vnf_id, value, vnfcs=("c1", "c2")):
    return [({"vnfInstanceId": vnf_id, "vnfcId": c}, value) for c in vnfcs]


def _collector(conf, prom, host="c-1", live=("c-1",)):
    return collector.Collector(host, lambda: list(live), prom, conf)


def _entry(row):
    return {
        "objectInstanceId": row["object_instance_id"],
        "subObjectInstanceId": row["sub_object_instance_id"],
        "performanceMetric": row["performance_metric"],
        "performanceValues": row["performance_values"],
    }


def _reports(job_id):
    with db_api.reader() as s:
        refs = pm_jobs.reports_of(s, [job_id])[job_id]
        out = []
        for ref in refs:
            report, rows = pm_jobs.get_report(s, job_id, ref["id"])
            out.append((report, [_entry(r) for r in rows]))
        return out


def _job(job_id):
    with db_api.reader() as s:
        return pm_jobs.get(s, job_id)


@pytest.fixture
def two(db):
    return make_instance("default"), make_instance("default")


def test_jobs_share_one_query_per_metric_and_keep_their_own_vnfs(conf, two):
    a, b = two
    metrics = {
        "performanceMetric": ["VCpuUsageMeanVnf", "VMemoryUsageMeanVnf"]
    }
    crit = {"collectionPeriod": 60, "reportingPeriod": 300, **metrics}
    job_a = store_job(a["id"], criteria=crit)
    # Created 20 s later: due 20 s later, still the same query.
    job_b = store_job(b["id"], criteria=crit, next_report_at=T0 + 320 * S)
    prom = FakePrometheus(_series(a["id"], 12.5) + _series(b["id"], 40.0))
    figures = _collector(conf, prom).run(T0 + 325 * S)
    assert figures["jobs"] == 2 and figures["reports"] == 2
    assert figures["queries"] == prom.queries == 2  # two metrics
    assert {kind for kind, _, _ in prom.sent} == {"range"}
    for job, vnf, value, end in ((job_a, a, 12.5, 300), (job_b, b, 40.0, 320)):
        ((report, entries),) = _reports(job["id"])
        assert report["period_end"] == T0 + end * S
        assert {e["objectInstanceId"] for e in entries} == {vnf["id"]}
        assert sorted(
            (e["performanceMetric"], e["subObjectInstanceId"]) for e in entries
        ) == [
            ("VCpuUsageMeanVnf", "c1"),
            ("VCpuUsageMeanVnf", "c2"),
            ("VMemoryUsageMeanVnf", "c1"),
            ("VMemoryUsageMeanVnf", "c2"),
        ]
        for entry in entries:
            # One value per collection period ending in the report's
            # period (a grid of 60 s from the epoch).
            assert [v["value"] for v in entry["performanceValues"]] == [
                value
            ] * 5
        assert _job(job["id"])["next_report_at"] == T0 + (end + 300) * S
    # Nothing due any more: no query.
    again = _collector(conf, prom).run(T0 + 330 * S)
    assert again["jobs"] == 0 and again["queries"] == 0


def test_sub_objects_suffixed_metrics_and_counters(conf, two):
    a, b = two
    job = store_job(
        a["id"],
        object_instance_ids=[a["id"], b["id"]],
        sub_object_instance_ids=["c2"],
        criteria={
            "performanceMetric": [f"VCpuUsageMeanVnf.{b['id']}"],
            "collectionPeriod": 300,
            "reportingPeriod": 300,
        },
    )
    prom = FakePrometheus(_series(a["id"], 1.0) + _series(b["id"], 2.0))
    _collector(conf, prom).run(T0 + 301 * S)
    ((_, entries),) = _reports(job["id"])
    assert [
        (
            e["objectInstanceId"],
            e["subObjectInstanceId"],
            e["performanceMetric"],
        )
        for e in entries
    ] == [(b["id"], "c2", f"VCpuUsageMeanVnf.{b['id']}")]
    assert entries[0]["performanceValues"][0]["value"] == 2.0

    cp_job = store_job(
        a["id"],
        object_type="VnfExtCp",
        criteria={
            "performanceMetric": ["ByteIncomingVnfExtCp"],
            "collectionPeriod": 300,
            "reportingPeriod": 300,
        },
    )
    prom = FakePrometheus(
        [({"vnfInstanceId": a["id"], "cpId": "ext-cp"}, 1234.6)]
    )
    _collector(conf, prom).run(T0 + 302 * S)
    ((_, entries),) = _reports(cp_job["id"])
    assert entries[0]["subObjectInstanceId"] == "ext-cp"
    assert entries[0]["performanceValues"][0]["value"] == 1235  # a count


def test_terminated_and_deleted_instances_are_not_measured(conf, two):
    a, b = two
    job = store_job(a["id"], object_instance_ids=[a["id"], b["id"], "gone"])
    with db_api.writer() as s:
        vnf_lcm.update_instance(
            s, b["id"], {"instantiation_state": "NOT_INSTANTIATED"}
        )
    prom = FakePrometheus(
        _series(a["id"], 5.0) + _series(b["id"], 6.0) + _series("gone", 7.0)
    )
    _collector(conf, prom).run(T0 + 301 * S)
    ((_, entries),) = _reports(job["id"])
    assert {e["objectInstanceId"] for e in entries} == {a["id"]}
    assert "gone" not in prom.sent[0][1] and b["id"] not in prom.sent[0][1]
    # A job left with no instance at all: no query, no report, moved on.
    lone = store_job(b["id"])
    figures = _collector(conf, prom).run(T0 + 302 * S)
    assert figures["reports"] == 0 and figures["queries"] == 0
    assert _reports(lone["id"]) == []
    assert _job(lone["id"])["next_report_at"] == T0 + 600 * S


def test_a_failed_query_leaves_the_job_for_the_next_pass(conf, two, caplog):
    a, _ = two
    job = store_job(a["id"])
    prom = FakePrometheus(_series(a["id"], 5.0), fail="parse error at char 7")
    figures = _collector(conf, prom).run(T0 + 301 * S)
    assert figures["failed_queries"] == 1 and figures["reports"] == 0
    assert "parse error at char 7" in caplog.text
    assert "Traceback" not in caplog.text
    assert _job(job["id"])["next_report_at"] == T0 + 300 * S
    prom.fail = None
    assert _collector(conf, prom).run(T0 + 311 * S)["reports"] == 1


def test_a_collector_reports_only_its_shards(conf, two):
    a, _ = two
    jobs = [store_job(a["id"]) for _ in range(12)]
    live = ("c-1", "c-2")
    mine = shards.owned("c-1", live)
    prom = FakePrometheus(_series(a["id"], 5.0))
    figures = _collector(conf, prom, "c-1", live).run(T0 + 301 * S)
    expected = [j for j in jobs if shards.shard_of(j["id"]) in mine]
    assert 0 < len(expected) < 12  # 12 random ids in one of two halves
    assert figures["reports"] == len(expected)
    other = _collector(conf, prom, "c-2", live).run(T0 + 301 * S)
    assert other["reports"] == 12 - len(expected)


def test_thresholds_one_query_per_metric_and_crossings_once(conf, two):
    a, b = two
    th_a = store_threshold(a["id"])
    th_b = store_threshold(b["id"], sub_object_instance_ids=["c1"])
    prom = FakePrometheus(_series(a["id"], 90.0) + _series(b["id"], 90.0))
    figures = _collector(conf, prom).run(T0 + 1 * S)
    assert figures["thresholds"] == 2 and figures["queries"] == 1
    assert prom.sent[0][0] == "instant"
    assert "[60s]" in prom.sent[0][1]  # [pm] threshold_interval
    assert figures["crossings"] == 3  # a: c1, c2; b: c1 only
    with db_api.reader() as s:
        assert (
            pm_thresholds.find(s, th_a["id"])["next_check_at"] == T0 + 61 * S
        )
        states = pm_thresholds.states(s, th_b["id"])
    assert [
        (x["sub_object_instance_id"], x["crossing_direction"]) for x in states
    ] == [("c1", "UP")]
    # Not due again before threshold_interval; then inside the band: none.
    assert _collector(conf, prom).run(T0 + 30 * S)["thresholds"] == 0
    prom.series = _series(a["id"], 80.0) + _series(b["id"], 80.0)
    again = _collector(conf, prom).run(T0 + 62 * S)
    assert again["thresholds"] == 2 and again["crossings"] == 0
    prom.series = _series(a["id"], 70.0) + _series(b["id"], 70.0)
    assert _collector(conf, prom).run(T0 + 123 * S)["crossings"] == 3
