"""``TOSCA-Metadata/TOSCA.meta`` (SOL004 clause 4.2) and its absence.

TOSCA.meta names the entry definitions and, optionally, the manifest; the
SOL004 variant without a TOSCA-Metadata directory has exactly one YAML
file at the archive root instead.
"""

import dataclasses
from pathlib import Path

from tacker_ng.packages.archive import unsafe_path_reason
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P

TOSCA_META_PATH = "TOSCA-Metadata/TOSCA.meta"
_MAX_META_SIZE = 1024 * 1024
_META_FILE_VERSIONS = ("1.0", "1.1")
_CSAR_VERSIONS = ("1.0", "1.1", "2.0")
_REQUIRED = (
    "TOSCA-Meta-File-Version",
    "CSAR-Version",
    "Created-By",
    "Entry-Definitions",
)
_YAML_SUFFIXES = (".yaml", ".yml")
#: Keys TOSCA.meta defines, by lower-case spelling: TOSCA.meta is a JAR
#: manifest, whose attribute names are case-insensitive (Tacker writes
#: ``Created-by``, ``Content-type``). Entry names (values) stay exact.
_KNOWN_KEYS = {
    key.lower(): key
    for key in (
        *_REQUIRED,
        "ETSI-Entry-Manifest",
        "ETSI-Entry-Change-Log",
        "ETSI-Entry-Licenses",
        "ETSI-Entry-Certificate",
        "Other-Definitions",
        "Name",
        "Content-Type",
        "Algorithm",
        "Hash",
    )
}


@dataclasses.dataclass(frozen=True)
class MetaArtifact:
    """A ``Name:``/``Algorithm:``/``Hash:`` block of TOSCA.meta."""

    name: str
    content_type: str | None = None
    algorithm: str | None = None
    hash: str | None = None


@dataclasses.dataclass(frozen=True)
class ToscaMeta:
    """Block 0 of TOSCA.meta plus any per-artifact blocks."""

    entry_definitions: str
    tosca_meta_file_version: str | None = None
    csar_version: str | None = None
    created_by: str | None = None
    entry_manifest: str | None = None
    entry_change_log: str | None = None
    entry_licenses: tuple[str, ...] = ()
    entry_certificate: str | None = None
    other_definitions: tuple[str, ...] = ()
    artifacts: tuple[MetaArtifact, ...] = ()
    #: False for the SOL004 variant without a TOSCA-Metadata directory.
    has_tosca_metadata: bool = True


def _invalid(reason: str, member: str = TOSCA_META_PATH) -> InvalidPackage:
    return InvalidPackage(reason, code=P.INVALID_TOSCA_META, member=member)


def _blocks(text: str) -> list[list[tuple[int, str, str]]]:
    blocks: list[list[tuple[int, str, str]]] = [[]]
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            if blocks[-1]:
                blocks.append([])
            continue
        if line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or key != key.strip():
            raise _invalid(f"line {lineno} is not a 'Key: value' pair")
        key = _KNOWN_KEYS.get(key.lower(), key)
        blocks[-1].append((lineno, key, value.strip()))
    return [block for block in blocks if block]


