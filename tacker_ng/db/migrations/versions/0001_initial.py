"""Initial tables: SOL003 core, packages, grants, conductors.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _timestamps() -> list[sa.Column]:
    return [
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "vnf_packages",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("onboarding_state", sa.String(16), nullable=False),
        sa.Column("operational_state", sa.String(16), nullable=False),
        sa.Column("usage_state", sa.String(16), nullable=False),
        sa.Column("vnfd_id", sa.String(255)),
        sa.Column("vnf_provider", sa.String(255)),
        sa.Column("vnf_product_name", sa.String(255)),
        sa.Column("vnf_software_version", sa.String(255)),
        sa.Column("vnfd_version", sa.String(255)),
        sa.Column("checksum", JSONDoc),
        sa.Column("software_images", JSONDoc),
        sa.Column("additional_artifacts", JSONDoc),
        sa.Column("onboarding_failure_details", JSONDoc),
        sa.Column("user_defined_data", JSONDoc),
        sa.Column("package_size", sa.BigInteger()),
        sa.Column("project_id", sa.String(64), index=True),
        *_timestamps(),
        sa.UniqueConstraint("vnfd_id", name="uniq_vnf_packages0vnfd_id"),
    )
    op.create_table(
        "vnf_instances",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("vnf_instance_name", sa.String(255)),
        sa.Column("vnf_instance_description", sa.Text()),
        sa.Column("vnfd_id", sa.String(255), nullable=False, index=True),
        sa.Column("vnf_provider", sa.String(255), nullable=False),
        sa.Column("vnf_product_name", sa.String(255), nullable=False),
        sa.Column("vnf_software_version", sa.String(255), nullable=False),
        sa.Column("vnfd_version", sa.String(255), nullable=False),
        sa.Column("vnf_configurable_properties", JSONDoc),
        sa.Column("vim_connection_info", JSONDoc),
        sa.Column(
            "instantiation_state", sa.String(32), nullable=False, index=True
        ),
        sa.Column("instantiated_vnf_info", JSONDoc),
        sa.Column("metadata", JSONDoc),
        sa.Column("extensions", JSONDoc),
        sa.Column("project_id", sa.String(64), index=True),
        sa.Column("current_op_occ_id", sa.String(36)),
        sa.Column("version", sa.Integer(), nullable=False),
        *_timestamps(),
    )
    op.create_table(
        "vnf_lcm_op_occs",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "operation_state", sa.String(16), nullable=False, index=True
        ),
        sa.Column("state_entered_time", UTCDateTime(), nullable=False),
        sa.Column("start_time", UTCDateTime(), nullable=False),
        sa.Column(
            "vnf_instance_id",
            sa.String(36),
            sa.ForeignKey("vnf_instances.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("grant_id", sa.String(36)),
        sa.Column("operation", sa.String(32), nullable=False),
        sa.Column("is_automatic_invocation", sa.Boolean(), nullable=False),
        sa.Column("operation_params", JSONDoc),
        sa.Column("is_cancel_pending", sa.Boolean(), nullable=False),
        sa.Column("cancel_mode", sa.String(16)),
        sa.Column("error", JSONDoc),
        sa.Column("resource_changes", JSONDoc),
        sa.Column("changed_info", JSONDoc),
        sa.Column("changed_ext_connectivity", JSONDoc),
        sa.Column("progress", JSONDoc),
        sa.Column("conductor_host", sa.String(255)),
        sa.Column("project_id", sa.String(64), index=True),
        *_timestamps(),
    )
    op.create_index(
        "vnf_lcm_op_occs_instance_created_idx",
        "vnf_lcm_op_occs",
        ["vnf_instance_id", "created_at"],
    )
    op.create_table(
        "lccn_subscriptions",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("callback_uri", sa.Text(), nullable=False),
        sa.Column("filter", JSONDoc),
        sa.Column("verbosity", sa.String(16), nullable=False),
        sa.Column("authentication", JSONDoc),
        sa.Column("fingerprint", sa.String(64), nullable=False, index=True),
        sa.Column("project_id", sa.String(64), index=True),
        *_timestamps(),
    )
    op.create_table(
        "grants",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "vnf_instance_id", sa.String(36), nullable=False, index=True
        ),
        sa.Column(
            "vnf_lcm_op_occ_id", sa.String(36), nullable=False, index=True
        ),
        sa.Column("grant_request", JSONDoc),
        sa.Column("grant", JSONDoc),
        *_timestamps(),
    )
    op.create_table(
        "conductors",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("hostname", sa.String(255), nullable=False),
        sa.Column("online", sa.Boolean(), nullable=False),
        sa.Column("rpc_version", sa.String(16), nullable=False),
        sa.Column("started_at", UTCDateTime(), nullable=False),
        sa.Column("heartbeat_at", UTCDateTime(), nullable=False, index=True),
        *_timestamps(),
        sa.UniqueConstraint("hostname", name="uniq_conductors0hostname"),
    )


def downgrade() -> None:
    for table in (
        "conductors",
        "grants",
        "lccn_subscriptions",
        "vnf_lcm_op_occs",
        "vnf_instances",
        "vnf_packages",
    ):
        op.drop_table(table)
