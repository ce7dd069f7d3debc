"""``.../package_content``: upload (PUT), upload_from_uri (POST), fetch (GET).

An upload moves the package CREATED -> UPLOADING with a conditional
UPDATE (one upload wins, the others get 409), streams the body into the
store's incoming area with ``[vnf_package] max_archive_size`` enforced
while reading (413), then casts to a conductor, which processes it. If
the body cannot be received or no conductor can be reached, the package
goes back to CREATED and no file is kept.
"""

import re

import oslo_messaging as messaging
import pecan
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import exceptions
from tacker_ng.api import routing, validation
from tacker_ng.api.controllers.vnfpkgm import common, files
from tacker_ng.api.schemas import vnfpkgm as schemas
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_packages as packages_db
from tacker_ng.objects.package_states import OnboardingState as S
from tacker_ng.packages import onboarding, store, uri_source

LOG = logging.getLogger(__name__)

#: PUT bodies on this path are streamed by :meth:`PackageContent.put`
#: with their own limit, not buffered by the generic body size limit.
UPLOAD_PATH = re.compile(
    r"^/vnfpkgm/v[12]/vnf_packages/[^/]+/package_content/?$"
)


def is_upload(environ: dict) -> bool:
    """Whether a request is a package upload (streamed, own size limit)."""
    content_type = (environ.get("CONTENT_TYPE") or "").split(";")[0].strip()
    return (
        environ.get("REQUEST_METHOD") == "PUT"
        and content_type == files.ZIP
        and bool(UPLOAD_PATH.match(environ.get("PATH_INFO") or ""))
    )


class ConductorUnreachable(exceptions.ServiceUnavailable):
    message = (
        "No conductor could be reached to process the VNF package; it is "
        "CREATED again and the upload can be repeated."
    )


def _conflict(row, action: str) -> packages_db.VnfPackageConflict:
    return packages_db.VnfPackageConflict(
        f"VNF package {row['id']} is {row['onboarding_state']}; {action} "
        "needs CREATED."
    )


def _start_upload(row, action: str) -> None:
    ctx = common.context()
    for attempt in db_api.retrying():
        with attempt, db_api.writer(ctx) as session:
            if not packages_db.move(
                session, row["id"], S.UPLOADING, {S.CREATED}
            ):
                raise _conflict(packages_db.get(session, row["id"]), action)


def _undo_upload(package_id: str) -> None:
    """Back to CREATED, files gone (the upload did not happen)."""
    try:
        for attempt in db_api.retrying():
            with attempt, db_api.writer(common.context()) as session:
                packages_db.move(
                    session,
                    package_id,
                    S.CREATED,
                    {S.UPLOADING},
                    checksum=None,
                    package_size=None,
                )
    finally:
        store.discard_incoming(package_id)


def _cast(method: str, package_id: str) -> None:
    try:
        getattr(rpcapi.get_api(), method)(common.context(), package_id)
    except messaging.MessagingException as exc:
        LOG.error(
            "Cast of %s for package %s failed: %s", method, package_id, exc
        )
        _undo_upload(package_id)
        raise ConductorUnreachable() from exc


class UploadFromUri:
    """``POST .../package_content/upload_from_uri``."""

    def __init__(self, loader: common.Loader) -> None:
        self.loader = loader

    @routing.resource(get=False)
    def index(self) -> None:
        """Only POST is served."""

    @index.when(method="POST", template="json")
    def post(self):
        row = self.loader("upload_from_uri")
        body = validation.parse_json(
            pecan.request, schemas.UPLOAD_VNF_PKG_FROM_URI_REQUEST
        )
        uri_source.check_uri(body["addressInformation"])
        _start_upload(row, "upload_from_uri")
        try:
            store.save_source(row["id"], body)
        except BaseException:
            _undo_upload(row["id"])
            raise
        _cast("upload_vnf_package_from_uri", row["id"])
        return common.empty(202)


class PackageContent:
    """``.../package_content``: GET (the CSAR) and, by id, PUT."""

    def __init__(self, loader: common.Loader, uploads: bool = True) -> None:
        self.loader = loader
        self.uploads = uploads
        if uploads:
            self.upload_from_uri = UploadFromUri(loader)

    @files.serves(files.ZIP, "application/octet-stream")
    @routing.resource()
    def index(self):
        row = self.loader("fetch_package_content")
        common.require_onboarded(row, "package content")
        path = store.archive_path(row["id"])
        if not path.is_file():
            raise exceptions.TackerNgError(
                f"The stored CSAR of VNF package {row['id']} is missing "
                "from the package store."
            )
        return files.file_response(path, files.ZIP)

    @index.when(method="PUT", template="json")
    def put(self):
        if not self.uploads:
            raise exceptions.MethodNotAllowed(headers={"Allow": "GET"})
        row = self.loader("upload_package_content")
        request = pecan.request
        media = (request.content_type or "").split(";")[0].strip()
        if media != files.ZIP:
            raise exceptions.UnsupportedMediaType(
                f"Content-Type must be {files.ZIP}, not '{media or 'none'}'."
            )
        limit = cfg.CONF.vnf_package.max_archive_size
        length = request.content_length
        if length is not None and length > limit:
            raise store.UploadTooLarge(limit=limit)
        _start_upload(row, "an upload")
        package_id = row["id"]

        @db_api.retry_on_deadlock
        def renew() -> None:
            with db_api.writer(common.context()) as session:
                if not packages_db.update(session, package_id, {S.UPLOADING}):
                    raise packages_db.VnfPackageConflict(
                        f"VNF package {package_id} left UPLOADING during "
                        "the upload."
                    )

        try:
            size, checksum = store.receive(
                request.body_file,
                package_id,
                limit,
                expected=length,
                renew=renew,
                renew_every=onboarding.renew_interval(),
            )
            if size == 0:
                raise exceptions.BadRequest("The upload body is empty.")
            for attempt in db_api.retrying():
                with attempt, db_api.writer(common.context()) as session:
                    if not packages_db.update(
                        session,
                        package_id,
                        {S.UPLOADING},
                        checksum=checksum,
                        package_size=size,
                    ):
                        raise packages_db.VnfPackageConflict(
                            f"VNF package {package_id} left UPLOADING during "
                            "the upload."
                        )
        except BaseException:
            _undo_upload(package_id)
            raise
        _cast("upload_vnf_package", package_id)
        return common.empty(202)
