"""Automatic scaling passes on SQLite (no mocks of our own code): one
measure() per metric whatever the number of instances, shards, a busy
instance left alone, a failed automatic scale failed (or rolled back),
counted, alarmed and backed off, the alarm cleared by a completed one,
Prometheus failing said once and deciding nothing."""

import datetime
import logging

import oslo_messaging as messaging
import pytest
import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models_convergence as cm
from tacker_ng.db import models_pm, vnf_lcm
from tacker_ng.db import pm_autoscale as state_db
from tacker_ng.db.types import utcnow
from tacker_ng.lcm import transitions
from tacker_ng.pm import autoscale, autoscale_ops, measurements, shards
from tacker_ng.pm import scaling_rules as sr
from tacker_ng.pm.prometheus import PrometheusError
from tacker_ng.tests.unit.pm.test_scaling_rules import flavour

RULE = {
    "metric": "VCpuUsageMeanVnf",
    "aspectId": "worker_aspect",
    "scaleOutThreshold": 70,
    "scaleInThreshold": 30,
    "cooldown": 0,
}
MEM_RULE = {**RULE, "metric": "VMemoryUsageMeanVnf"}


def _info(level=1, vdu1=4, vdu2=2):
    vnfcs = [{"id": f"a{n}", "vduId": "VDU1"} for n in range(vdu1)]
    vnfcs += [{"id": f"b{n}", "vduId": "VDU2"} for n in range(vdu2)]
    return {
        "flavourId": "simple",
        "vnfcResourceInfo": vnfcs,
        "scaleStatus": [{"aspectId": "worker_aspect", "scaleLevel": level}],
    }


