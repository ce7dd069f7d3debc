"""The VNFM's own automatic heals: the pure rules (back-off schedule,
attempt counting, what a holding op allows, the alarm's words), then the
observer + converger on SQLite with a stand-in VIM (no mocks): a failed
automatic heal is failed or rolled back by the VNFM, counted, alarmed
once, retried after its back-off, given up after N attempts, and the
alarm cleared once the instance converged; an instance held by a manual
FAILED_TEMP op is still alarmed."""

import datetime

import pytest
import sqlalchemy as sa

from tacker_ng.convergence import autoheal_rules as rules
from tacker_ng.convergence import converge, observer
from tacker_ng.db import api as db_api
from tacker_ng.db import models_convergence as cm
from tacker_ng.db import notifications as outbox
from tacker_ng.db import observed as observed_db
from tacker_ng.db import subscriptions as subscriptions_db
from tacker_ng.db import vnf_lcm
from tacker_ng.db.types import utcnow
from tacker_ng.tests.unit.convergence.test_observer import (
    FakeVim,
    _instance,
)

NOW = datetime.datetime(2026, 11, 28, 12, 0, tzinfo=datetime.UTC)


# -- pure rules --------------------------------------------------------


def test_backoff_doubles_from_base_up_to_the_cap():
    got = [rules.backoff_delay(n, 30, 600) for n in range(0, 8)]
    assert got == [0, 30, 60, 120, 240, 480, 600, 600]


def test_after_failure_counts_and_pauses_once_exhausted(conf):
    c = "convergence"
    conf.set_override("auto_heal_attempts", 3, group=c)
    conf.set_override("auto_heal_backoff_base", 10, group=c)
    conf.set_override("auto_heal_backoff_max", 15, group=c)
    conf.set_override("autoheal_backoff", 3600, group=c)
    first = rules.after_failure(0, NOW, conf)
    assert (first.failures, first.attempts, first.exhausted) == (1, 3, False)
    assert first.next_attempt == NOW + datetime.timedelta(seconds=10)
    second = rules.after_failure(1, NOW, conf)
    assert second.next_attempt == NOW + datetime.timedelta(seconds=15)
    third = rules.after_failure(2, NOW, conf)
    assert third.exhausted and third.failures == 3
    assert third.next_attempt == NOW + datetime.timedelta(seconds=3600)


def test_may_heal_waits_for_the_next_attempt_then_restarts_the_count():
    later = NOW + datetime.timedelta(seconds=1)
    assert rules.may_heal(0, None, 3, NOW) == (True, 0)
    assert rules.may_heal(1, later, 3, NOW) == (False, 1)
    assert rules.may_heal(1, NOW, 3, NOW) == (True, 1)
    assert rules.may_heal(3, later, 3, NOW) == (False, 3)
    assert rules.may_heal(3, NOW, 3, NOW) == (True, 0)  # pause over


def _occ(state, automatic=True, operation="HEAL"):
    return {
        "id": "op-1",
        "operation_state": state,
        "is_automatic_invocation": automatic,
        "operation": operation,
    }


@pytest.mark.parametrize(
    ("occ", "held"),
    [
        (None, rules.Held.FREE),
        (_occ("COMPLETED"), rules.Held.ENDED),
        (_occ("FAILED"), rules.Held.ENDED),
        (_occ("STARTING"), rules.Held.RUNNING),
        (_occ("PROCESSING"), rules.Held.RUNNING),
        (_occ("ROLLING_BACK"), rules.Held.RUNNING),
        (_occ("FAILED_TEMP"), rules.Held.SETTLE),
        (_occ("FAILED_TEMP", automatic=False), rules.Held.FAILED_TEMP),
        (_occ("FAILED_TEMP", operation="SCALE"), rules.Held.FAILED_TEMP),
    ],
)
def test_what_the_holding_op_allows(occ, held):
    assert rules.judge_current(occ) is held


