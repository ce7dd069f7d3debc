"""Evaluating thresholds: the steps a collector takes for each threshold
due (SOL003 6.3.x "threshold crossed").

:func:`claim` takes a threshold's round (a conditional UPDATE of its
next evaluation time: one collector per round); :func:`record_value`
judges a measured value with the hysteresis (:mod:`.hysteresis`), lets
the database decide whether it is a crossing
(:func:`tacker_ng.db.pm_thresholds.set_direction`) and, in the same
transaction, puts a ThresholdCrossedNotification in the outbox. The
threshold is its own subscription.
"""

import datetime
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from oslo_config import cfg
from sqlalchemy import orm

from tacker_ng.db import notifications as outbox
from tacker_ng.db import pm_thresholds
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo.notify import public_base_url
from tacker_ng.pm import bodies, hysteresis


def thresholds_due(
    session: orm.Session,
    now: datetime.datetime | None = None,
    shards: Collection[int] | None = None,
    limit: int = 100,
) -> list[Mapping[str, Any]]:
    """Thresholds due for an evaluation, in ``shards`` (or all)."""
    return pm_thresholds.due(session, now or utcnow(), shards, limit)


def claim(
    session: orm.Session,
    threshold: Mapping[str, Any],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> bool:
    """Take this round of ``threshold`` (schedule the next one
    ``[pm] threshold_interval`` from now); False: another collector has
    it, or the threshold is gone."""
    now = now or utcnow()
    next_at = now + datetime.timedelta(seconds=conf.pm.threshold_interval)
    return pm_thresholds.checked(
        session, threshold["id"], threshold["next_check_at"], next_at
    )


def claim_all(
    session: orm.Session,
    thresholds: Sequence[Mapping[str, Any]],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> list[Mapping[str, Any]]:
    """:func:`claim` of many thresholds at once: those of ``thresholds``
    this collector evaluates this round."""
    now = now or utcnow()
    next_at = now + datetime.timedelta(seconds=conf.pm.threshold_interval)
    taken = pm_thresholds.checked_many(
        session, [t["id"] for t in thresholds], now, next_at
    )
    return [t for t in thresholds if t["id"] in taken]


def record_value(
    session: orm.Session,
    threshold: Mapping[str, Any],
    object_instance_id: str,
    sub_object_instance_id: str | None,
    value: float,
    context: Mapping[str, Any] | None = None,
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> str | None:
    """Judge one measured value; the crossing direction (UP or DOWN) when
    it crossed and a notification was enqueued, else None."""
    details = threshold["criteria"]["simpleThresholdDetails"]
    direction = hysteresis.side(
        value, details["thresholdValue"], details["hysteresis"]
    )
    if direction is None:
        return None
    now = now or utcnow()
    crossed = pm_thresholds.set_direction(
        session,
        threshold["id"],
        object_instance_id,
        sub_object_instance_id,
        direction,
        value,
        hysteresis.INITIAL,
        now,
    )
    if not crossed:
        return None
    payload = bodies.threshold_crossed(
        public_base_url(conf),
        threshold,
        direction,
        sub_object_instance_id,
        value,
        context,
        now,
    )
    outbox.enqueue(session, threshold["id"], bodies.THRESHOLD_CROSSED, payload)
    return direction


def record_values(
    session: orm.Session,
    judged: Sequence[tuple[Mapping[str, Any], str, str | None, float]],
    now: datetime.datetime | None = None,
    conf: cfg.ConfigOpts = cfg.CONF,
) -> int:
    """:func:`record_value` of many (threshold, object instance id,
    sub-object id, value); the number of crossings.

    The recorded directions are read in one statement first, and only a
    value on another side than its (sub-)object's is written: a fleet
    whose values stay where they were costs one SELECT, not a write per
    value. The write still decides (a conditional UPDATE), so a stale
    read never makes a second notification."""
    known = pm_thresholds.directions(session, {t["id"] for t, *_ in judged})
    crossed = 0
    for threshold, object_id, sub, value in judged:
        details = threshold["criteria"]["simpleThresholdDetails"]
        now_side = hysteresis.side(
            value, details["thresholdValue"], details["hysteresis"]
        )
        key = (threshold["id"], object_id, sub or pm_thresholds.NO_SUB_OBJECT)
        if now_side is None or now_side == known.get(key, hysteresis.INITIAL):
            continue
        direction = record_value(
            session, threshold, object_id, sub, value, None, now, conf
        )
        crossed += direction is not None
    return crossed
