"""Keyset-paging indexes for the SOL list resources.

Lists are ordered by (created_at, id), optionally within a project; these
indexes let the first and every later page be an index range scan.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TABLES = (
    "vnf_instances",
    "vnf_lcm_op_occs",
    "lccn_subscriptions",
    "vnf_packages",
)


def upgrade() -> None:
    for table in TABLES:
        op.create_index(f"{table}_page_idx", table, ["created_at", "id"])
        op.create_index(
            f"{table}_project_page_idx",
            table,
            ["project_id", "created_at", "id"],
        )


def downgrade() -> None:
    for table in TABLES:
        op.drop_index(f"{table}_project_page_idx", table_name=table)
        op.drop_index(f"{table}_page_idx", table_name=table)
