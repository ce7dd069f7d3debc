"""File responses of the package API: stored files, ranges, VNFD formats.

Files are streamed from the store (``Range`` requests answered by webob
with 206/416); the VNFD is served as plain YAML or as a zip of its
definitions files, as the ``Accept`` header asks (SOL005 10.4.4.3.2).
"""

import io
import mimetypes
import zipfile
from pathlib import Path

import pecan
import webob
from webob import static

from tacker_ng import exceptions
from tacker_ng.packages.csar import CsarContents
from tacker_ng.packages.tosca_meta import TOSCA_META_PATH

ZIP = "application/zip"
TEXT = "text/plain"


#: Media types an artifact request may ask for by ``Accept`` (pecan
#: answers 406 to others unless they accept ``*/*``).
ARTIFACT_TYPES = (
    "application/octet-stream",
    "application/yaml",
    "application/x-yaml",
    "text/yaml",
    "text/plain",
    "text/x-python",
    "text/x-sh",
    "application/x-sh",
    "application/json",
    ZIP,
)


def serves(*media_types: str):
    """Let pecan route requests accepting ``media_types`` to a handler
    exposed by :func:`tacker_ng.api.routing.resource` (which declares
    JSON only); the handler answers a webob response itself."""

    def decorator(handler):
        types = handler._pecan.setdefault("content_types", {})
        for media_type in media_types:
            types.setdefault(media_type, "json")
        return handler

    return decorator


def file_response(path: Path, content_type: str) -> webob.Response:
    """Stream ``path``; ``Range`` and ``HEAD`` are handled by webob."""
    fileobj = open(path, "rb")  # noqa: SIM115 - closed by the FileIter
    resp = webob.Response(
        app_iter=static.FileIter(fileobj),
        content_type=content_type,
        charset=None,
        conditional_response=True,
    )
    resp.content_length = path.stat().st_size
    resp.accept_ranges = "bytes"
    return resp


def artifact_type(path: str) -> str:
    """Content-Type of a package file, from its name."""
    if path.endswith((".yaml", ".yml")):
        return "application/yaml"
    guessed, _ = mimetypes.guess_type(path, strict=False)
    return guessed or "application/octet-stream"


def _vnfd_format(single_file: bool) -> str:
    """The VNFD media type for the request's ``Accept`` (406 if none)."""
    accept = pecan.request.accept
    offers = accept.acceptable_offers([TEXT, ZIP])
    acceptable = [offer for offer, _ in offers]
    if single_file and TEXT in acceptable:
        # SOL005: either format for a single file; honour the preference.
        return acceptable[0]
    if ZIP in acceptable:
        return ZIP
    if TEXT in acceptable:
        raise exceptions.NotAcceptable(
            "The VNFD has several files; it is only available as "
            "application/zip."
        )
    raise exceptions.NotAcceptable(
        "The VNFD is available as text/plain (single-file VNFD) or "
        "application/zip."
    )


def vnfd_response(contents: CsarContents) -> webob.Response:
    """The VNFD of a package in the format the client accepts."""
    files = contents.vnfd.definitions_files
    media = _vnfd_format(len(files) == 1)
    if media == TEXT:
        text = contents.root.joinpath(*files[0].split("/")).read_bytes()
        return webob.Response(body=text, content_type=TEXT, charset="utf-8")
    members = list(files)
    if TOSCA_META_PATH in contents.files:
        members.append(TOSCA_META_PATH)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for member in sorted(members):
            zf.write(contents.root.joinpath(*member.split("/")), member)
    return webob.Response(
        body=buffer.getvalue(), content_type=ZIP, charset=None
    )