def parse_tosca_meta(text: str) -> ToscaMeta:
    """Parse and validate the text of a TOSCA.meta file."""
    blocks = _blocks(text)
    if not blocks:
        raise _invalid("file is empty")
    first: dict[str, str] = {}
    multi: dict[str, list[str]] = {"ETSI-Entry-Licenses": []}
    multi["Other-Definitions"] = []
    for lineno, key, value in blocks[0]:
        if key in multi:
            multi[key].extend(v for v in value.split() if v)
            continue
        if key in first:
            raise _invalid(f"line {lineno}: duplicate key {key}")
        first[key] = value
    for key in _REQUIRED:
        if not first.get(key):
            raise _invalid(f"required key {key} is missing or empty")
    if first["TOSCA-Meta-File-Version"] not in _META_FILE_VERSIONS:
        raise _invalid(
            "unsupported TOSCA-Meta-File-Version "
            f"{first['TOSCA-Meta-File-Version']!r} (supported: "
            f"{', '.join(_META_FILE_VERSIONS)})"
        )
    if first["CSAR-Version"] not in _CSAR_VERSIONS:
        raise _invalid(
            f"unsupported CSAR-Version {first['CSAR-Version']!r} "
            f"(supported: {', '.join(_CSAR_VERSIONS)})"
        )
    entry = first["Entry-Definitions"]
    _check_path("Entry-Definitions", entry)
    if not entry.endswith(_YAML_SUFFIXES):
        raise _invalid(f"Entry-Definitions {entry} is not a YAML file")
    for key in (
        "ETSI-Entry-Manifest",
        "ETSI-Entry-Change-Log",
        "ETSI-Entry-Certificate",
    ):
        if first.get(key):
            _check_path(key, first[key])
    for key, values in multi.items():
        for value in values:
            _check_path(key, value)
    return ToscaMeta(
        entry_definitions=entry,
        tosca_meta_file_version=first["TOSCA-Meta-File-Version"],
        csar_version=first["CSAR-Version"],
        created_by=first["Created-By"],
        entry_manifest=first.get("ETSI-Entry-Manifest") or None,
        entry_change_log=first.get("ETSI-Entry-Change-Log") or None,
        entry_licenses=tuple(multi["ETSI-Entry-Licenses"]),
        entry_certificate=first.get("ETSI-Entry-Certificate") or None,
        other_definitions=tuple(multi["Other-Definitions"]),
        artifacts=tuple(_artifact(block) for block in blocks[1:]),
    )


def _check_path(key: str, value: str) -> None:
    reason = unsafe_path_reason(value)
    if reason:
        raise _invalid(f"{key} {value!r}: {reason}")


def _artifact(block: list[tuple[int, str, str]]) -> MetaArtifact:
    fields = {key: value for _, key, value in block}
    name = fields.get("Name")
    if not name:
        raise _invalid(f"line {block[0][0]}: artifact block without Name")
    _check_path("Name", name)
    return MetaArtifact(
        name=name,
        content_type=fields.get("Content-Type"),
        algorithm=fields.get("Algorithm"),
        hash=fields.get("Hash"),
    )


def read_tosca_meta(root: Path, files: set[str]) -> ToscaMeta:
    """Find the entry definitions of the extracted package at ``root``.

    ``files`` are the package's regular files (relative POSIX paths).
    """
    if TOSCA_META_PATH in files:
        path = root / TOSCA_META_PATH
        if path.stat().st_size > _MAX_META_SIZE:
            raise _invalid("file is larger than 1 MiB")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise _invalid("file is not UTF-8 text") from exc
        meta = parse_tosca_meta(text)
    elif any(name.startswith("TOSCA-Metadata/") for name in files):
        raise _invalid("TOSCA-Metadata directory has no TOSCA.meta")
    else:
        meta = _meta_without_metadata_dir(files)
    if meta.entry_definitions not in files:
        raise InvalidPackage(
            f"entry definitions file {meta.entry_definitions} is not in the "
            "package",
            code=P.MISSING_ENTRY_DEFINITIONS,
            member=meta.entry_definitions,
        )
    return meta


def _meta_without_metadata_dir(files: set[str]) -> ToscaMeta:
    roots = sorted(
        name
        for name in files
        if "/" not in name and name.endswith(_YAML_SUFFIXES)
    )
    if len(roots) != 1:
        found = ", ".join(roots) or "none"
        raise InvalidPackage(
            "package has no TOSCA-Metadata/TOSCA.meta, so it must have "
            f"exactly one YAML file at its root (found: {found})",
            code=P.INVALID_TOSCA_META,
        )
    entry = roots[0]
    stem = entry.rsplit(".", 1)[0]
    manifest = f"{stem}.mf"
    return ToscaMeta(
        entry_definitions=entry,
        entry_manifest=manifest if manifest in files else None,
        has_tosca_metadata=False,
    )
