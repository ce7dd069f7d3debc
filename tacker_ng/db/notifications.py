"""The notification outbox: enqueue in the state change's transaction,
claim and settle in the conductor's delivery loop.

Per subscription, notifications go out in the order they were written:
only the oldest undelivered row of a subscription can be claimed.
"""

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db import models
from tacker_ng.db.types import utcnow

OUTBOX = models.LcmNotification.__table__


def enqueue(
    session: orm.Session,
    subscription_id: str,
    notification_type: str,
    payload: dict[str, Any],
) -> None:
    now = utcnow()
    session.execute(
        sa.insert(OUTBOX).values(
            subscription_id=subscription_id,
            notification_type=notification_type,
            payload=payload,
            attempts=0,
            next_attempt_at=now,
            given_up=False,
            created_at=now,
        )
    )


def enqueue_many(
    session: orm.Session, items: Sequence[tuple[str, str, dict[str, Any]]]
) -> None:
    """Enqueue (subscription id, notification type, payload) items in one
    statement."""
    if not items:
        return
    now = utcnow()
    session.execute(
        sa.insert(OUTBOX),
        [
            {
                "subscription_id": sub,
                "notification_type": kind,
                "payload": payload,
                "attempts": 0,
                "next_attempt_at": now,
                "given_up": False,
                "created_at": now,
            }
            for sub, kind, payload in items
        ],
    )


def _pending():
    return sa.and_(
        OUTBOX.c.delivered_at.is_(None), OUTBOX.c.given_up.is_(False)
    )


def claim_due(
    session: orm.Session,
    host: str,
    lease: datetime.timedelta,
    limit: int = 50,
) -> list[Mapping[str, Any]]:
    """Claim the due head notification of each subscription for ``host``.

    A claim expires after ``lease`` so that a conductor that dies while
    delivering does not block the subscription forever.
    """
    now = utcnow()
    heads = (
        sa.select(sa.func.min(OUTBOX.c.id).label("id"))
        .where(_pending())
        .group_by(OUTBOX.c.subscription_id)
        .subquery()
    )
    candidates = session.execute(
        sa.select(OUTBOX.c.id)
        .where(
            OUTBOX.c.id.in_(sa.select(heads.c.id)),
            OUTBOX.c.next_attempt_at <= now,
            sa.or_(
                OUTBOX.c.claimed_until.is_(None),
                OUTBOX.c.claimed_until < now,
            ),
        )
        .order_by(OUTBOX.c.id)
        .limit(limit)
    ).scalars()
    claimed = []
    for row_id in list(candidates):
        won = session.execute(
            sa.update(OUTBOX)
            .where(
                OUTBOX.c.id == row_id,
                _pending(),
                sa.or_(
                    OUTBOX.c.claimed_until.is_(None),
                    OUTBOX.c.claimed_until < now,
                ),
            )
            .values(claimed_by=host, claimed_until=now + lease)
        ).rowcount
        if won:
            claimed.append(row_id)
    if not claimed:
        return []
    return list(
        session.execute(
            sa.select(OUTBOX).where(OUTBOX.c.id.in_(claimed))
        ).mappings()
    )


def mark_delivered(session: orm.Session, row_id: int) -> None:
    now = utcnow()
    session.execute(
        sa.update(OUTBOX)
        .where(OUTBOX.c.id == row_id)
        .values(
            delivered_at=now,
            attempts=OUTBOX.c.attempts + 1,
            claimed_by=None,
            claimed_until=None,
            updated_at=now,
        )
    )


def mark_failed(
    session: orm.Session,
    row_id: int,
    error: str,
    retry_at: datetime.datetime | None,
) -> None:
    """Record a failed attempt; ``retry_at`` None means give up."""
    now = utcnow()
    session.execute(
        sa.update(OUTBOX)
        .where(OUTBOX.c.id == row_id)
        .values(
            attempts=OUTBOX.c.attempts + 1,
            last_error=error[:2000],
            next_attempt_at=retry_at or now,
            given_up=retry_at is None,
            claimed_by=None,
            claimed_until=None,
            updated_at=now,
        )
    )


def drop_for_subscription(session: orm.Session, subscription_id: str) -> None:
    """Forget undelivered notifications of a deleted subscription."""
    session.execute(
        sa.delete(OUTBOX).where(
            OUTBOX.c.subscription_id == subscription_id, _pending()
        )
    )


def pending_count(session: orm.Session) -> int:
    return session.execute(
        sa.select(sa.func.count()).select_from(OUTBOX).where(_pending())
    ).scalar_one()
