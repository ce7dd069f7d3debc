"""VNF packages keep the deviations accepted at onboarding
(``[vnf_package] compatibility = tacker``): VnfPkgInfo
``onboardingWarnings``, a JSON list of sentences.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

from tacker_ng.db.types import JSONDoc

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("vnf_packages") as batch:
        batch.add_column(sa.Column("onboarding_warnings", JSONDoc))


def downgrade() -> None:
    with op.batch_alter_table("vnf_packages") as batch:
        batch.drop_column("onboarding_warnings")
