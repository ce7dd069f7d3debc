"""SOL004 manifest (``.mf``) parsing and artifact hash verification.

The manifest lists package artifacts with ``Source:``/``Algorithm:``/
``Hash:`` blocks; a digest that does not match the extracted file refuses
the whole package. TOSCA.meta artifact blocks (``Name:``/``Hash:``) are
verified the same way.
"""

import dataclasses
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

from tacker_ng.packages.archive import unsafe_path_reason
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P

#: Accepted ``Algorithm:`` spellings -> hashlib name.
ALGORITHMS = {
    "SHA-256": "sha256",
    "SHA256": "sha256",
    "SHA-512": "sha512",
    "SHA512": "sha512",
}
_MAX_MANIFEST_SIZE = 4 * 1024 * 1024
_HEX_RE = re.compile(r"^[0-9a-fA-F]+$")
_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_ENTRY_KEYS: tuple[str, ...] = (
    "Source",
    "Algorithm",
    "Hash",
    "Content-Type",
    "Signature",
    "Certificate",
)
#: Keys by lower-case spelling: manifest key names are matched without
#: regard to case, like TOSCA.meta's (``source:`` is ``Source:``); the
#: values (paths, digests) stay exact.
_CANONICAL = {
    key.lower(): key
    for key in (*_ENTRY_KEYS, "metadata", "non_mano_artifact_sets")
}


@dataclasses.dataclass(frozen=True)
class ManifestEntry:
    """One artifact of the manifest and its declared digest."""

    source: str
    algorithm: str | None = None
    hash: str | None = None
    content_type: str | None = None

    @property
    def is_external(self) -> bool:
        """True for a URI source (not inside the package, not verified)."""
        return bool(_URI_RE.match(self.source))


@dataclasses.dataclass(frozen=True)
class Manifest:
    """A parsed manifest: ``metadata`` block, entries, non-MANO sets."""

    path: str
    metadata: dict[str, str]
    entries: tuple[ManifestEntry, ...]
    non_mano_artifact_sets: dict[str, tuple[str, ...]]
    signed: bool = False


def _invalid(path: str, reason: str) -> InvalidPackage:
    return InvalidPackage(reason, code=P.INVALID_MANIFEST, member=path)


def parse_manifest(text: str, path: str) -> Manifest:
    """Parse the text of the manifest file at package path ``path``."""
    metadata: dict[str, str] = {}
    entries: list[dict[str, str]] = []
    non_mano: dict[str, list[str]] = {}
    section = None
    current_set: str | None = None
    signed = False
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("-----BEGIN"):
            signed = True
            break
        indented = line[0] in " \t"
        key, sep, value = stripped.partition(":")
        key, value = key.strip(), value.strip()
        key = _CANONICAL.get(key.lower(), key)
        if not sep:
            raise _invalid(path, f"line {lineno} is not a 'key: value' pair")
        if key == "metadata" and not value:
            section = "metadata"
            continue
        if key == "non_mano_artifact_sets" and not value:
            section = "non_mano"
            continue
        if section == "non_mano" and indented:
            key = key.lstrip("- ").strip()
            if key.lower() == "source" and value and current_set is not None:
                non_mano[current_set].append(value)
            elif not value:
                current_set = key
                non_mano.setdefault(key, [])
            continue
        if key in _ENTRY_KEYS:
            section = "entries"
            if key == "Source":
                entries.append({})
            elif not entries:
                raise _invalid(path, f"line {lineno}: {key} before Source")
            if key in entries[-1]:
                raise _invalid(path, f"line {lineno}: duplicate {key}")
            entries[-1][key] = value
            continue
        if section == "metadata":
            metadata[key] = value
            continue
        raise _invalid(path, f"line {lineno}: unexpected key {key!r}")
    return Manifest(
        path=path,
        metadata=metadata,
        entries=tuple(_entry(path, fields) for fields in entries),
        non_mano_artifact_sets={k: tuple(v) for k, v in non_mano.items()},
        signed=signed,
    )


def _entry(path: str, fields: dict[str, str]) -> ManifestEntry:
    source = fields.get("Source", "")
    if not source:
        raise _invalid(path, "empty Source")
    algorithm, digest = fields.get("Algorithm"), fields.get("Hash")
    if bool(algorithm) != bool(digest):
        raise _invalid(
            path, f"Source {source}: Algorithm and Hash go together"
        )
    if algorithm and algorithm.upper() not in ALGORITHMS:
        raise _invalid(
            path,
            f"Source {source}: unsupported Algorithm {algorithm!r} "
            "(supported: SHA-256, SHA-512)",
        )
    if digest and not _HEX_RE.match(digest):
        raise _invalid(path, f"Source {source}: Hash is not hexadecimal")
    entry = ManifestEntry(
        source=source,
        algorithm=algorithm,
        hash=digest.lower() if digest else None,
        content_type=fields.get("Content-Type"),
    )
    if not entry.is_external:
        reason = unsafe_path_reason(source)
        if reason:
            raise _invalid(path, f"Source {source!r}: {reason}")
    return entry


def read_manifest(root: Path, path: str) -> Manifest:
    """Read and parse the manifest at package path ``path`` below ``root``."""
    file = root.joinpath(*path.split("/"))
    if file.stat().st_size > _MAX_MANIFEST_SIZE:
        raise _invalid(path, "manifest is larger than 4 MiB")
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise _invalid(path, "manifest is not UTF-8 text") from exc
    return parse_manifest(text, path)


def file_digest(path: Path, algorithm: str) -> str:
    """Hex digest of a file with a manifest ``Algorithm`` name."""
    with open(path, "rb") as fileobj:
        return hashlib.file_digest(
            fileobj, ALGORITHMS[algorithm.upper()]
        ).hexdigest()


def verify_digests(
    root: Path,
    files: set[str],
    declared: Iterable[tuple[str, str | None, str | None]],
    listed_in: str,
) -> None:
    """Check each ``(path, algorithm, hash)`` against the extracted file.

    A path not in the package is an invalid manifest; a different digest
    refuses the package with :attr:`PackageProblem.HASH_MISMATCH`.
    """
    for source, algorithm, digest in declared:
        if source not in files:
            raise _invalid(
                listed_in, f"lists {source}, which is not in the package"
            )
        if not algorithm or not digest:
            continue
        if algorithm.upper() not in ALGORITHMS:
            raise _invalid(
                listed_in, f"{source}: unsupported Algorithm {algorithm!r}"
            )
        actual = file_digest(root.joinpath(*source.split("/")), algorithm)
        if actual != digest.lower():
            raise InvalidPackage(
                f"{algorithm} digest does not match the one in {listed_in}",
                code=P.HASH_MISMATCH,
                member=source,
            )


def verify_manifest(root: Path, files: set[str], manifest: Manifest) -> None:
    """Verify every in-package digest of ``manifest``."""
    verify_digests(
        root,
        files,
        (
            (entry.source, entry.algorithm, entry.hash)
            for entry in manifest.entries
            if not entry.is_external
        ),
        manifest.path,
    )
