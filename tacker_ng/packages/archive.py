"""Safe zip extraction: the first line of defence against hostile CSARs.

Every member is vetted before a byte is written (name, type, duplicates,
count, declared sizes) and then extracted by streaming while *counting*
the bytes actually produced, so lying size fields cannot get past the size
and compression-ratio limits. Only regular files and directories are
created, always below the given directory, never following symlinks.
"""

import dataclasses
import os
import re
import stat
import struct
import tempfile
import unicodedata
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.limits import CsarLimits

_CHUNK = 64 * 1024
_EOCD_SIG = b"PK\x05\x06"
_ZIP64_LOCATOR_SIG = b"PK\x06\x07"
_ZIP64_EOCD_SIG = b"PK\x06\x06"
_DRIVE_RE = re.compile(r"^[A-Za-z]:")
_MAX_NAME_PART = 255
_MAX_NAME = 1024


@dataclasses.dataclass(frozen=True)
class ArchiveMember:
    """One extracted regular file: its path in the package and its size."""

    name: str
    size: int


def open_source(
    source: str | os.PathLike | BinaryIO, limits: CsarLimits
) -> tuple[BinaryIO, int, bool]:
    """Return ``(seekable file, size, owned)`` for a path or file object.

    Non-seekable streams are spooled to a temporary file, counting bytes so
    an oversized upload is refused without being stored whole.
    """
    if isinstance(source, (str, os.PathLike)):
        size = os.stat(source).st_size
        _check_archive_size(size, limits)
        return open(source, "rb"), size, True
    if getattr(source, "seekable", lambda: False)():
        # The whole file is the archive, whatever its current position.
        size = source.seek(0, os.SEEK_END)
        source.seek(0)
        _check_archive_size(size, limits)
        return source, size, False
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - returned to caller
    size = 0
    while chunk := source.read(_CHUNK):
        size += len(chunk)
        if size > limits.max_archive_size:
            spool.close()
            _check_archive_size(size, limits)
        spool.write(chunk)
    spool.seek(0)
    return spool, size, True


def _check_archive_size(size: int, limits: CsarLimits) -> None:
    if size > limits.max_archive_size:
        raise InvalidPackage(
            f"archive is larger than {limits.max_archive_size} bytes",
            code=P.ARCHIVE_TOO_LARGE,
        )


def declared_entry_count(fileobj: BinaryIO, size: int) -> int | None:
    """Entry count from the end-of-central-directory record, or ``None``.

    Read before :mod:`zipfile` loads the whole central directory, so an
    archive claiming millions of entries is refused cheaply.
    """
    tail_len = min(size, 22 + 65535)
    fileobj.seek(size - tail_len)
    tail = fileobj.read(tail_len)
    pos = tail.rfind(_EOCD_SIG)
    if pos < 0 or len(tail) < pos + 22:
        return None
    (count,) = struct.unpack("<H", tail[pos + 10 : pos + 12])
    if count != 0xFFFF or pos < 20:
        return count
    locator = tail[pos - 20 : pos]
    if not locator.startswith(_ZIP64_LOCATOR_SIG):
        return count
    (offset,) = struct.unpack("<Q", locator[8:16])
    if offset + 40 > size:
        return None
    fileobj.seek(offset)
    record = fileobj.read(40)
    if not record.startswith(_ZIP64_EOCD_SIG):
        return None
    (count64,) = struct.unpack("<Q", record[32:40])
    return count64


def unsafe_path_reason(raw: str) -> str | None:
    """Why ``raw`` is not a safe relative POSIX path in a package, or None.

    Refuses absolute paths, drive letters, backslashes, ``..``/``.``/empty
    components, control characters and over-long names.
    """
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in raw):
        return "path contains control characters"
    if "\\" in raw:
        return "path contains a backslash"
    if raw.startswith("/"):
        return "path is absolute"
    if _DRIVE_RE.match(raw):
        return "path starts with a drive letter"
    name = raw[:-1] if raw.endswith("/") else raw
    parts = name.split("/")
    if ".." in parts:
        return "path has a '..' component (traversal)"
    if "." in parts:
        return "path has a '.' component"
    if "" in parts:
        return "path has an empty component"
    if len(name.encode()) > _MAX_NAME or any(
        len(part.encode()) > _MAX_NAME_PART for part in parts
    ):
        return "path is too long"
    return None


def member_name(info: zipfile.ZipInfo) -> str:
    """The vetted relative path of a member (no trailing slash)."""
    raw = info.orig_filename
    reason = unsafe_path_reason(raw)
    if reason:
        raise InvalidPackage(
            f"unsafe member name: {reason}", code=P.UNSAFE_PATH, member=raw
        )
    return raw[:-1] if raw.endswith("/") else raw


def _check_type(info: zipfile.ZipInfo, name: str) -> None:
    mode = (info.external_attr >> 16) & 0xFFFF
    kind = stat.S_IFMT(mode)
    if info.flag_bits & 0x1:
        raise InvalidPackage(
            "member is encrypted", code=P.ENCRYPTED_MEMBER, member=name
        )
    if not kind:
        return
    if stat.S_ISLNK(mode):
        raise InvalidPackage(
            "member is a symbolic link", code=P.NOT_REGULAR_FILE, member=name
        )
    if info.is_dir() != stat.S_ISDIR(mode) or not (
        stat.S_ISREG(mode) or stat.S_ISDIR(mode)
    ):
        raise InvalidPackage(
            f"member is not a regular file or directory (mode {oct(mode)})",
            code=P.NOT_REGULAR_FILE,
            member=name,
        )


