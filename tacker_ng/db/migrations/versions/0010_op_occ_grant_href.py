"""Where an op occ's grant lives (its ``_links.grant``).

``grant_href``: the NFVO's URL of the grant in remote NFVO mode (the
Location it answered), ``/grant/v1/grants/{grantId}`` (made absolute when
shown) when the local NFVO granted. NULL for op occs granted before this
revision: shown as before.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TABLE = "vnf_lcm_op_occs"


def upgrade() -> None:
    op.add_column(TABLE, sa.Column("grant_href", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column(TABLE, "grant_href")
