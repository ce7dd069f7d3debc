"""What a conductor reports with its heartbeat, for ``/metrics``: the
duration of its last observation cycle and the jobboard it sees (jobs
posted, jobs nobody has claimed). The API's metrics read them from here
(one statement per scrape) instead of scraping every conductor. Two
indexes of op occs keep that statement cheap: (operation_state,
operation) to count them from the index alone, state_entered_time to find
the recently finished ones (tacker_ng/db/fleet_metrics.py).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import UTCDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("conductors") as batch:
        batch.add_column(sa.Column("observe_cycle_seconds", sa.Float()))
        batch.add_column(sa.Column("observe_cycle_at", UTCDateTime()))
        batch.add_column(sa.Column("jobboard_jobs", sa.Integer()))
        batch.add_column(sa.Column("jobboard_unclaimed", sa.Integer()))
    op.create_index(
        "vnf_lcm_op_occs_metrics_idx",
        "vnf_lcm_op_occs",
        ["operation_state", "operation"],
    )
    op.create_index(
        "vnf_lcm_op_occs_entered_idx",
        "vnf_lcm_op_occs",
        ["state_entered_time"],
    )


def downgrade() -> None:
    op.drop_index("vnf_lcm_op_occs_entered_idx", "vnf_lcm_op_occs")
    op.drop_index("vnf_lcm_op_occs_metrics_idx", "vnf_lcm_op_occs")
    with op.batch_alter_table("conductors") as batch:
        for column in (
            "jobboard_unclaimed",
            "jobboard_jobs",
            "observe_cycle_at",
            "observe_cycle_seconds",
        ):
            batch.drop_column(column)
