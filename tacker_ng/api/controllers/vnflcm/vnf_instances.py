"""VNF instances: ``/vnflcm/v2/vnf_instances[/{id}]`` (SOL003 5.4.2-3)."""

import pecan
import webob

from tacker_ng import crypto, exceptions
from tacker_ng.api import etags, routing, validation
from tacker_ng.api import listing as api_listing
from tacker_ng.api.controllers.vnflcm import (
    common,
    lcm_start,
    listing,
    tasks,
)
from tacker_ng.api.schemas import vnflcm as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm, vnf_packages_usage
from tacker_ng.nfvo import notify
from tacker_ng.nfvo import subscription_filter as sf
from tacker_ng.objects import lcm, views
from tacker_ng.packages import catalog

P = "tacker_ng:vnflcm"


def _etag(row) -> str:
    return f'"{row["version"]}"'


def _if_match() -> int | None:
    header = pecan.request.headers.get("If-Match")
    if not header:
        return None
    try:
        return int(header.strip().strip('"').removeprefix("W/").strip('"'))
    except ValueError:
        raise exceptions.PreconditionFailed(
            f"If-Match '{header}' is not an ETag of this resource."
        ) from None


class VnfInstanceController(tasks.TaskResources):
    """One VNF instance: show, modify (PATCH), delete, and its tasks."""

    def __init__(self, instance_id: str) -> None:
        super().__init__(instance_id)

    @routing.resource()
    def index(self) -> webob.Response:
        row = common.authorized_instance(self.instance_id, f"{P}:show")
        return etags.json_response(
            pecan.request,
            pecan.response,
            views.vnf_instance(common.base_url(), row),
            _etag(row),
        )

    @index.when(method="PATCH", template="json")
    def patch(self) -> str:
        common.authorized_instance(self.instance_id, f"{P}:update")
        content_type = (pecan.request.content_type or "").split(";")[0]
        media = (
            validation.JSON
            if content_type == validation.JSON
            else validation.MERGE_PATCH
        )
        body = validation.parse_json(
            pecan.request, schemas.VNF_INFO_MODIFICATION_REQUEST, media
        )
        if "vnfPkgId" in body:
            raise exceptions.UnprocessableEntity(
                "vnfPkgId cannot be changed by PATCH in API 2.0.0; use "
                "change_vnfpkg."
            )
        location = lcm_start.start(
            self.instance_id, lcm.Operation.MODIFY_INFO, body, _if_match()
        )
        return common.accepted(location)

    @index.when(method="DELETE", template="json")
    def delete(self) -> str:
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                row = vnf_lcm.get_instance(
                    session, self.instance_id, common.scope(ctx)
                )
                common.authorize(f"{P}:delete", row["project_id"])
                vnf_lcm.delete_instance(
                    session, self.instance_id, common.scope(ctx)
                )
                notify.identifier_changed(
                    session, sf.DELETION_NOTIFICATION, row
                )
                vnf_packages_usage.refresh(session, row["vnfd_id"])
        return common.empty(204)


class VnfInstancesController:
    """The collection: list and create."""

    @routing.resource()
    def index(self) -> webob.Response:
        ctx = common.context()
        common.authorize(f"{P}:index")
        base = common.base_url()
        return listing.respond(
            api_listing.VNF_INSTANCES,
            common.scope(ctx),
            lambda row: views.vnf_instance(base, row),
        )

    @index.when(method="POST", template="json")
    def create(self) -> dict:
        ctx = common.context()
        common.authorize(f"{P}:create")
        body = validation.parse_json(pecan.request, schemas.CREATE_VNF_REQUEST)
        lcm_start.check_vims(body.get("vimConnectionInfo"))
        for attempt in db_api.retrying():
            with attempt, db_api.write_connection(ctx) as session:
                package = catalog.find_onboarded(
                    session, body["vnfdId"], project_id=common.scope(ctx)
                )
                row = vnf_lcm.insert_instance(
                    session,
                    {
                        "vnf_instance_name": body.get("vnfInstanceName"),
                        "vnf_instance_description": body.get(
                            "vnfInstanceDescription"
                        ),
                        "vnfd_id": body["vnfdId"],
                        "vnf_provider": package["vnf_provider"],
                        "vnf_product_name": package["vnf_product_name"],
                        "vnf_software_version": package[
                            "vnf_software_version"
                        ],
                        "vnfd_version": package["vnfd_version"],
                        "metadata": body.get("metadata"),
                        "vim_connection_info": crypto.seal(
                            body.get("vimConnectionInfo") or {}
                        )
                        or None,
                        "project_id": ctx.project_id,
                    },
                )
                notify.identifier_changed(
                    session, sf.CREATION_NOTIFICATION, row
                )
                if package["usage_state"] != "IN_USE":
                    vnf_packages_usage.mark_in_use(session, package["id"])
        base = common.base_url()
        pecan.response.headers["ETag"] = _etag(row)
        return common.created(
            f"{base}{views.LCM_PREFIX}/vnf_instances/{row['id']}",
            views.vnf_instance(base, row),
        )

    @pecan.expose()
    def _lookup(self, instance_id, *remainder):
        return VnfInstanceController(instance_id), remainder
