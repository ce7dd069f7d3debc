"""``.../vnfd`` and ``.../artifacts/{artifactPath}`` of an onboarded package.

An artifact path is served only when it names a regular file of the
verified package (the file list ``load_csar`` built): the request's path
is never resolved against the file system, so ``..``, absolute paths,
symlinks and encoded separators cannot reach outside the package.
"""

import pecan

from tacker_ng import exceptions
from tacker_ng.api import routing
from tacker_ng.api.controllers.vnfpkgm import common, files
from tacker_ng.packages import catalog
from tacker_ng.packages.archive import unsafe_path_reason


class ArtifactNotFound(exceptions.NotFound):
    message = "VNF package {id} has no artifact '{path}'."


class Vnfd:
    """``GET .../vnfd``: text/plain (single file) or application/zip."""

    def __init__(self, loader: common.Loader) -> None:
        self.loader = loader

    @files.serves(files.TEXT, files.ZIP)
    @routing.resource()
    def index(self):
        row = self.loader("fetch_vnfd")
        common.require_onboarded(row, "VNFD")
        return files.vnfd_response(catalog.load(row["id"]))


class Artifact:
    def __init__(self, loader: common.Loader, path: str) -> None:
        self.loader = loader
        self.path = path

    @files.serves(*files.ARTIFACT_TYPES)
    @routing.resource()
    def index(self):
        row = self.loader("fetch_artifact")
        reason = unsafe_path_reason(self.path)
        if reason:
            raise exceptions.BadRequest(
                f"Invalid artifactPath '{self.path}': {reason}."
            )
        common.require_onboarded(row, "artifacts")
        contents = catalog.load(row["id"])
        if self.path not in contents.files:
            raise ArtifactNotFound(id=row["id"], path=self.path)
        return files.file_response(
            contents.root.joinpath(*self.path.split("/")),
            files.artifact_type(self.path),
        )


class Artifacts:
    """``.../artifacts/{artifactPath}`` (the path may have several
    segments)."""

    def __init__(self, loader: common.Loader) -> None:
        self.loader = loader

    @files.serves(*files.ARTIFACT_TYPES)
    @routing.resource()
    def index(self, *segments):
        # pecan lands here for "artifacts/" and for "artifacts//x/y"
        # (an empty first segment: an absolute path, refused).
        if segments:
            return Artifact(self.loader, "/" + "/".join(segments)).index()
        self.loader("fetch_artifact")
        raise exceptions.NotFound("Name an artifact: artifacts/{path}.")

    @pecan.expose()
    def _lookup(self, *segments):
        return Artifact(self.loader, "/".join(segments)), ()