def test_alarm_names_op_vnfcs_cause_attempt_and_next_attempt():
    occ = {
        "id": "op-7",
        "operation_params": {"vnfcInstanceId": ["c1", "c2"]},
        "error": {"title": "Pod Unschedulable", "detail": "0/3 nodes"},
    }
    failure = rules.Failure(2, 3, NOW, False)
    cause, details = rules.alarm_text(occ, "failed by the VNFM", failure)
    assert cause == "Automatic heal op-7 failed: 0/3 nodes"
    assert details == [
        "operation: HEAL op-7 (automatic), failed by the VNFM",
        "vnfcs: c1, c2",
        "cause: Pod Unschedulable: 0/3 nodes",
        "attempt 2 of 3",
        f"next attempt not before {NOW.isoformat()}",
    ]
    done = rules.Failure(3, 3, NOW, True)
    assert rules.alarm_text(occ, "x", done)[1][-1].startswith(
        "attempts exhausted; no automatic heal before"
    )
    assert (
        len(
            rules.alarm_text(
                {"id": "o", "error": {"detail": "x" * 300}}, "x", done
            )[0]
        )
        == 255
    )


# -- on SQLite ---------------------------------------------------------


@pytest.fixture
def env(db, conf):
    c = "convergence"
    conf.set_override("auto_heal_attempts", 3, group=c)
    conf.set_override("auto_heal_backoff_base", 30, group=c)
    conf.set_override("auto_heal_backoff_max", 600, group=c)
    conf.set_override("autoheal_backoff", 3600, group=c)
    vim = FakeVim()
    casts, rollbacks = [], []
    converger = converge.Converger(
        None,
        lambda ctx, occ: casts.append(occ),
        conf,
        rollback_cast=lambda ctx, occ: rollbacks.append(occ),
    )
    obs = observer.Observer("me", converger, lambda: ["me"], vim, conf)
    return vim, casts, rollbacks, obs


def _fail_temp(occ_id, detail="No valid host was found."):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert vnf_lcm.transition(s, occ_id, "PROCESSING")
            assert vnf_lcm.transition(
                s,
                occ_id,
                "FAILED_TEMP",
                error={
                    "status": 409,
                    "title": "Unschedulable",
                    "detail": detail,
                },
            )


def _occ_state(occ_id):
    with db_api.reader() as s:
        return vnf_lcm.get_op_occ(s, occ_id)["operation_state"]


def _instance_op(iid):
    with db_api.reader() as s:
        return vnf_lcm.get_instance(s, iid)["current_op_occ_id"]


def _open_alarms(iid):
    with db_api.reader() as s:
        return {
            r["open_key"].split("/", 1)[1]: r
            for r in s.execute(
                sa.select(cm.VnfAlarm.__table__).where(
                    cm.VnfAlarm.__table__.c.managed_object_id == iid,
                    cm.VnfAlarm.__table__.c.open_key.is_not(None),
                )
            ).mappings()
        }


def _state(iid):
    with db_api.reader() as s:
        return observed_db.autoheal_state(s, iid)


def _backoff_over(iid):
    """Time passes: the next attempt is due."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            s.execute(
                sa.update(cm.VnfConvergence.__table__)
                .where(cm.VnfConvergence.__table__.c.vnf_instance_id == iid)
                .values(backoff_until=utcnow() - datetime.timedelta(seconds=1))
            )


def _subscribe() -> tuple[str, str]:
    """(LCM, FM) subscriptions to every notification."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            lcm_sub = subscriptions_db.LCM.insert(
                s, {"callback_uri": "http://nfvo/lcm", "fingerprint": "l"}
            )
            fm_sub = subscriptions_db.FM.insert(
                s, {"callback_uri": "http://nfvo/fm", "fingerprint": "f"}
            )
    return lcm_sub, fm_sub


def _sent(sub_id) -> list[dict]:
    with db_api.reader() as s:
        return [
            r["payload"]
            for r in s.execute(
                sa.select(outbox.OUTBOX)
                .where(outbox.OUTBOX.c.subscription_id == sub_id)
                .order_by(outbox.OUTBOX.c.id)
            ).mappings()
        ]