def _instantiated(rules=(RULE,), info=None, instance_id=None):
    """An instance made INSTANTIATED by a COMPLETED INSTANTIATE whose
    additionalParams declared ``rules``."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.insert_instance(
                s,
                {
                    **({"id": instance_id} if instance_id else {}),
                    "vnfd_id": "vnfd",
                    "vnf_provider": "p",
                    "vnf_product_name": "n",
                    "vnf_software_version": "1",
                    "vnfd_version": "1",
                    "project_id": "proj",
                    "instantiation_state": "NOT_INSTANTIATED",
                    "vim_connection_info": {},
                },
            )
            params = {"flavourId": "simple"}
            if rules is not None:
                params["additionalParams"] = {"scalingRules": list(rules)}
            occ = vnf_lcm.start_operation(
                s, row["id"], "INSTANTIATE", params, None
            )
            assert vnf_lcm.transition(s, occ["id"], "PROCESSING")
    _end(
        occ["id"],
        "COMPLETED",
        instantiation_state="INSTANTIATED",
        instantiated_vnf_info=info or _info(),
    )
    return row["id"]


def _end(occ_id, to, **instance_changes):
    assert transitions.finish(
        None, occ_id, to, instance_changes=instance_changes or None
    )


def _fail_temp(occ_id):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert vnf_lcm.transition(s, occ_id, "PROCESSING")
            assert vnf_lcm.transition(
                s,
                occ_id,
                "FAILED_TEMP",
                error={"status": 500, "title": "VIM Error", "detail": "boom"},
            )


def _occ(occ_id):
    with db_api.reader() as s:
        return vnf_lcm.get_op_occ(s, occ_id)


def _instance(iid):
    with db_api.reader() as s:
        return vnf_lcm.get_instance(s, iid)


def _state(iid):
    with db_api.reader() as s:
        return state_db.state(s, iid)


def _alarm(iid):
    with db_api.reader() as s:
        table = cm.VnfAlarm.__table__
        return (
            s.execute(
                sa.select(table).where(
                    table.c.managed_object_id == iid,
                    table.c.open_key == f"{iid}/autoscale:failed",
                )
            )
            .mappings()
            .first()
        )


def _backoff_over(iid):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            table = models_pm.VnfAutoscale.__table__
            s.execute(
                sa.update(table)
                .where(table.c.vnf_instance_id == iid)
                .values(backoff_until=utcnow() - datetime.timedelta(seconds=1))
            )


class Prom:
    """measure(): values per instance, every VNFC the same; counts calls."""

    def __init__(self):
        self.load: dict[str, float] = {}
        self.calls: list[tuple[str, tuple[str, ...], int]] = []
        self.error: Exception | None = None

    def __call__(self, metric, ids, window):
        self.calls.append((metric, tuple(ids), window))
        if self.error is not None:
            raise self.error
        out = {}
        for iid in ids:
            if iid in self.load:
                for vnfc in _instance(iid)["instantiated_vnf_info"][
                    "vnfcResourceInfo"
                ]:
                    out[(iid, vnfc["id"])] = self.load[iid]
        return out


@pytest.fixture
def env(db, conf):
    conf.set_override("attempts", 2, group="autoscale")
    conf.set_override("backoff_base", 60, group="autoscale")
    conf.set_override("backoff_max", 600, group="autoscale")
    prom = Prom()
    casts, rollbacks = [], []
    ops = autoscale_ops.AutoScaleOps(
        None,
        lambda ctx, occ: casts.append(occ),
        lambda ctx, occ: rollbacks.append(occ),
        conf,
    )
    scaler = autoscale.AutoScaler(
        "me", lambda: ["me"], prom, ops, conf, lambda inst: flavour()
    )
    return scaler, prom, casts, rollbacks


def test_one_measure_per_metric_whatever_the_instances(env):
    scaler, prom, casts, _ = env
    hot = [_instantiated((RULE, MEM_RULE)) for _ in range(5)]
    cold = [_instantiated((RULE,)) for _ in range(3)]
    _instantiated(rules=None)  # declares no rules: never measured
    for iid in hot:
        prom.load[iid] = 95.0
    for iid in cold:
        prom.load[iid] = 50.0
    report = scaler.run_pass()
    assert sorted(c[0] for c in prom.calls) == [
        "VCpuUsageMeanVnf",
        "VMemoryUsageMeanVnf",
    ]
    cpu = next(c for c in prom.calls if c[0] == "VCpuUsageMeanVnf")
    assert set(cpu[1]) == set(hot + cold) and cpu[2] == 60
    assert len(report["scales"]) == 5 and casts == report["scales"]
    for occ_id in casts:
        occ = _occ(occ_id)
        assert occ["vnf_instance_id"] in hot
        assert occ["operation"] == "SCALE"
        assert occ["is_automatic_invocation"] is True
        params = occ["operation_params"]
        assert params["type"] == "SCALE_OUT"
        assert params["aspectId"] == "worker_aspect"
        assert params["numberOfSteps"] == 1
        auto = params["additionalParams"]["autoscale"]
        assert auto["rule"]["metric"] == "VCpuUsageMeanVnf"
        assert "scaleOutThreshold 70" in auto["reason"]
        assert _state(occ["vnf_instance_id"])["last_op_occ_id"] == occ_id


def test_busy_instance_gets_no_operation(env):
    scaler, prom, casts, _ = env
    iid = _instantiated()
    prom.load[iid] = 95.0
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            manual = vnf_lcm.start_operation(s, iid, "HEAL", {}, None)
    assert scaler.run_pass()["scales"] == [] and casts == []
    assert _instance(iid)["current_op_occ_id"] == manual["id"]


def test_conflict_decided_by_the_database(env):
    """The row was read free, another op took the instance since: the
    database refuses the automatic scale (409), nothing is cast."""
    scaler, prom, casts, _ = env
    iid = _instantiated()
    row = _instance(iid)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.start_operation(s, iid, "HEAL", {}, None)
    (rule,) = sr.parse(
        {"scalingRules": [RULE]}, flavour(), measurements.DEFAULTS, 0
    )
    decision = sr.Decision(sr.Direction.SCALE_OUT, 1, "hot", rule)
    assert scaler.ops.start(row, decision) is None and casts == []
    assert _state(iid) is None


def test_shards_respected(env):
    scaler, prom, casts, _ = env
    scaler.live_hosts = lambda: ["me", "other"]
    mine = shards.owned("me", ["me", "other"])
    ids: list[str] = []
    # until both conductors own one (a few ids may all land on one)
    while len({shards.shard_of(i) in mine for i in ids}) < 2:
        ids.append(_instantiated())
        prom.load[ids[-1]] = 95.0
    expected = {i for i in ids if shards.shard_of(i) in mine}
    scaler.run_pass()
    (call,) = prom.calls
    assert set(call[1]) == expected
    assert {_occ(o)["vnf_instance_id"] for o in casts} == expected


def test_failed_scale_is_failed_counted_alarmed_backed_off(env):
    scaler, prom, casts, _ = env
    iid = _instantiated()
    prom.load[iid] = 95.0
    (first,) = scaler.run_pass()["scales"]
    _fail_temp(first)
    before = utcnow()
    report = scaler.run_pass()
    assert report["scales"] == []
    assert _occ(first)["operation_state"] == "FAILED"
    assert _instance(iid)["current_op_occ_id"] is None
    st = _state(iid)
    assert st["failures"] == 1 and st["last_op_occ_id"] is None
    assert 59 <= (st["backoff_until"] - before).total_seconds() <= 61
    alarm = _alarm(iid)
    assert alarm["fault_type"] == "AUTO_SCALE_FAILED"
    assert (
        first in alarm["probable_cause"] and "boom" in alarm["probable_cause"]
    )
    assert "attempt 1 of 2" in alarm["fault_details"]
    # backing off: measured or not, no new scale
    assert scaler.run_pass()["scales"] == []
    _backoff_over(iid)
    (second,) = scaler.run_pass()["scales"]
    _fail_temp(second)
    scaler.run_pass()
    st = _state(iid)
    assert st["failures"] == 2
    # attempts spent: the long pause (backoff_max)
    assert (st["backoff_until"] - utcnow()).total_seconds() > 590
    changed = _alarm(iid)
    assert changed["id"] == alarm["id"] and second in changed["probable_cause"]
    assert "attempt 2 of 2" in changed["fault_details"]


def test_completed_scale_clears_the_alarm(env):
    scaler, prom, casts, _ = env
    iid = _instantiated()
    prom.load[iid] = 95.0
    (first,) = scaler.run_pass()["scales"]
    _fail_temp(first)
    scaler.run_pass()
    assert _alarm(iid) is not None
    _backoff_over(iid)
    (second,) = scaler.run_pass()["scales"]
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.transition(s, second, "PROCESSING")
    _end(second, "COMPLETED", instantiated_vnf_info=_info(level=2, vdu1=6))
    prom.load[iid] = 50.0
    scaler.run_pass()
    assert _alarm(iid) is None
    assert _state(iid)["failures"] == 0


def test_scale_failed_by_the_nfvo_counts(env):
    scaler, prom, casts, _ = env
    iid = _instantiated()
    prom.load[iid] = 95.0
    (first,) = scaler.run_pass()["scales"]
    _fail_temp(first)
    _end(first, "FAILED")  # the NFVO's POST .../fail
    prom.load[iid] = 50.0
    scaler.run_pass()
    assert _state(iid)["failures"] == 1
    assert "ended FAILED by the NFVO" in str(_alarm(iid)["fault_details"])


def test_failed_scale_rolled_back_by_config(env, conf):
    conf.set_override("failed_action", "rollback", group="autoscale")
    scaler, prom, casts, rollbacks = env
    iid = _instantiated()
    prom.load[iid] = 95.0
    (first,) = scaler.run_pass()["scales"]
    _fail_temp(first)
    scaler.run_pass()
    assert rollbacks == [first]
    assert _occ(first)["operation_state"] == "ROLLING_BACK"
    assert _state(iid)["failures"] == 1
    # the rollback fails as well: failed, not counted twice
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.transition(s, first, "FAILED_TEMP")
    scaler.run_pass()
    assert _occ(first)["operation_state"] == "FAILED"
    assert _state(iid)["failures"] == 1


def test_cast_failure_is_failed_temp_503(env):
    scaler, prom, _, _ = env

    def broken(ctx, occ):
        raise messaging.MessagingException("no bus")

    scaler.ops.cast = broken
    iid = _instantiated()
    prom.load[iid] = 95.0
    (first,) = scaler.run_pass()["scales"]
    occ = _occ(first)
    assert occ["operation_state"] == "FAILED_TEMP"
    assert occ["error"]["status"] == 503


def test_scale_in_after_cooldown_and_no_flapping(env):
    scaler, prom, casts, _ = env
    iid = _instantiated(
        (dict(RULE, cooldown=3600),), info=_info(level=1, vdu1=4, vdu2=2)
    )
    prom.load[iid] = 20.0  # 6 VNFCs at 20 %, 3 left: 40 % < 70
    (occ_id,) = scaler.run_pass()["scales"]
    assert _occ(occ_id)["operation_params"]["type"] == "SCALE_IN"
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            vnf_lcm.transition(s, occ_id, "PROCESSING")
    _end(occ_id, "COMPLETED", instantiated_vnf_info=_info(0, 2, 1))
    prom.load[iid] = 95.0
    report = scaler.run_pass()  # within the cooldown: nothing
    assert report["scales"] == []
    (decision,) = report["decisions"][iid]
    assert decision.reason.startswith("cooldown until")


def test_load_at_the_threshold_does_not_flap(env):
    scaler, prom, casts, _ = env
    iid = _instantiated(
        (dict(RULE, scaleOutThreshold=55),), info=_info(1, 4, 2)
    )
    prom.load[iid] = 30.0  # 6 x 30 on 3 VNFCs would be 60 >= 55
    for _ in range(3):
        assert scaler.run_pass()["scales"] == []


def test_prometheus_failing_decides_nothing_and_says_it_once(env, caplog):
    scaler, prom, casts, _ = env
    for _ in range(2):
        prom.load[_instantiated((RULE, MEM_RULE))] = 95.0
    prom.error = PrometheusError("connection refused")
    with caplog.at_level(logging.WARNING):
        report = scaler.run_pass()
    assert report["scales"] == [] and casts == []
    assert len(prom.calls) == 1
    said = [r for r in caplog.records if "connection refused" in r.message]
    assert len(said) == 1 and said[0].exc_info is None


def test_disabled_does_nothing(env, conf):
    conf.set_override("enabled", False, group="autoscale")
    scaler, prom, _, _ = env
    _instantiated()
    assert scaler.run_pass() is None and prom.calls == []


def test_periodic_job_shape(conf):
    job = autoscale.periodic_job(
        conf, "me", lambda: ["me"], Prom(), lambda c, o: None, None
    )
    assert job.name == "pm_autoscale" and job.spacing == 30
    assert job.leader is None
