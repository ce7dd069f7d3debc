"""``/grant/v1/grants/{grantId}`` (SOL003 9.4.3): the local NFVO's grants.

With ``[nfvo] mode = local`` tacker-ng is its own NFVO: an op occ's
``_links.grant`` points here, and GET serves the grant as the local NFVO
issued it (read-only, to a reader of the op occ's project). POST is not
served: the conductors grant internally. With a remote NFVO every grant
is the NFVO's (``_links.grant`` points there), so every id is 404 here.
"""

import pecan
from oslo_config import cfg

from tacker_ng.api import routing
from tacker_ng.api.controllers.vnflcm import common
from tacker_ng.db import api as db_api
from tacker_ng.db import grants as grants_db
from tacker_ng.objects import views

P = "tacker_ng:grant"


class GrantController:
    """``/grant/v1/grants/{grantId}``: show."""

    def __init__(self, grant_id: str) -> None:
        self.grant_id = grant_id

    @routing.resource()
    def index(self) -> dict:
        if cfg.CONF.nfvo.mode != "local":
            raise grants_db.GrantNotFound(
                id=self.grant_id,
                detail=f"Grant {self.grant_id} is not served here: with "
                "[nfvo] mode = remote the NFVO keeps the grants (an op "
                "occ's _links.grant points at it).",
            )
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = grants_db.get(session, self.grant_id, common.scope(ctx))
        common.authorize(f"{P}:grant_show", row["project_id"])
        return views.grant(common.base_url(), row)


class GrantsController:
    """``/grant/v1/grants``: no method (grants are made internally)."""

    @routing.resource(get=False)
    def index(self) -> None:
        """Every method is 405 (with an empty ``Allow``)."""

    @pecan.expose()
    def _lookup(self, grant_id, *remainder):
        return GrantController(grant_id), remainder