def test_failed_autoheal_is_failed_counted_alarmed_retried_given_up(env):
    vim, casts, _rb, obs = env
    lcm_sub, fm_sub = _subscribe()
    iid = _instance(autoheal=True, vnfcs=2)
    vim.status = {"s0": "ACTIVE", "s1": "ERROR"}
    (first,) = obs.run_cycle()["heals"]
    _fail_temp(first)
    assert _instance_op(iid) == first

    before = utcnow()
    report = obs.run_cycle()
    # the VNFM failed its heal: the instance is free, no new heal yet
    assert _occ_state(first) == "FAILED" and _instance_op(iid) is None
    assert report["heals"] == []
    alarms = _open_alarms(iid)
    auto = alarms[rules.AUTOHEAL_KEY]
    assert auto["vnfc_instance_ids"] == ["c1"]
    assert auto["fault_type"] == "AUTO_HEAL_FAILED"
    assert first in auto["probable_cause"]
    assert "No valid host was found." in auto["probable_cause"]
    assert "attempt 1 of 3" in auto["fault_details"]
    assert "c1" in alarms  # the drift itself is alarmed while backing off
    # notified as an NFVO's fail would be, and the alarm to FM subscribers
    occ_notes = [n for n in _sent(lcm_sub) if n.get("vnfLcmOpOccId") == first]
    assert occ_notes[-1]["operationState"] == "FAILED"
    assert occ_notes[-1]["isAutomaticInvocation"] is True
    raised = [n["alarm"]["id"] for n in _sent(fm_sub) if "alarm" in n]
    assert auto["id"] in raised
    st = _state(iid)
    assert st["autoheal_failures"] == 1
    assert st["last_autoheal_op_occ_id"] is None
    delay = (st["backoff_until"] - before).total_seconds()
    assert 29 <= delay <= 31
    # backing off: no heal, nothing new
    assert obs.run_cycle()["heals"] == [] and len(casts) == 1

    for n in (2, 3):
        _backoff_over(iid)
        (occ,) = obs.run_cycle()["heals"]
        _fail_temp(occ, f"failure {n}")
        obs.run_cycle()
        assert _occ_state(occ) == "FAILED"
        again = _open_alarms(iid)[rules.AUTOHEAL_KEY]
        assert again["id"] == auto["id"]  # updated, not a second alarm
        assert f"attempt {n} of 3" in again["fault_details"]
        assert occ in again["probable_cause"]
        updates = [
            n
            for n in _sent(fm_sub)
            if n.get("alarm", {}).get("id") == auto["id"]
        ]
        assert len(updates) == n  # an AlarmNotification per failure
    assert again["fault_details"][-1].startswith("attempts exhausted")
    st = _state(iid)
    assert st["autoheal_failures"] == 3
    assert (st["backoff_until"] - utcnow()).total_seconds() > 3500
    for _ in range(2):
        assert obs.run_cycle()["heals"] == []
    assert len(casts) == 3

    # the VNFC recovers (e.g. capacity came back): alarm cleared, reset
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    obs.run_cycle()
    assert _open_alarms(iid) == {}
    st = _state(iid)
    assert st["autoheal_failures"] == 0 and st["backoff_until"] is None


def _complete(occ_id, iid):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert vnf_lcm.transition(s, occ_id, "PROCESSING")
            assert vnf_lcm.transition(s, occ_id, "COMPLETED")
            vnf_lcm.release_instance(s, iid, occ_id)


def test_completed_automatic_heal_clears_the_alarm(env, conf):
    conf.set_override("auto_heal_backoff_base", 0, group="convergence")
    vim, _casts, _rb, obs = env
    iid = _instance(autoheal=True, vnfcs=1)
    vim.status = {"s0": "ERROR"}
    (first,) = obs.run_cycle()["heals"]
    _fail_temp(first)
    # failed, counted; base 0: the next heal in the same cycle
    (second,) = obs.run_cycle()["heals"]
    assert _occ_state(first) == "FAILED"
    assert rules.AUTOHEAL_KEY in _open_alarms(iid)
    _complete(second, iid)
    obs.run_cycle()  # still ERROR in the listing, but the heal COMPLETED
    assert rules.AUTOHEAL_KEY not in _open_alarms(iid)
    assert _state(iid)["autoheal_failures"] == 0


