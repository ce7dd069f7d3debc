"""VNF snapshots (SOL003 VnfSnapshotInfo).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLE = "vnf_snapshots"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("vnf_snapshot_pkg_id", sa.String(255)),
        sa.Column("vnf_instance_id", sa.String(36)),
        sa.Column("vnf_snapshot", JSONDoc),
        sa.Column("op_occ_id", sa.String(36)),
        sa.Column("deleting", sa.Boolean(), nullable=False),
        sa.Column("project_id", sa.String(64), index=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    )
    op.create_index("vnf_snapshots_instance_idx", TABLE, ["vnf_instance_id"])
    op.create_index(f"{TABLE}_page_idx", TABLE, ["created_at", "id"])
    op.create_index(
        f"{TABLE}_project_page_idx", TABLE, ["project_id", "created_at", "id"]
    )


def downgrade() -> None:
    op.drop_table(TABLE)
