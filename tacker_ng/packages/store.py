"""Layout of the package store and the only code that writes into it.

Under ``[vnf_package] vnf_package_csar_path``::

    <package id>/                 the extracted, verified package
    .archives/<package id>.zip    the CSAR as uploaded (package_content)
    .incoming/<package id>.zip    a complete upload waiting for a conductor
    .incoming/<package id>.part   an upload being received or downloaded
    .incoming/<package id>.source an upload_from_uri request (secrets sealed)

Everything a package owns is named after its id, so :func:`discard`
removes every trace of one package, temporary extraction directories
included. The API and the conductors must share this directory.
"""

import hashlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from oslo_config import cfg

from tacker_ng import crypto, exceptions

CHECKSUM_ALGORITHM = "SHA-512"
_CHUNK = 256 * 1024
_ARCHIVES = ".archives"
_INCOMING = ".incoming"


class UploadTooLarge(exceptions.PayloadTooLarge):
    message = "The VNF package is larger than {limit} bytes."


class IncompleteUpload(exceptions.BadRequest):
    message = "The upload ended after {got} of {expected} bytes."


def _checked(package_id: str) -> str:
    # Ids come from the database (UUIDs); never a path from a request.
    return str(uuid.UUID(package_id))


def root(conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """The store directory."""
    return Path(conf.vnf_package.vnf_package_csar_path)


def package_dir(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """Where the extracted package ``package_id`` lives."""
    return root(conf) / _checked(package_id)


def archive_path(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """The stored CSAR of an onboarded package."""
    return root(conf) / _ARCHIVES / f"{_checked(package_id)}.zip"


def incoming_path(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """A complete upload waiting to be processed."""
    return root(conf) / _INCOMING / f"{_checked(package_id)}.zip"


def _part_path(package_id: str) -> Path:
    return root() / _INCOMING / f"{_checked(package_id)}.part"


def _source_path(package_id: str) -> Path:
    return root() / _INCOMING / f"{_checked(package_id)}.source"


def _ensure_dirs() -> None:
    for sub in (_ARCHIVES, _INCOMING):
        (root() / sub).mkdir(mode=0o750, parents=True, exist_ok=True)


def _read(stream: BinaryIO) -> bytes:
    try:
        return stream.read(_CHUNK)
    except Exception as exc:  # noqa: BLE001 - any failure to read the body
        # The client went away or sent a broken chunked body; failures
        # to write the store are not caught here (they are ours: 500).
        raise IncompleteUpload(
            "The upload body could not be read completely."
        ) from exc


def receive(
    stream: BinaryIO,
    package_id: str,
    limit: int,
    expected: int | None = None,
    renew: Callable[[], None] | None = None,
    renew_every: float = 60.0,
) -> tuple[int, dict[str, str]]:
    """Copy ``stream`` to the package's incoming file, at most ``limit``
    bytes; return ``(size, checksum)``. ``renew`` is called every
    ``renew_every`` seconds (the lease of the upload). On any failure
    the partial file is removed and the error raised (413 when too
    large, 400 when the body is shorter than ``expected``)."""
    _ensure_dirs()
    part = _part_path(package_id)
    digest = hashlib.sha512()
    size = 0
    last_renew = time.monotonic()
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        with os.fdopen(fd, "wb") as out:
            while chunk := _read(stream):
                size += len(chunk)
                if size > limit:
                    raise UploadTooLarge(limit=limit)
                digest.update(chunk)
                out.write(chunk)
                if renew and time.monotonic() - last_renew >= renew_every:
                    renew()
                    last_renew = time.monotonic()
        if expected is not None and size != expected:
            raise IncompleteUpload(got=size, expected=expected)
        os.replace(part, incoming_path(package_id))
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return size, {"algorithm": CHECKSUM_ALGORITHM, "hash": digest.hexdigest()}


def part_file(package_id: str) -> Path:
    """The partial file a download writes to (see :func:`complete`)."""
    _ensure_dirs()
    return _part_path(package_id)


def complete(package_id: str) -> None:
    """A finished download becomes the package's incoming upload."""
    os.replace(_part_path(package_id), incoming_path(package_id))


def save_source(package_id: str, request: dict[str, Any]) -> None:
    """Keep an upload_from_uri request (secrets sealed) for a conductor."""
    _ensure_dirs()
    path = _source_path(package_id)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(crypto.seal(request), out)


def take_source(package_id: str) -> dict[str, Any] | None:
    """The upload_from_uri request (secrets decrypted), removed from the
    store; ``None`` if there is none (or another process took it)."""
    path = _source_path(package_id)
    taken = path.with_name(f"{path.name}.{uuid.uuid4().hex}")
    try:
        os.rename(path, taken)  # atomic: one taker wins
    except FileNotFoundError:
        return None
    try:
        with open(taken) as src:
            return crypto.unseal(json.load(src))
    finally:
        taken.unlink(missing_ok=True)


def publish_archive(package_id: str) -> Path:
    """Move a processed upload to the archives (for package_content)."""
    _ensure_dirs()
    target = archive_path(package_id)
    os.replace(incoming_path(package_id), target)
    return target


def discard_incoming(package_id: str) -> None:
    """Remove the package's upload files (partial, complete, request)."""
    incoming = root() / _INCOMING
    if incoming.is_dir():
        for path in incoming.glob(f"{_checked(package_id)}.*"):
            path.unlink(missing_ok=True)


def discard(package_id: str) -> None:
    """Remove every file of ``package_id`` from the store."""
    discard_incoming(package_id)
    archive_path(package_id).unlink(missing_ok=True)
    shutil.rmtree(package_dir(package_id), ignore_errors=True)
    # Temporary extraction directories (csar.extract_csar) of the package.
    store = root()
    if store.is_dir():
        for leftover in store.glob(f".{_checked(package_id)}.*"):
            shutil.rmtree(leftover, ignore_errors=True)
