"""Convergence: observed VNFC state, auto-heal back-off, FM alarms and
FM subscriptions (SOL003 clause 7).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0007"
down_revision = "0006"
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


def upgrade() -> None:
    op.create_table(
        "vnfc_observed",
        sa.Column("vnf_instance_id", sa.String(36), primary_key=True),
        sa.Column("vnfc_id", sa.String(255), primary_key=True),
        sa.Column("vdu_id", sa.String(255)),
        sa.Column("vim_connection_id", sa.String(255)),
        sa.Column("resource_id", sa.String(255)),
        sa.Column("status", sa.String(32)),
        sa.Column("host", sa.String(255)),
        sa.Column("host_up", sa.Boolean()),
        sa.Column("zone", sa.String(255)),
        sa.Column("drift", sa.String(32)),
        sa.Column("drift_since", UTCDateTime()),
        sa.Column("observed_at", UTCDateTime(), nullable=False),
        *_stamps(),
    )
    op.create_index("vnfc_observed_drift_idx", "vnfc_observed", ["drift"])
    op.create_table(
        "vnf_convergence",
        sa.Column("vnf_instance_id", sa.String(36), primary_key=True),
        sa.Column("autoheal_failures", sa.Integer(), nullable=False),
        sa.Column("last_autoheal_op_occ_id", sa.String(36)),
        sa.Column("backoff_until", UTCDateTime()),
        sa.Column("observe_requested_at", UTCDateTime(), index=True),
        *_stamps(),
    )
    op.create_table(
        "vnf_alarms",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "managed_object_id", sa.String(36), nullable=False, index=True
        ),
        sa.Column("vnfc_instance_ids", JSONDoc),
        sa.Column("root_cause_faulty_resource", JSONDoc),
        sa.Column("alarm_raised_time", UTCDateTime(), nullable=False),
        sa.Column("alarm_changed_time", UTCDateTime()),
        sa.Column("alarm_cleared_time", UTCDateTime()),
        sa.Column("alarm_acknowledged_time", UTCDateTime()),
        sa.Column("ack_state", sa.String(16), nullable=False),
        sa.Column("perceived_severity", sa.String(16), nullable=False),
        sa.Column("event_time", UTCDateTime(), nullable=False),
        sa.Column("event_type", sa.String(32), nullable=False),
        sa.Column("fault_type", sa.String(255)),
        sa.Column("probable_cause", sa.String(255), nullable=False),
        sa.Column("is_root_cause", sa.Boolean(), nullable=False),
        sa.Column("fault_details", JSONDoc),
        sa.Column("open_key", sa.String(300)),
        sa.Column("project_id", sa.String(64), index=True),
        *_stamps(),
        sa.UniqueConstraint("open_key", name="uniq_vnf_alarms0open_key"),
    )
    _page_indexes("vnf_alarms")
    op.create_table(
        "fm_subscriptions",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("callback_uri", sa.Text(), nullable=False),
        sa.Column("filter", JSONDoc),
        sa.Column("authentication", JSONDoc),
        sa.Column("fingerprint", sa.String(64), nullable=False, index=True),
        sa.Column("project_id", sa.String(64), index=True),
        *_stamps(),
    )
    _page_indexes("fm_subscriptions")


def downgrade() -> None:
    for table in (
        "fm_subscriptions",
        "vnf_alarms",
        "vnf_convergence",
        "vnfc_observed",
    ):
        op.drop_table(table)
