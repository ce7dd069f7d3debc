"""Table of the VIMs this VNFM knows by ``vimId`` (the VIM registry).

SOL003 lets a VimConnectionInfo carry only a ``vimId`` when the VIM's
details were configured into the VNFM "by means outside the scope" of
SOL003; this table is that configuration. A row is written by the
conductor from what a MgmtDriver hook returns (e.g. the Kubernetes
cluster a VNF provides) and removed when that VNF stops providing it.
"""

import datetime

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json
from tacker_ng.db.types import JSONDoc, UTCDateTime


class RegisteredVim(Base):
    """A VimConnectionInfo (secrets sealed) known by its ``vimId``."""

    __tablename__ = "registered_vims"
    __table_args__ = (
        sa.Index("registered_vims_provider_idx", "provider_vnf_instance_id"),
        sa.Index("registered_vims_project_idx", "project_id"),
        sa.UniqueConstraint(
            "default_project", name="uniq_registered_vims0default_project"
        ),
        sa.UniqueConstraint(
            "project_id", "name", name="uniq_registered_vims0project_id0name"
        ),
    )

    vim_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), primary_key=True
    )
    vim_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    #: The VimConnectionInfo; ``accessInfo`` sealed with crypto.seal.
    vim_connection_info: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: The VNF instance whose MgmtDriver registered it (its cluster).
    provider_vnf_instance_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36)
    )
    #: What an operator registered through ``/v1.0/vims`` (NULL for the
    #: VIMs a VNF provides).
    name: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    description: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    #: The owner project (Tacker's ``tenant_id``).
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(64))
    #: ``project_id`` while this is the project's default VIM, else NULL
    #: (unique: one default per project, decided by the database).
    default_project: orm.Mapped[str | None] = orm.mapped_column(sa.String(64))
    #: PENDING (not checked yet), REACHABLE or UNREACHABLE.
    status: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False, server_default="PENDING"
    )
    #: Why it is UNREACHABLE, in tacker-ng's words.
    status_detail: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    status_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
