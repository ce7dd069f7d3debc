"""``/vnflcm/v2/vnf_snapshots`` (SOL003 5.4.23-5.4.25): create an empty
VnfSnapshotInfo (filled by ``create_snapshot``), list (filter and paging
in SQL), show, modify (PATCH), delete, and ``vnf_state_snapshot``.

PATCH may change an empty VnfSnapshotInfo only (decided in SQL); the
two attributes SOL003 lets it set are ones tacker-ng cannot honour (422
naming the attribute), so an accepted PATCH changes nothing. tacker-ng
takes no VNF state snapshot: ``vnf_state_snapshot`` is always a 409.

DELETE hides the resource at once (409 while an op occ uses it) and
hands it to a conductor, which deletes the VIM images and then the row:
the API never waits on a VIM.
"""

import oslo_messaging as messaging
import pecan
from oslo_log import log as logging

from tacker_ng import exceptions
from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import common, listing
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import field_maps, vnf_snapshots
from tacker_ng.objects import views
from tacker_ng.objects import vnf_snapshots as snapshot_views

LOG = logging.getLogger(__name__)
P = "tacker_ng:vnflcm"
VNF_SNAPSHOTS = api_listing.ListResource(
    "VnfSnapshotInfo", field_maps.VNF_SNAPSHOT_INFO, None
)


class UnsupportedAttribute(exceptions.UnprocessableEntity):
    message = "{name} is not supported: {reason}."


class NoStateSnapshot(exceptions.Conflict):
    message = "VNF snapshot {id} has no VNF state snapshot: {reason}."


def _refuse_unsupported(body: dict) -> None:
    found = snapshot_views.unsupported(body)
    if found is not None:
        raise UnsupportedAttribute(name=found[0], reason=found[1])


def _merge_patch_media() -> str:
    """The media type a PATCH body is read as: JSON Merge Patch, or
    plain JSON (accepted like on the other PATCH routes)."""
    content_type = (pecan.request.content_type or "").split(";")[0].strip()
    if content_type == validation.JSON:
        return validation.JSON
    return validation.MERGE_PATCH


class VnfStateSnapshotController:
    """``/vnf_snapshots/{id}/vnf_state_snapshot`` (SOL003 5.4.25)."""

    def __init__(self, parent: "VnfSnapshotController") -> None:
        self.parent = parent

    @routing.resource()
    def index(self):
        row = self.parent._row("snapshot_state_show")
        snapshot = row["vnf_snapshot"]
        if not snapshot:
            raise NoStateSnapshot(
                id=row["id"],
                reason="the VnfSnapshotInfo is empty (create_snapshot has "
                "not filled it)",
            )
        # Always absent: compose() never sets it and a VnfSnapshot from
        # elsewhere is refused, so there is no content to serve.
        raise NoStateSnapshot(
            id=row["id"],
            reason="tacker-ng snapshots the VNFCs' disks as VIM images "
            "(vnfSnapshot.vnfcSnapshots) and takes no VNF-specific state "
            "snapshot (vnfSnapshot.vnfStateSnapshotInfo is absent)",
        )


class VnfSnapshotController:
    """``/vnf_snapshots/{vnfSnapshotInfoId}``: show, modify, delete."""

    def __init__(self, snapshot_id: str) -> None:
        self.snapshot_id = snapshot_id
        self.vnf_state_snapshot = VnfStateSnapshotController(self)

    def _row(self, rule: str):
        ctx = common.context()
        with db_api.reader(ctx) as session:
            row = vnf_snapshots.get(
                session, self.snapshot_id, common.scope(ctx)
            )
        common.authorize(f"{P}:{rule}", row["project_id"])
        return row

    @routing.resource()
    def index(self) -> dict:
        return snapshot_views.view(
            common.base_url(), self._row("snapshot_show")
        )

    @index.when(method="PATCH", template="json")
    def patch(self) -> dict:
        """Modify an empty VnfSnapshotInfo (SOL003 5.4.24.3.4): 409 once
        it holds a VnfSnapshot or an op occ uses it; answers the
        VnfSnapshotInfoModifications."""
        self._row("snapshot_update")
        body = validation.parse_json(
            pecan.request,
            schemas.VNF_SNAPSHOT_INFO_MODIFICATION_REQUEST,
            _merge_patch_media(),
        )
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                vnf_snapshots.check_modifiable(
                    session, self.snapshot_id, common.scope(ctx)
                )
                _refuse_unsupported(body)
        # Only nulls of attributes an empty VnfSnapshotInfo does not have
        # got here: nothing was modified.
        return {}

    @index.when(method="DELETE", template="json")
    def delete(self):
        self._row("snapshot_delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                vnf_snapshots.mark_deleting(
                    session, self.snapshot_id, common.scope(ctx)
                )
        try:
            rpcapi.get_api().delete_vnf_snapshot(ctx, self.snapshot_id)
        except messaging.MessagingException as exc:
            # The resource is gone for the NFVO; its images stay until an
            # operator deletes them (logged with the snapshot's id).
            LOG.error(
                "VNF snapshot %s: the cast to delete its images failed: %s",
                self.snapshot_id,
                exc,
            )
        return common.empty(204)


class VnfSnapshotsController:
    """``/vnf_snapshots``: create, list."""

    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize(f"{P}:snapshot_index")
        base = common.base_url()
        return listing.respond(
            VNF_SNAPSHOTS,
            common.scope(ctx),
            lambda row: snapshot_views.view(base, row),
        )

    @index.when(method="POST", template="json")
    def post(self) -> dict:
        common.authorize(f"{P}:snapshot_create")
        body = validation.parse_json(
            pecan.request, schemas.CREATE_VNF_SNAPSHOT_INFO_REQUEST
        )
        _refuse_unsupported(body)
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                row = vnf_snapshots.create(session, ctx.project_id)
        base = common.base_url()
        body = snapshot_views.view(base, row)
        location = f"{base}{views.LCM_PREFIX}/vnf_snapshots/{row['id']}"
        return common.created(location, body)

    @pecan.expose()
    def _lookup(self, snapshot_id, *remainder):
        return VnfSnapshotController(snapshot_id), remainder