def test_rollback_action_rolls_back_then_fails_a_failed_rollback(env, conf):
    conf.set_override(
        "auto_heal_failed_action", "rollback", group="convergence"
    )
    vim, _casts, rollbacks, obs = env
    iid = _instance(autoheal=True, vnfcs=1)
    vim.status = {"s0": "ERROR"}
    (occ,) = obs.run_cycle()["heals"]
    _fail_temp(occ)
    obs.run_cycle()
    assert _occ_state(occ) == "ROLLING_BACK" and rollbacks == [occ]
    assert _state(iid)["autoheal_failures"] == 1
    assert rules.AUTOHEAL_KEY in _open_alarms(iid)
    assert obs.run_cycle()["heals"] == []  # rolling back: left alone
    # the rollback fails too: the VNFM fails the op, counted once only
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert vnf_lcm.transition(s, occ, "FAILED_TEMP")
    obs.run_cycle()
    assert _occ_state(occ) == "FAILED" and _instance_op(iid) is None
    assert rollbacks == [occ]
    assert _state(iid)["autoheal_failures"] == 1


def test_instance_held_by_manual_failed_temp_op_is_still_alarmed(env):
    from tacker_ng.lcm import starting

    vim, casts, _rb, obs = env
    iid = _instance(autoheal=True, vnfcs=2)
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    obs.run_cycle()
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            occ = starting.open_op_occ(
                s, iid, "HEAL", {"vnfcInstanceId": ["c0"]}
            )
    _fail_temp(occ["id"])
    vim.status = {"s0": "ACTIVE", "s1": "ERROR"}
    report = obs.run_cycle()
    assert report["heals"] == [] and casts == []
    assert set(_open_alarms(iid)) == {"c1"}  # the drift is alarmed
    assert _occ_state(occ["id"]) == "FAILED_TEMP"  # not the VNFM's op
    vim.status = {"s0": "ACTIVE", "s1": "ACTIVE"}
    obs.run_cycle()
    assert _open_alarms(iid) == {}  # and cleared while still held
    assert _instance_op(iid) == occ["id"]


def test_instance_held_by_running_op_is_left_alone(env):
    from tacker_ng.lcm import starting

    vim, casts, _rb, obs = env
    iid = _instance(autoheal=False, vnfcs=1)
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            starting.open_op_occ(s, iid, "HEAL", {})
    vim.status = {"s0": "ERROR"}
    report = obs.run_cycle()
    assert report["alarms_raised"] == 0 and _open_alarms(iid) == {}


class EndingVim(FakeVim):
    """Runs ``on_list`` when listed: what happens between the observer
    reading the instances and listing the VIM."""

    def __init__(self):
        super().__init__()
        self.on_list = None

    def __call__(self, vim):
        if self.on_list is not None:
            self.on_list()
            self.on_list = None
        return super().__call__(vim)


def test_heal_ending_during_the_observation_is_not_healed_again(db, conf):
    """Seen on minicloud: a heal COMPLETED between the observer reading
    the instance (held by it) and judging the listing; the listing still
    showed the healed VNFC's old server gone, and the VNFC was healed
    again, every cycle, for ever. The cycle that sees the op ended
    accounts for it and starts nothing; the next one judges anew."""
    vim = EndingVim()
    casts = []
    converger = converge.Converger(None, lambda c, o: casts.append(o), conf)
    obs = observer.Observer("me", converger, lambda: ["me"], vim, conf)
    iid = _instance(autoheal=True, vnfcs=1)
    vim.status = {"s0": "ERROR"}
    (first,) = obs.run_cycle()["heals"]
    vim.on_list = lambda: _complete(first, iid)
    report = obs.run_cycle()  # the listing still shows s0 in ERROR
    assert _occ_state(first) == "COMPLETED"
    assert report["heals"] == [] and casts == [first]
    assert _instance_op(iid) is None
    assert _state(iid)["last_autoheal_op_occ_id"] is None  # accounted


def test_old_option_name_still_read(tmp_path):
    from oslo_config import cfg

    from tacker_ng.conf import convergence as conf_convergence

    path = tmp_path / "old.conf"
    path.write_text("[convergence]\nautoheal_max_failures = 5\n")
    conf = cfg.ConfigOpts()
    conf_convergence.register_opts(conf)
    conf(["--config-file", str(path)], project="tacker-ng-test")
    assert conf.convergence.auto_heal_attempts == 5
    assert conf.convergence.auto_heal_failed_action == "fail"
