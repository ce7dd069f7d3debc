"""SOL003 VNF performance management end to end on a CNF: a real
Prometheus scrapes the pods that tacker-ng's observer discovered, and the
conductor's collector turns them into reports and threshold crossings.

tacker-ng-api + one conductor (RabbitMQ, MariaDB), the cnf_deployment
sample on the Kubernetes simulator, Debian's Prometheus with a scrape
job ``kubernetes`` on ``[pm] file_sd_dir``/kubernetes (the simulator's
CA and token: pods are scraped through the API server's pod proxy).
Each pod serves node-exporter series whose values the test sets:

* the observer writes one target file for the VNF, a target per pod
  labelled with the VNF and VNFC ids; Prometheus scrapes them all;
* a PM job on VMemoryUsageMeanVnf: the report (announced by a
  PerformanceInformationAvailableNotification) has an entry per VNFC
  with exactly the value the pods served, a value per collection period;
* a threshold on the same metric: one pod's load over the band ->
  exactly one ThresholdCrossedNotification UP for that VNFC, back under
  it -> one DOWN; the other VNFCs never cross;
* terminate: the target file goes, the targets with it.

The closed loop (``scalingRules`` in the instantiate request, on VDU1's
CPU): a load step (90 %) -> one automatic SCALE_OUT
(isAutomaticInvocation) through the normal LCM path; the load at the
scale-in threshold (30 % on both pods, which would be 60 % on one, over
the scale-out threshold) -> no scale for a window longer than the
cooldown (no flapping); the load falling (5 %) -> one automatic
SCALE_IN, after the cooldown.
"""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Iterator

import pytest

from tacker_ng.pm import measurements
from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional.infra.kubernetes import cnf
from tacker_ng.tests.functional.receiver import Receiver

PM = {"Version": "2.1.0"}
GIB = 1 << 30
#: Collection period of the job (s): the scrape interval is 1 s.
COLLECT = 5
REPORT = 10
#: Automatic scaling's measurement window (s): 5 scrapes.
WINDOW = 5
COOLDOWN = 15
#: Longest wait for something the conductor does within seconds when the
#: machine is idle (a loaded 2-core CI machine is several times slower).
WAIT = 90
#: VDU1 (1 pod at level 0, vdu1_aspect adds one per step): out at 55 %,
#: in at 30 %, one step, at most level 1.
RULE = {
    "metric": "VCpuUsageMeanVnf",
    "aspectId": "vdu1_aspect",
    "scaleOutThreshold": 55,
    "scaleInThreshold": 30,
    "cooldown": COOLDOWN,
    "maxScaleLevel": 1,
    "vduIds": ["VDU1"],
}


def _memory(total: int, available: int) -> dict:
    return {"memory": {"MemTotal": total, "MemAvailable": available}}


