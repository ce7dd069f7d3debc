"""Table of the VIMs this VNFM knows by ``vimId`` (the VIM registry).

SOL003 lets a VimConnectionInfo carry only a ``vimId`` when the VIM's
details were configured into the VNFM "by means outside the scope" of
SOL003; this table is that configuration. A row is written by the
conductor from what a MgmtDriver hook returns (e.g. the Kubernetes
cluster a VNF provides) and removed when that VNF stops providing it.
"""

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json
from tacker_ng.db.types import JSONDoc


class RegisteredVim(Base):
    """A VimConnectionInfo (secrets sealed) known by its ``vimId``."""

    __tablename__ = "registered_vims"
    __table_args__ = (
        sa.Index("registered_vims_provider_idx", "provider_vnf_instance_id"),
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
