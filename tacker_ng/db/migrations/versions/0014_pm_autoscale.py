"""Automatic scaling: per VNF instance, the failures in a row of its
automatic SCALEs, the back-off until the next one may start, and the one
started but not yet accounted (so a conductor that dies between the end
of an automatic scale and its accounting leaves the work to the next).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import UTCDateTime

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vnf_autoscale",
        sa.Column("vnf_instance_id", sa.String(36), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_op_occ_id", sa.String(36)),
        sa.Column("backoff_until", UTCDateTime()),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("vnf_autoscale")