@pytest.fixture(scope="module")
def pm_nfvo(prometheus, simk8s, tmp_path_factory) -> Iterator[tuple]:
    tmp = tmp_path_factory.mktemp("pm-cnf")
    token = tmp / "simk8s-token"
    token.write_text(simk8s.token)
    prometheus.add_job(
        "kubernetes",
        scheme="https",
        tls_config={"ca_file": simk8s.ca_path},
        authorization={"credentials_file": str(token)},
    )
    extra = {
        "kubernetes": cnf.KUBERNETES_OPTS,
        "convergence": {"observe_interval": 1},
        "autoscale": {"interval": 2, "window": WINDOW},
        "pm": {
            "prometheus_url": prometheus.url,
            "file_sd_dir": str(prometheus.sd_dir),
            "collect_interval": 1,
            "threshold_interval": 5,
            "min_collection_period": 1,
        },
    }
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra, api_workers=1
        ) as dep,
        Receiver() as receiver,
    ):
        pkg = cnf.lcm_fixtures.onboard_via_api(
            dep, cnf.builder.build_csar_bytes(cnf.SAMPLE), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        yield dep, dep.client(), pkg["vnfdId"], receiver


def _notified(receiver, kind: str, count: int, timeout: float, **match):
    def found():
        got = [
            n
            for n in list(receiver.notifications)
            if n.get("notificationType") == kind
            and all(n.get(k) == v for k, v in match.items())
        ]
        return got if len(got) >= count else None

    return cnf.until(f"{count} {kind} {match}", found, timeout)


def _measured(prometheus, vnf_id: str, window: int) -> dict[str, float]:
    query = measurements.render(
        measurements.DEFAULTS["VMemoryUsageMeanVnf"].query, [vnf_id], window
    )
    return {
        s["metric"]["vnfcId"]: float(s["value"][1])
        for s in prometheus.query(query)
    }


def test_reports_and_threshold_crossings_from_what_pods_serve(
    pm_nfvo, prometheus, simk8s
):
    dep, client, vnfd_id, receiver = pm_nfvo
    vnf = cnf.Cnf(client, vnfd_id, simk8s)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    vnfcs = {v["id"]: v["computeResource"]["resourceId"] for v in vnf.vnfcs()}
    assert len(vnfcs) >= 2
    for pod in vnfcs.values():
        simk8s.control.pod_metrics(
            vnf.namespace, pod, _memory(8 * GIB, 2 * GIB)
        )
    # The observer's target file: one target per pod, the VNF's labels.
    sd_file = prometheus.sd_dir / "kubernetes" / f"{vnf.id}.json"
    cnf.until("the VNF's target file", sd_file.exists, WAIT)
    groups = json.loads(sd_file.read_text())
    assert {g["labels"]["vnfcId"] for g in groups} == set(vnfcs)
    assert {g["labels"]["vnfInstanceId"] for g in groups} == {vnf.id}
    prometheus.wait_targets(
        len(vnfcs), timeout=WAIT, job="kubernetes", vnfInstanceId=vnf.id
    )
    # Values stable over a whole collection period before the job starts.
    cnf.until(
        "75 % memory use over a collection period, every VNFC",
        lambda: (
            _measured(prometheus, vnf.id, COLLECT)
            == dict.fromkeys(vnfcs, 75.0)
        ),
        30,
    )

    job = client.post(
        "/vnfpm/v2/pm_jobs",
        {
            "objectType": "Vnf",
            "objectInstanceIds": [vnf.id],
            "criteria": {
                "performanceMetric": ["VMemoryUsageMeanVnf"],
                "collectionPeriod": COLLECT,
                "reportingPeriod": REPORT,
            },
            "callbackUri": receiver.url,
        },
        headers=PM,
        validate=False,
    )
    assert job.status_code == 201, job.text
    job_id = job.json()["id"]
    (ready, *_) = _notified(
        receiver,
        "PerformanceInformationAvailableNotification",
        1,
        REPORT + WAIT,
        pmJobId=job_id,
    )
    assert ready["objectInstanceId"] == vnf.id
    assert set(ready["subObjectInstanceIds"]) == set(vnfcs)
    report = client.get(
        ready["_links"]["performanceReport"]["href"].split(dep.url, 1)[1],
        headers=PM,
        validate=False,
    )
    assert report.status_code == 200, report.text
    entries = report.json()["entries"]
    assert {e["subObjectInstanceId"] for e in entries} == set(vnfcs)
    for entry in entries:
        assert entry["objectType"] == "Vnf"
        assert entry["objectInstanceId"] == vnf.id
        assert entry["performanceMetric"] == "VMemoryUsageMeanVnf"
        # One value per collection period ending within the report's.
        values = [v["value"] for v in entry["performanceValues"]]
        assert values == [75.0] * (REPORT // COLLECT), entry

    # A threshold: 80 % +- 2. One pod goes to 90 %: UP for it alone.
    created = client.post(
        "/vnfpm/v2/thresholds",
        {
            "objectType": "Vnf",
            "objectInstanceId": vnf.id,
            "criteria": {
                "performanceMetric": "VMemoryUsageMeanVnf",
                "thresholdType": "SIMPLE",
                "simpleThresholdDetails": {
                    "thresholdValue": 80,
                    "hysteresis": 2,
                },
            },
            "callbackUri": receiver.url,
        },
        headers=PM,
        validate=False,
    )
    assert created.status_code == 201, created.text
    th_id = created.json()["id"]
    hot_vnfc, hot_pod = sorted(vnfcs.items())[0]
    simk8s.control.pod_metrics(
        vnf.namespace, hot_pod, _memory(8 * GIB, int(0.8 * GIB))
    )
    (up,) = _notified(
        receiver, "ThresholdCrossedNotification", 1, WAIT, thresholdId=th_id
    )
    assert up["crossingDirection"] == "UP"
    assert up["subObjectInstanceId"] == hot_vnfc
    assert up["objectInstanceId"] == vnf.id
    assert 82 <= up["performanceValue"] <= 90.001  # 0.8 GiB rounded
    simk8s.control.pod_metrics(
        vnf.namespace, hot_pod, _memory(8 * GIB, 2 * GIB)
    )
    both = _notified(
        receiver, "ThresholdCrossedNotification", 2, WAIT, thresholdId=th_id
    )
    assert [n["crossingDirection"] for n in both] == ["UP", "DOWN"]
    assert both[1]["subObjectInstanceId"] == hot_vnfc
    assert both[1]["performanceValue"] <= 78
    # Nothing more: the other VNFCs stayed at 75 %, inside the band.
    time.sleep(6)
    crossings = [
        n
        for n in receiver.notifications
        if n.get("notificationType") == "ThresholdCrossedNotification"
    ]
    assert len(crossings) == 2

    # Terminated: no more targets for it.
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
    cnf.until("the target file removed", lambda: not sd_file.exists(), WAIT)
    prometheus.wait_targets(
        0, timeout=WAIT, job="kubernetes", vnfInstanceId=vnf.id
    )


def _time(stamp: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _scales(client, vnf_id: str) -> list[dict]:
    occs = client.get(
        f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{vnf_id})"
        ";(eq,operation,SCALE)"
    ).json()
    return sorted(occs, key=lambda o: o["startTime"])


def _vdu1_pods(vnf) -> list[str]:
    return sorted(
        v["computeResource"]["resourceId"]
        for v in vnf.vnfcs()
        if v["vduId"] == "VDU1"
    )


def _load(sim, vnf, busy: float) -> None:
    for pod in _vdu1_pods(vnf):
        sim.control.pod_metrics(vnf.namespace, pod, {"cpu_busy": busy})


def _level(vnf) -> int:
    info = vnf.instance()["instantiatedVnfInfo"]
    (status,) = [
        s for s in info["scaleStatus"] if s["aspectId"] == "vdu1_aspect"
    ]
    return status["scaleLevel"]


def test_load_scales_out_then_in_without_flapping(pm_nfvo, simk8s):
    dep, client, vnfd_id, receiver = pm_nfvo
    vnf = cnf.Cnf(client, vnfd_id, simk8s)
    body = vnf.instantiate_body("instantiation_level_1")
    body["additionalParams"]["scalingRules"] = [RULE]
    vnf.run("instantiate", body)
    assert _level(vnf) == 0 and len(_vdu1_pods(vnf)) == 1

    # A load step: one automatic scale out, completed, level 1.
    _load(simk8s, vnf, 0.9)
    (out,) = cnf.until(
        "an automatic scale out", lambda: _scales(client, vnf.id), WAIT
    )
    done = vnf.wait(out["id"])
    assert done["isAutomaticInvocation"] is True
    assert done["operationParams"]["type"] == "SCALE_OUT"
    assert done["operationParams"]["aspectId"] == "vdu1_aspect"
    assert done["operationState"] == "COMPLETED", done.get("error")
    out_ended = _time(done["stateEnteredTime"])
    assert _level(vnf) == 1 and len(_vdu1_pods(vnf)) == 2

    # At the scale-in threshold, but one pod would carry 60 %: no scale
    # in, and (at the maximum level) no scale out, for longer than the
    # cooldown plus a few passes.
    _load(simk8s, vnf, 0.3)
    time.sleep(COOLDOWN + WINDOW + 6)
    assert [o["id"] for o in _scales(client, vnf.id)] == [out["id"]]
    assert _level(vnf) == 1

    # The load falls: one automatic scale in.
    _load(simk8s, vnf, 0.05)
    scales = cnf.until(
        "an automatic scale in",
        lambda: (s := _scales(client, vnf.id))[1:] and s,
        WAIT,
    )
    assert len(scales) == 2
    scale_in = scales[1]
    done = vnf.wait(scale_in["id"])
    assert done["isAutomaticInvocation"] is True
    assert done["operationParams"]["type"] == "SCALE_IN"
    assert done["operationState"] == "COMPLETED", done.get("error")
    assert _level(vnf) == 0 and len(_vdu1_pods(vnf)) == 1
    # Not before the cooldown after the scale out ended.
    assert _time(scale_in["startTime"]) - out_ended >= datetime.timedelta(
        seconds=COOLDOWN
    )
    vnf.run("terminate", {"terminationType": "FORCEFUL"})
