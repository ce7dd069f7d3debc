"""SOL003 VNF performance management (clause 6): PM jobs, performance
reports and their entries, thresholds and their last crossings.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _stamps() -> list[sa.Column]:
    return [
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    ]


def _page_indexes(table: str) -> None:
    op.create_index(f"{table}_page_idx", table, ["created_at", "id"])
    op.create_index(
        f"{table}_project_page_idx", table, ["project_id", "created_at", "id"]
    )


def _callback() -> list[sa.Column]:
    return [
        sa.Column("callback_uri", sa.Text(), nullable=False),
        sa.Column("authentication", JSONDoc),
        sa.Column("project_id", sa.String(64), index=True),
        sa.Column("shard", sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "pm_jobs",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("object_type", sa.String(32), nullable=False),
        sa.Column("object_instance_ids", JSONDoc, nullable=False),
        sa.Column("sub_object_instance_ids", JSONDoc),
        sa.Column("criteria", JSONDoc, nullable=False),
        *_callback(),
        sa.Column("next_report_at", UTCDateTime()),
        sa.Column("reporting_boundary", UTCDateTime()),
        *_stamps(),
    )
    _page_indexes("pm_jobs")
    op.create_index("pm_jobs_due_idx", "pm_jobs", ["next_report_at"])
    op.create_table(
        "pm_reports",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "job_id",
            sa.String(36),
            sa.ForeignKey("pm_jobs.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("period_start", UTCDateTime(), nullable=False),
        sa.Column("period_end", UTCDateTime(), nullable=False),
        sa.Column("ready_time", UTCDateTime(), nullable=False),
        sa.Column("expiry_time", UTCDateTime(), index=True),
        sa.Column("project_id", sa.String(64)),
        *_stamps(),
    )
    op.create_index(
        "pm_reports_job_idx", "pm_reports", ["job_id", "ready_time"]
    )
    op.create_table(
        "pm_report_entries",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column(
            "report_id",
            sa.String(36),
            sa.ForeignKey("pm_reports.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("object_type", sa.String(32), nullable=False),
        sa.Column("object_instance_id", sa.String(255), nullable=False),
        sa.Column("sub_object_instance_id", sa.String(255)),
        sa.Column("performance_metric", sa.String(255), nullable=False),
        sa.Column("performance_values", JSONDoc, nullable=False),
        *_stamps(),
    )
    op.create_table(
        "pm_thresholds",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("object_type", sa.String(32), nullable=False),
        sa.Column(
            "object_instance_id", sa.String(36), nullable=False, index=True
        ),
        sa.Column("sub_object_instance_ids", JSONDoc),
        sa.Column("criteria", JSONDoc, nullable=False),
        *_callback(),
        sa.Column("next_check_at", UTCDateTime(), nullable=False),
        *_stamps(),
    )
    _page_indexes("pm_thresholds")
    op.create_index(
        "pm_thresholds_due_idx", "pm_thresholds", ["next_check_at"]
    )
    op.create_table(
        "pm_threshold_states",
        sa.Column(
            "threshold_id",
            sa.String(36),
            sa.ForeignKey("pm_thresholds.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("object_instance_id", sa.String(36), primary_key=True),
        sa.Column("sub_object_instance_id", sa.String(255), primary_key=True),
        sa.Column("crossing_direction", sa.String(8), nullable=False),
        sa.Column("performance_value", JSONDoc),
        sa.Column("crossed_at", UTCDateTime(), nullable=False),
        *_stamps(),
    )


def downgrade() -> None:
    for table in (
        "pm_threshold_states",
        "pm_thresholds",
        "pm_report_entries",
        "pm_reports",
        "pm_jobs",
    ):
        op.drop_table(table)
