"""VNF package management subscriptions (SOL005 PkgmSubscription).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLE = "pkgm_subscriptions"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("callback_uri", sa.Text(), nullable=False),
        sa.Column("filter", JSONDoc),
        sa.Column("authentication", JSONDoc),
        sa.Column("fingerprint", sa.String(64), nullable=False, index=True),
        sa.Column("project_id", sa.String(64), index=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    )
    op.create_index(f"{TABLE}_page_idx", TABLE, ["created_at", "id"])
    op.create_index(
        f"{TABLE}_project_page_idx", TABLE, ["project_id", "created_at", "id"]
    )


def downgrade() -> None:
    op.drop_table(TABLE)
