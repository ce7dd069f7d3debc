"""Tables of taskflow's SQLAlchemy persistence backend, in our schema.

LCM operations run as taskflow flows whose atom states are persisted by
``taskflow.persistence.backends.impl_sqlalchemy``. Its tables live in the
shared database so that any conductor can resume a flow another one
started; they are created by our alembic migrations (``tacker-ng-db-manage
upgrade``), not by taskflow's own, so one ``alembic_version`` tracks the
whole schema. Names and columns are the ones taskflow reads and writes.
"""

import sqlalchemy as sa
from sqlalchemy.dialects import mysql, postgresql

from tacker_ng.db import models

#: taskflow stores JSON as text (as native JSON on PostgreSQL); results of
#: an infra driver (an instantiatedVnfInfo) may exceed MySQL's 64 KiB TEXT.
FlowJSON = (
    sa.UnicodeText()
    .with_variant(mysql.LONGTEXT(), "mysql")
    .with_variant(postgresql.JSON(), "postgresql")
)

#: ``taskflow.persistence.models.ATOM_TYPES`` / ``taskflow.states.INTENTIONS``.
ATOM_TYPES = ("TASK_DETAIL", "RETRY_DETAIL")
INTENTIONS = ("EXECUTE", "IGNORE", "REVERT", "RETRY")

LOGBOOKS = sa.Table(
    "logbooks",
    models.Base.metadata,
    sa.Column("created_at", sa.DateTime),
    sa.Column("updated_at", sa.DateTime),
    sa.Column("meta", FlowJSON),
    sa.Column("name", sa.String(255)),
    sa.Column("uuid", sa.String(64), primary_key=True),
)

FLOWDETAILS = sa.Table(
    "flowdetails",
    models.Base.metadata,
    sa.Column("created_at", sa.DateTime),
    sa.Column("updated_at", sa.DateTime),
    sa.Column(
        "parent_uuid",
        sa.String(64),
        sa.ForeignKey("logbooks.uuid", ondelete="CASCADE"),
    ),
    sa.Column("meta", FlowJSON),
    sa.Column("name", sa.String(255)),
    sa.Column("state", sa.String(255)),
    sa.Column("uuid", sa.String(64), primary_key=True),
)

ATOMDETAILS = sa.Table(
    "atomdetails",
    models.Base.metadata,
    sa.Column("created_at", sa.DateTime),
    sa.Column("updated_at", sa.DateTime),
    sa.Column("meta", FlowJSON),
    sa.Column(
        "parent_uuid",
        sa.String(64),
        sa.ForeignKey("flowdetails.uuid", ondelete="CASCADE"),
    ),
    sa.Column("name", sa.String(255)),
    sa.Column("version", sa.String(64)),
    sa.Column("state", sa.String(255)),
    sa.Column("uuid", sa.String(64), primary_key=True),
    sa.Column("failure", FlowJSON),
    sa.Column("results", FlowJSON),
    sa.Column("revert_results", FlowJSON),
    sa.Column("revert_failure", FlowJSON),
    sa.Column("atom_type", sa.Enum(*ATOM_TYPES, name="atom_types")),
    sa.Column("intention", sa.Enum(*INTENTIONS, name="intentions")),
)
