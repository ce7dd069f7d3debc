"""Table of VNF snapshots (SOL003 VnfSnapshotInfo + its VnfSnapshot).

A row is created empty by ``POST /vnf_snapshots``; a CREATE_SNAPSHOT op
occ fills ``vnf_snapshot``. ``op_occ_id`` names the last op occ that used
the row (creating or reverting to it): the row is in use while that op
occ is not in a final state, which conditional UPDATEs decide in SQL.
"""

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json, _page_indexes
from tacker_ng.db.types import JSONDoc


class VnfSnapshot(Base):
    """A VnfSnapshotInfo; ``vnf_snapshot`` is its VnfSnapshot body, with
    the secrets of ``vnfInstance.vimConnectionInfo`` sealed."""

    __tablename__ = "vnf_snapshots"
    __table_args__ = (
        sa.Index("vnf_snapshots_instance_idx", "vnf_instance_id"),
        *_page_indexes("vnf_snapshots"),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    vnf_snapshot_pkg_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    #: The instance the snapshot was taken of (NULL while empty).
    vnf_instance_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    vnf_snapshot: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: The op occ that last used the row (see the module doc).
    op_occ_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    #: Set by DELETE: the conductor deletes the VIM images, then the row.
    deleting: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )
