"""Reservation service: leases, reservations, hosts, ledger, events.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc, UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _timestamps() -> list[sa.Column]:
    return [
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=True),
    ]


def _reservation_fk() -> sa.Column:
    return sa.Column(
        "reservation_id",
        sa.String(36),
        sa.ForeignKey("reservations.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    )


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("user_id", sa.String(64)),
        sa.Column("project_id", sa.String(64), nullable=False, index=True),
        sa.Column("start_date", UTCDateTime(), nullable=False),
        sa.Column("end_date", UTCDateTime(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("degraded", sa.Boolean(), nullable=False),
        sa.Column("trust_id", sa.String(36)),
        *_timestamps(),
        sa.UniqueConstraint(
            "project_id", "name", name="uniq_leases0project_id0name"
        ),
    )
    op.create_table(
        "reservations",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "lease_id",
            sa.String(36),
            sa.ForeignKey("leases.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("resource_type", sa.String(32), nullable=False),
        sa.Column("resource_id", sa.String(36), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("missing_resources", sa.Boolean(), nullable=False),
        sa.Column("resources_changed", sa.Boolean(), nullable=False),
        *_timestamps(),
    )
    op.create_table(
        "instance_reservations",
        sa.Column("id", sa.String(36), primary_key=True),
        _reservation_fk(),
        sa.Column("vcpus", sa.Integer(), nullable=False),
        sa.Column("memory_mb", sa.Integer(), nullable=False),
        sa.Column("disk_gb", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("affinity", sa.Boolean()),
        sa.Column("resource_properties", sa.Text()),
        sa.Column("flavor_id", sa.String(36)),
        sa.Column("server_group_id", sa.String(36)),
        sa.Column("aggregate_id", sa.Integer()),
        *_timestamps(),
    )
    op.create_table(
        "host_reservations",
        sa.Column("id", sa.String(36), primary_key=True),
        _reservation_fk(),
        sa.Column("min", sa.Integer(), nullable=False),
        sa.Column("max", sa.Integer(), nullable=False),
        sa.Column("hypervisor_properties", sa.Text()),
        sa.Column("resource_properties", sa.Text()),
        sa.Column("before_end", sa.String(16)),
        sa.Column("aggregate_id", sa.Integer()),
        *_timestamps(),
    )
    op.create_table(
        "compute_hosts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("hypervisor_hostname", sa.String(255), nullable=False),
        sa.Column("service_name", sa.String(255), nullable=False),
        sa.Column("availability_zone", sa.String(255)),
        sa.Column("hypervisor_type", sa.String(255)),
        sa.Column("hypervisor_version", sa.BigInteger()),
        sa.Column("cpu_info", sa.Text()),
        sa.Column("vcpus", sa.Integer(), nullable=False),
        sa.Column("memory_mb", sa.Integer(), nullable=False),
        sa.Column("local_gb", sa.Integer(), nullable=False),
        sa.Column("reservable", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(32)),
        sa.Column("extra_capabilities", JSONDoc),
        sa.Column("trust_id", sa.String(36)),
        *_timestamps(),
        sa.UniqueConstraint(
            "hypervisor_hostname",
            name="uniq_compute_hosts0hypervisor_hostname",
        ),
    )
    op.create_table(
        "host_allocations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "reservation_id",
            sa.String(36),
            sa.ForeignKey("reservations.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("lease_id", sa.String(36), nullable=False, index=True),
        sa.Column(
            "host_id",
            sa.Integer(),
            sa.ForeignKey("compute_hosts.id"),
            nullable=False,
        ),
        sa.Column("start_date", UTCDateTime(), nullable=False),
        sa.Column("end_date", UTCDateTime(), nullable=False),
        sa.Column("instances", sa.Integer(), nullable=False),
        sa.Column("vcpus", sa.Integer(), nullable=False),
        sa.Column("memory_mb", sa.Integer(), nullable=False),
        sa.Column("disk_gb", sa.Integer(), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        *_timestamps(),
    )
    op.create_index(
        "host_allocations_window_idx",
        "host_allocations",
        ["end_date", "start_date"],
    )
    op.create_index(
        "host_allocations_host_end_idx",
        "host_allocations",
        ["host_id", "end_date"],
    )
    op.create_table(
        "lease_events",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "lease_id",
            sa.String(36),
            sa.ForeignKey("leases.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("event_type", sa.String(32), nullable=False),
        sa.Column("time", UTCDateTime(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("conductor_host", sa.String(255)),
        sa.Column("claimed_at", UTCDateTime()),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text()),
        *_timestamps(),
    )
    op.create_index(
        "lease_events_status_time_idx", "lease_events", ["status", "time"]
    )


def downgrade() -> None:
    for table in (
        "lease_events",
        "host_allocations",
        "compute_hosts",
        "host_reservations",
        "instance_reservations",
        "reservations",
        "leases",
    ):
        op.drop_table(table)
