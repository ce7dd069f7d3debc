"""The VIM registry as an API (Tacker's ``/v1.0/vims``): name, owner
project, default flag and the reachability the conductors observe.

``default_project`` holds the project id while the VIM is that project's
default and NULL otherwise; its unique constraint lets the database, not
a read-then-write check, keep one default per project (and one VIM of a
name per project) (NULLs never
collide on MariaDB, PostgreSQL or SQLite).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import UTCDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TABLE = "registered_vims"


def upgrade() -> None:
    with op.batch_alter_table(TABLE) as batch:
        batch.add_column(sa.Column("name", sa.String(255)))
        batch.add_column(sa.Column("description", sa.Text()))
        batch.add_column(sa.Column("project_id", sa.String(64)))
        batch.add_column(sa.Column("default_project", sa.String(64)))
        batch.add_column(
            sa.Column(
                "status",
                sa.String(16),
                nullable=False,
                server_default="PENDING",
            )
        )
        batch.add_column(sa.Column("status_detail", sa.Text()))
        batch.add_column(sa.Column("status_at", UTCDateTime()))
        batch.create_unique_constraint(
            "uniq_registered_vims0default_project", ["default_project"]
        )
        batch.create_unique_constraint(
            "uniq_registered_vims0project_id0name", ["project_id", "name"]
        )
        batch.create_index("registered_vims_project_idx", ["project_id"])


def downgrade() -> None:
    with op.batch_alter_table(TABLE) as batch:
        batch.drop_index("registered_vims_project_idx")
        batch.drop_constraint(
            "uniq_registered_vims0project_id0name", type_="unique"
        )
        batch.drop_constraint(
            "uniq_registered_vims0default_project", type_="unique"
        )
        for column in (
            "status_at",
            "status_detail",
            "status",
            "default_project",
            "project_id",
            "description",
            "name",
        ):
            batch.drop_column(column)
