"""Threshold crossings: the hysteresis judges a value, the database
decides whether it is a change (one notification per crossing, whoever
sees it), a deleted threshold records nothing."""

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models, pm_thresholds
from tacker_ng.pm import crossings
from tacker_ng.tests.unit.pm.conftest import T0, S, store_threshold

OUTBOX = models.LcmNotification.__table__


def _record(threshold, value, sub=None, context=None):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            return crossings.record_value(
                s, threshold, threshold["object_instance_id"], sub, value,
                context, T0,
            )  # fmt: skip
    raise AssertionError("unreachable")


def _notes():
    with db_api.reader() as s:
        return list(
            s.execute(sa.select(OUTBOX).order_by(OUTBOX.c.id)).mappings()
        )


def test_values_crossing_up_and_down_notify_once_each(conf, vnf):
    th = store_threshold(vnf["id"])
    values = [70.0, 82.0, 86.0, 90.0, 84.0, 76.0, 75.0, 60.0, 85.0]
    seen = [_record(th, v, "c1") for v in values]
    assert seen == [None, None, "UP", None, None, None, "DOWN", None, "UP"]
    notes = _notes()
    assert [n["payload"]["crossingDirection"] for n in notes] == [
        "UP",
        "DOWN",
        "UP",
    ]
    first = notes[0]
    assert first["subscription_id"] == th["id"]
    assert first["notification_type"] == "ThresholdCrossedNotification"
    assert first["payload"]["performanceValue"] == 86.0
    assert first["payload"]["subObjectInstanceId"] == "c1"
    assert first["payload"]["thresholdId"] == th["id"]
    with db_api.reader() as s:
        (state,) = pm_thresholds.states(s, th["id"])
    assert state["crossing_direction"] == "UP"
    assert state["performance_value"] == 85.0


def test_sub_objects_cross_independently(conf, vnf):
    th = store_threshold(vnf["id"])
    assert _record(th, 99.0, "c1") == "UP"
    assert _record(th, 99.0, "c2") == "UP"
    assert _record(th, 99.0) == "UP"  # the object itself
    assert _record(th, 99.0, "c1") is None
    with db_api.reader() as s:
        keys = [
            (r["sub_object_instance_id"], r["crossing_direction"])
            for r in pm_thresholds.states(s, th["id"])
        ]
    assert keys == [("", "UP"), ("c1", "UP"), ("c2", "UP")]


def test_the_same_crossing_seen_twice_is_recorded_once(conf, vnf):
    """Two collectors judging the same value: the conditional UPDATE lets
    one of them have the change (here one after the other)."""
    th = store_threshold(vnf["id"])
    assert _record(th, 95.0) == "UP"
    assert _record(th, 95.0) is None
    assert _record(th, 10.0) == "DOWN"
    assert _record(th, 10.0) is None
    assert len(_notes()) == 2


def test_a_deleted_threshold_records_nothing(conf, vnf):
    th = store_threshold(vnf["id"])
    assert _record(th, 95.0) == "UP"
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            pm_thresholds.delete(s, th["id"], None)
    assert _notes() == []  # its pending notification went with it
    assert _record(th, 10.0) is None
    with db_api.reader() as s:
        assert pm_thresholds.states(s, th["id"]) == []


def test_due_thresholds_are_claimed_once_per_round(conf, vnf):
    th = store_threshold(vnf["id"])
    with db_api.reader() as s:
        due = crossings.thresholds_due(s, T0)
    assert [t["id"] for t in due] == [th["id"]]
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert crossings.claim(s, due[0], T0 + S)
            assert not crossings.claim(s, due[0], T0 + S)
    with db_api.reader() as s:
        assert crossings.thresholds_due(s, T0 + 2 * S) == []
        interval = conf.pm.threshold_interval
        again = crossings.thresholds_due(s, T0 + (1 + interval) * S)
        assert [t["id"] for t in again] == [th["id"]]
        assert crossings.thresholds_due(s, T0 + 10**6 * S, set()) == []


def _record_many(items):
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            return crossings.record_values(s, items, T0)
    raise AssertionError("unreachable")


def test_many_values_write_only_the_ones_that_change_side(conf, vnf):
    th = store_threshold(vnf["id"])
    vid = vnf["id"]
    # Below the band, nothing recorded yet: no crossing and no row.
    assert _record_many([(th, vid, "c1", 10.0), (th, vid, "c2", 80.0)]) == 0
    with db_api.reader() as s:
        assert pm_thresholds.states(s, th["id"]) == []
    assert _record_many([(th, vid, "c1", 90.0), (th, vid, "c2", 81.0)]) == 1
    # Still above: nothing to write, nothing notified.
    assert _record_many([(th, vid, "c1", 95.0)]) == 0
    assert _record_many([(th, vid, "c1", 70.0), (th, vid, "c2", 90.0)]) == 2
    notes = _notes()
    assert [
        (
            n["payload"]["subObjectInstanceId"],
            n["payload"]["crossingDirection"],
        )
        for n in notes
    ] == [("c1", "UP"), ("c1", "DOWN"), ("c2", "UP")]


def test_thresholds_claimed_together_once_per_round(conf, vnf):
    due_now = [store_threshold(vnf["id"]) for _ in range(3)]
    later = store_threshold(vnf["id"], next_check_at=T0 + 30 * S)
    rows = due_now + [later]
    # Moments with fractional seconds: a DATETIME column may drop them.
    first = T0 + 1.25 * S
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            got = crossings.claim_all(s, rows, first)
    assert {t["id"] for t in got} == {t["id"] for t in due_now}
    # A second collector the same round (a moment later): none left.
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            assert crossings.claim_all(s, rows, first + 0.5 * S) == []
    interval = conf.pm.threshold_interval
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            again = crossings.claim_all(s, rows, first + (1 + interval) * S)
    assert len(again) == 4