def vet_members(
    infos: list[zipfile.ZipInfo], limits: CsarLimits, archive_size: int
) -> list[tuple[str, zipfile.ZipInfo]]:
    """Check every member before extraction; return ``(name, info)`` pairs.

    Declared sizes are used only to refuse early; extraction re-counts.
    """
    if len(infos) > limits.max_members:
        raise InvalidPackage(
            f"archive has {len(infos)} entries, more than the limit of "
            f"{limits.max_members}",
            code=P.TOO_MANY_MEMBERS,
        )
    vetted: list[tuple[str, zipfile.ZipInfo]] = []
    files: set[str] = set()
    dirs: set[str] = set()
    folded: dict[str, str] = {}
    declared_total = 0
    for info in infos:
        name = member_name(info)
        _check_type(info, name)
        key = unicodedata.normalize("NFC", name).casefold()
        if name in files or (name in dirs and not info.is_dir()):
            raise InvalidPackage(
                "duplicate member name", code=P.DUPLICATE_MEMBER, member=name
            )
        if key in folded and folded[key] != name:
            raise InvalidPackage(
                f"member name differs only in case or Unicode form from "
                f"{folded[key]}",
                code=P.DUPLICATE_MEMBER,
                member=name,
            )
        folded[key] = name
        parents = name.split("/")[:-1]
        for i in range(1, len(parents) + 1):
            parent = "/".join(parents[:i])
            if parent in files:
                raise InvalidPackage(
                    f"member is inside {parent}, which is a file",
                    code=P.DUPLICATE_MEMBER,
                    member=name,
                )
            dirs.add(parent)
        if info.is_dir():
            if name in files:
                raise InvalidPackage(
                    "directory has the name of a file",
                    code=P.DUPLICATE_MEMBER,
                    member=name,
                )
            dirs.add(name)
        else:
            files.add(name)
            declared_total += info.file_size
            _check_ratio(info.file_size, info.compress_size, limits, name)
        vetted.append((name, info))
    if declared_total > limits.max_uncompressed_size:
        raise _too_large(limits)
    _check_ratio(declared_total, archive_size, limits, None)
    return vetted


def _too_large(limits: CsarLimits) -> InvalidPackage:
    return InvalidPackage(
        f"uncompressed contents exceed {limits.max_uncompressed_size} bytes",
        code=P.TOO_LARGE,
    )


def _check_ratio(
    produced: int, compressed: int, limits: CsarLimits, name: str | None
) -> None:
    if produced <= limits.compression_ratio_threshold:
        return
    if produced > limits.max_compression_ratio * max(compressed, 1):
        what = "member" if name else "archive"
        raise InvalidPackage(
            f"{what} compression ratio exceeds "
            f"{limits.max_compression_ratio}:1 (possible zip bomb)",
            code=P.COMPRESSION_RATIO,
            member=name,
        )


def extract_members(
    zf: zipfile.ZipFile,
    vetted: list[tuple[str, zipfile.ZipInfo]],
    dest: Path,
    limits: CsarLimits,
    archive_size: int,
) -> list[ArchiveMember]:
    """Stream vetted members into the existing empty directory ``dest``."""
    total = 0
    extracted: list[ArchiveMember] = []
    for name, info in vetted:
        target = dest.joinpath(*name.split("/"))
        if info.is_dir():
            target.mkdir(mode=0o755, parents=True, exist_ok=True)
            continue
        target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        produced = 0
        try:
            with (
                zf.open(info) as src,
                os.fdopen(os.open(target, flags, 0o644), "wb") as dst,
            ):
                while chunk := src.read(_CHUNK):
                    produced += len(chunk)
                    total += len(chunk)
                    if total > limits.max_uncompressed_size:
                        raise _too_large(limits)
                    _check_ratio(produced, info.compress_size, limits, name)
                    _check_ratio(total, archive_size, limits, None)
                    dst.write(chunk)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise InvalidPackage(
                f"member is corrupt: {exc}",
                code=P.CORRUPT_MEMBER,
                member=name,
            ) from exc
        except NotImplementedError as exc:
            raise InvalidPackage(
                f"member uses an unsupported compression method: {exc}",
                code=P.CORRUPT_MEMBER,
                member=name,
            ) from exc
        extracted.append(ArchiveMember(name=name, size=produced))
    return extracted


def extract_zip(
    fileobj: BinaryIO, size: int, dest: Path, limits: CsarLimits
) -> list[ArchiveMember]:
    """Vet and extract the zip in ``fileobj`` into the empty dir ``dest``."""
    count = declared_entry_count(fileobj, size)
    if count is not None and count > limits.max_members:
        raise InvalidPackage(
            f"archive declares {count} entries, more than the limit of "
            f"{limits.max_members}",
            code=P.TOO_MANY_MEMBERS,
        )
    fileobj.seek(0)
    try:
        zf = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as exc:
        raise InvalidPackage(
            f"not a valid zip archive: {exc}", code=P.NOT_A_ZIP
        ) from exc
    with zf:
        vetted = vet_members(zf.infolist(), limits, size)
        return extract_members(zf, vetted, dest, limits, size)
