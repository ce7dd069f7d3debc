"""taskflow persistence: logbooks, flowdetails, atomdetails.

LCM flows persist their atom states here (see tacker_ng.db.models_taskflow).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

JSON_TEXT = (
    sa.UnicodeText()
    .with_variant(mysql.LONGTEXT(), "mysql")
    .with_variant(postgresql.JSON(), "postgresql")
)
ATOM_TYPES = ("TASK_DETAIL", "RETRY_DETAIL")
INTENTIONS = ("EXECUTE", "IGNORE", "REVERT", "RETRY")


def _times() -> list[sa.Column]:
    return [
        sa.Column("created_at", sa.DateTime),
        sa.Column("updated_at", sa.DateTime),
    ]


def upgrade() -> None:
    op.create_table(
        "logbooks",
        *_times(),
        sa.Column("meta", JSON_TEXT),
        sa.Column("name", sa.String(255)),
        sa.Column("uuid", sa.String(64), primary_key=True),
    )
    op.create_table(
        "flowdetails",
        *_times(),
        sa.Column(
            "parent_uuid",
            sa.String(64),
            sa.ForeignKey("logbooks.uuid", ondelete="CASCADE"),
        ),
        sa.Column("meta", JSON_TEXT),
        sa.Column("name", sa.String(255)),
        sa.Column("state", sa.String(255)),
        sa.Column("uuid", sa.String(64), primary_key=True),
    )
    op.create_table(
        "atomdetails",
        *_times(),
        sa.Column("meta", JSON_TEXT),
        sa.Column(
            "parent_uuid",
            sa.String(64),
            sa.ForeignKey("flowdetails.uuid", ondelete="CASCADE"),
        ),
        sa.Column("name", sa.String(255)),
        sa.Column("version", sa.String(64)),
        sa.Column("state", sa.String(255)),
        sa.Column("uuid", sa.String(64), primary_key=True),
        sa.Column("failure", JSON_TEXT),
        sa.Column("results", JSON_TEXT),
        sa.Column("revert_results", JSON_TEXT),
        sa.Column("revert_failure", JSON_TEXT),
        sa.Column("atom_type", sa.Enum(*ATOM_TYPES, name="atom_types")),
        sa.Column("intention", sa.Enum(*INTENTIONS, name="intentions")),
    )


def downgrade() -> None:
    op.drop_table("atomdetails")
    op.drop_table("flowdetails")
    op.drop_table("logbooks")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TYPE IF EXISTS intentions")
        op.execute("DROP TYPE IF EXISTS atom_types")
