"""``/vnfpkgm/v1/vnf_packages[/{id}]``: create, list, show, PATCH, DELETE.

DELETE and PATCH are decided by the database: DELETE is one conditional
statement (DISABLED, NOT_IN_USE, not onboarding), PATCH updates the row
it locked.
"""

import pecan

from tacker_ng import exceptions
from tacker_ng.api import listing as api_listing
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnflcm import listing
from tacker_ng.api.controllers.vnfpkgm import common, content, views, vnfd
from tacker_ng.api.schemas import vnfpkgm as schemas
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_packages as packages_db
from tacker_ng.nfvo import pkgm_notify
from tacker_ng.objects import merge_patch
from tacker_ng.objects.package_states import (
    IN_PROGRESS,
    OperationalState,
    UsageState,
)
from tacker_ng.objects.package_states import OnboardingState as S
from tacker_ng.packages import onboarding, store


def _why_not_deleted(row) -> str:
    if row["operational_state"] == OperationalState.ENABLED:
        return "it is ENABLED; disable it first (PATCH operationalState)"
    if row["usage_state"] == UsageState.IN_USE:
        return "it is IN_USE by VNF instances"
    if row["onboarding_state"] in IN_PROGRESS:
        return (
            f"it is {row['onboarding_state']}; wait until onboarding ends "
            "(ONBOARDED or ERROR)"
        )
    return "its state changed meanwhile"


class VnfPackage:
    """One VNF package and its sub-resources."""

    def __init__(self, package_id: str) -> None:
        self.package_id = package_id
        self.package_content = content.PackageContent(self._load)
        self.vnfd = vnfd.Vnfd(self._load)
        self.artifacts = vnfd.Artifacts(self._load)

    def _load(self, rule: str):
        return common.load(self.package_id, rule)

    @routing.resource()
    def index(self) -> dict:
        return views.vnf_pkg_info(common.base_url(), self._load("show"))

    @index.when(method="PATCH", template="json")
    def patch(self) -> dict:
        self._load("update")
        media = (pecan.request.content_type or "").split(";")[0].strip()
        body = validation.parse_json(
            pecan.request,
            schemas.VNF_PKG_INFO_MODIFICATIONS,
            validation.JSON
            if media == validation.JSON
            else validation.MERGE_PATCH,
        )
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                row = packages_db.get(
                    session,
                    self.package_id,
                    common.scope(ctx),
                    for_update=True,
                )
                values = {}
                wanted = body.get("operationalState")
                if wanted is not None:
                    if row["onboarding_state"] != S.ONBOARDED:
                        raise packages_db.VnfPackageConflict(
                            f"VNF package {row['id']} is "
                            f"{row['onboarding_state']}; only an ONBOARDED "
                            "package can be enabled or disabled."
                        )
                    if row["operational_state"] == wanted:
                        raise packages_db.VnfPackageConflict(
                            f"VNF package {row['id']} is already {wanted}."
                        )
                    values["operational_state"] = wanted
                if "userDefinedData" in body:
                    values["user_defined_data"] = merge_patch.apply(
                        row["user_defined_data"] or {}, body["userDefinedData"]
                    )
                packages_db.update(session, row["id"], list(S), **values)
                if wanted is not None:
                    pkgm_notify.operational_state_changed(
                        session, {**row, "operational_state": wanted}
                    )
        return body

    @index.when(method="DELETE", template="json")
    def delete(self):
        row = self._load("delete")
        ctx = common.context()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                deleted = packages_db.delete(
                    session, row["id"], common.scope(ctx)
                )
                if not deleted:
                    current = packages_db.get(session, row["id"])
                    raise packages_db.VnfPackageConflict(
                        f"VNF package {row['id']} cannot be deleted: "
                        f"{_why_not_deleted(current)}."
                    )
                pkgm_notify.deleted(session, row)
        store.discard(row["id"])
        return common.empty(204)


class VnfPackages:
    """The collection: list and create."""

    @routing.resource()
    def index(self) -> list:
        ctx = common.context()
        common.authorize("index")
        onboarding.expire_stale(ctx)
        base = common.base_url()
        return listing.respond(
            api_listing.VNF_PACKAGES,
            common.scope(ctx),
            lambda row: views.vnf_pkg_info(base, row),
        )

    @index.when(method="POST", template="json")
    def create(self) -> dict:
        ctx = common.context()
        common.authorize("create")
        body = validation.parse_json(
            pecan.request, schemas.CREATE_VNF_PKG_INFO_REQUEST
        )
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                package_id = packages_db.insert(
                    session,
                    {
                        "user_defined_data": body.get("userDefinedData") or {},
                        "project_id": ctx.project_id,
                    },
                )
                row = packages_db.get(session, package_id)
        base = common.base_url()
        return common.created(
            views.package_url(base, package_id), views.vnf_pkg_info(base, row)
        )

    @pecan.expose()
    def _lookup(self, package_id, *remainder):
        return VnfPackage(package_id), remainder


class OnboardedVnfPackage:
    """``/onboarded_vnf_packages/{vnfdId}``: the same, addressed by vnfdId
    (read only)."""

    def __init__(self, vnfd_id: str) -> None:
        self.vnfd_id = vnfd_id
        self.package_content = content.PackageContent(
            self._load, uploads=False
        )
        self.vnfd = vnfd.Vnfd(self._load)
        self.artifacts = vnfd.Artifacts(self._load)

    def _load(self, rule: str):
        return common.load_onboarded(self.vnfd_id, rule)

    @routing.resource()
    def index(self) -> dict:
        return views.vnf_pkg_info(common.base_url(), self._load("show"))


class OnboardedVnfPackages:
    """``.../onboarded_vnf_packages/{vnfdId}``; SOL005 defines no
    collection resource here, so the bare path is a 404 that says where
    the collection is (it was a 405 with an empty ``Allow`` header)."""

    @pecan.expose(generic=True, template="json")
    def index(self) -> None:
        raise exceptions.NotFound(
            "onboarded_vnf_packages has no collection resource: name a "
            "vnfdId (onboarded_vnf_packages/{vnfdId}) or list vnf_packages."
        )

    @pecan.expose()
    def _lookup(self, vnfd_id, *remainder):
        return OnboardedVnfPackage(vnfd_id), remainder
