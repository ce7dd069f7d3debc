"""LCM notification outbox.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lcm_notifications",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("subscription_id", sa.String(36), nullable=False),
        sa.Column("notification_type", sa.String(64), nullable=False),
        sa.Column("payload", JSONDoc, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=False),
        sa.Column("claimed_by", sa.String(255)),
        sa.Column("claimed_until", UTCDateTime()),
        sa.Column("delivered_at", UTCDateTime()),
        sa.Column("given_up", sa.Boolean(), nullable=False),
        sa.Column("last_error", sa.Text()),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    )
    op.create_index(
        "lcm_notifications_pending_idx",
        "lcm_notifications",
        ["delivered_at", "subscription_id", "id"],
    )


def downgrade() -> None:
    op.drop_table("lcm_notifications")
