"""CSAR onboarding core: extract safely, verify, parse the VNFD, publish.

``extract_csar`` is what the conductor calls when processing an uploaded
or fetched package: either the package ends up complete in ``dest_dir``
with its VNFD model, or nothing is left behind and a precise
:class:`InvalidPackage` / :class:`InvalidVnfd` says why.
"""

import dataclasses
import os
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO

from tacker_ng.objects.vnfd import Vnfd
from tacker_ng.packages import archive, tosca_meta
from tacker_ng.packages import manifest as mf
from tacker_ng.packages.compat import TACKER, Compatibility
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.vnfd.parser import load_vnfd


@dataclasses.dataclass(frozen=True)
class CsarContents:
    """An onboarded package: where it lives and what it declares."""

    #: Directory of the extracted package (``dest_dir`` after success).
    root: Path
    tosca_meta: tosca_meta.ToscaMeta
    #: Parsed manifest, ``None`` when the package has none.
    manifest: mf.Manifest | None
    #: Regular files of the package, relative POSIX paths, sorted.
    files: tuple[str, ...]
    #: Sum of the extracted file sizes in bytes.
    size: int
    vnfd: Vnfd
    #: Deviations accepted at the ``tacker`` compatibility level, one
    #: sentence each (VnfPkgInfo ``onboardingWarnings``).
    warnings: tuple[str, ...] = ()

    @property
    def entry_definitions(self) -> str:
        """Package path of the VNFD's entry definitions file."""
        return self.tosca_meta.entry_definitions


def extract_csar(
    source: str | os.PathLike | BinaryIO,
    dest_dir: str | os.PathLike,
    limits: CsarLimits | None = None,
) -> CsarContents:
    """Extract, verify and parse the CSAR ``source`` into ``dest_dir``.

    ``source`` is a path or a binary file object; ``dest_dir`` must not
    exist yet (or be an empty directory); its parent must exist. The
    package is built in a temporary sibling directory and renamed into
    place only when every check passed, so a refused package leaves
    nothing behind.
    """
    limits = limits or CsarLimits()
    dest = Path(dest_dir)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise FileExistsError(f"{dest} exists and is not an empty directory")
    fileobj, size, owned = archive.open_source(source, limits)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        try:
            members = archive.extract_zip(fileobj, size, tmp, limits)
        finally:
            if owned:
                fileobj.close()
        contents = _verify_and_parse(tmp, members, limits)
        os.replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dataclasses.replace(contents, root=dest)


def _verify_and_parse(
    root: Path, members: list[archive.ArchiveMember], limits: CsarLimits
) -> CsarContents:
    files = {member.name for member in members}
    meta = tosca_meta.read_tosca_meta(root, files)
    manifest = _manifest(root, files, meta, limits)
    mf.verify_digests(
        root,
        files,
        ((a.name, a.algorithm, a.hash) for a in meta.artifacts),
        tosca_meta.TOSCA_META_PATH,
    )
    compat = Compatibility(limits.compatibility)
    vnfd = load_vnfd(
        root, meta.entry_definitions, files=files, limits=limits, compat=compat
    )
    return CsarContents(
        root=root,
        tosca_meta=meta,
        manifest=manifest,
        files=tuple(sorted(files)),
        size=sum(member.size for member in members),
        vnfd=vnfd,
        warnings=tuple(compat.warnings),
    )


def _manifest(
    root: Path, files: set[str], meta: tosca_meta.ToscaMeta, limits: CsarLimits
) -> mf.Manifest | None:
    path = meta.entry_manifest
    if path is None:
        candidates = sorted(
            name for name in files if "/" not in name and name.endswith(".mf")
        )
        if len(candidates) > 1:
            raise InvalidPackage(
                "several .mf files at the package root and no "
                "ETSI-Entry-Manifest in TOSCA.meta to choose one: "
                + ", ".join(candidates),
                code=P.INVALID_MANIFEST,
            )
        path = candidates[0] if candidates else None
    elif path not in files:
        raise InvalidPackage(
            f"ETSI-Entry-Manifest {path} is not in the package",
            code=P.MISSING_MANIFEST,
            member=path,
        )
    if path is None:
        if limits.require_manifest:
            raise InvalidPackage(
                "package has no manifest (.mf) and one is required",
                code=P.MISSING_MANIFEST,
            )
        return None
    manifest = mf.read_manifest(root, path)
    mf.verify_manifest(root, files, manifest)
    return manifest


def load_csar(
    root: str | os.PathLike, limits: CsarLimits | None = None
) -> CsarContents:
    """Re-read an already extracted (and verified) package at ``root``.

    For a conductor that needs the model of a stored package again after
    a restart; hashes are verified again since the files are at hand. The
    package was accepted at onboarding, so it is read at the ``tacker``
    level unless ``limits`` say otherwise: switching the option to
    ``strict`` later must not break the VNFs of packages already in use.
    """
    root_path = Path(root)
    limits = limits or CsarLimits(compatibility=TACKER)
    members = []
    for dirpath, dirnames, filenames in os.walk(root_path):
        dirnames.sort()
        for filename in sorted(filenames):
            full = Path(dirpath, filename)
            if full.is_symlink() or not full.is_file():
                raise InvalidPackage(
                    "not a regular file",
                    code=P.NOT_REGULAR_FILE,
                    member=full.relative_to(root_path).as_posix(),
                )
            members.append(
                archive.ArchiveMember(
                    name=full.relative_to(root_path).as_posix(),
                    size=full.stat().st_size,
                )
            )
    return _verify_and_parse(root_path, members, limits)
