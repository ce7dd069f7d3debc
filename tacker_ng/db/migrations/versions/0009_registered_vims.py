"""The VIM registry (VIMs known by vimId, e.g. a VNF's Kubernetes cluster).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TABLE = "registered_vims"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("vim_id", sa.String(255), primary_key=True),
        sa.Column("vim_type", sa.String(255), nullable=False),
        sa.Column("vim_connection_info", JSONDoc),
        sa.Column("provider_vnf_instance_id", sa.String(36)),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    )
    op.create_index(
        "registered_vims_provider_idx", TABLE, ["provider_vnf_instance_id"]
    )


def downgrade() -> None:
    op.drop_table(TABLE)
