"""Load the VNFD's definitions files: the entry file and its imports.

Imports resolve only inside the package or to the bundled ETSI SOL001 type
definitions (by local name or official URL); nothing is ever fetched. An
import that escapes the package, a remote URL, a missing file or an import
cycle is an :class:`InvalidVnfd` naming the importing file.
"""

import copy
import dataclasses
import functools
import posixpath
import re
from importlib import resources
from pathlib import Path
from typing import Any

from tacker_ng.packages.archive import unsafe_path_reason
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.yamlfile import load_yaml_file, load_yaml_text

#: Prefix of the ``path`` of bundled definitions files.
BUNDLED_PREFIX = "bundled:"
NORMATIVE_TYPES = "tosca_simple_profile_subset.yaml"
#: SOL001 files tacker-ng bundles, by their standard file names.
BUNDLED_SOL001 = (
    "etsi_nfv_sol001_common_types.yaml",
    "etsi_nfv_sol001_vnfd_types.yaml",
)
_OFFICIAL_URL_RE = re.compile(
    r"^https?://forge\.etsi\.org/rep/nfv/SOL001/raw/[^/]+/"
    r"(?P<name>etsi_nfv_sol001_(?:common|vnfd)_types\.yaml)$"
)
_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_DRIVE_RE = re.compile(r"^[A-Za-z]:")
TOSCA_VERSIONS = (
    "tosca_simple_yaml_1_0",
    "tosca_simple_yaml_1_1",
    "tosca_simple_yaml_1_2",
    "tosca_simple_yaml_1_3",
)


@dataclasses.dataclass(frozen=True)
class DefinitionsFile:
    """One loaded definitions file."""

    #: Package path, or ``bundled:<name>`` for a bundled file.
    path: str
    data: dict[str, Any]

    @property
    def bundled(self) -> bool:
        return self.path.startswith(BUNDLED_PREFIX)


@functools.cache
def _bundled(name: str) -> Any:
    text = (
        resources.files("tacker_ng.packages.vnfd")
        .joinpath("definitions", name)
        .read_text(encoding="utf-8")
    )
    return load_yaml_text(text, BUNDLED_PREFIX + name, CsarLimits())


def resolve_import(importer: str, ref: Any, files: set[str]) -> str:
    """Return the path (package or ``bundled:``) an import refers to."""
    if isinstance(ref, dict):
        for key in ("repository", "namespace_prefix", "namespace_uri"):
            if key in ref:
                raise InvalidVnfd(
                    f"import {key!r} is not supported (imports must be "
                    "files in the package or the bundled SOL001 types)",
                    file=importer,
                )
        ref = ref.get("file")
    if not isinstance(ref, str) or not ref:
        raise InvalidVnfd(f"import {ref!r} is not a file name", file=importer)
    official = _OFFICIAL_URL_RE.match(ref)
    if official:
        return BUNDLED_PREFIX + official.group("name")
    if posixpath.basename(ref) in BUNDLED_SOL001:
        return BUNDLED_PREFIX + posixpath.basename(ref)
    if _DRIVE_RE.match(ref) or ref.startswith("/") or "\\" in ref:
        raise InvalidVnfd(f"import {ref} escapes the package", file=importer)
    if _URI_RE.match(ref):
        raise InvalidVnfd(
            f"remote import {ref} is not allowed: packages are processed "
            "offline; ship the file in the package",
            file=importer,
        )
    if importer.startswith(BUNDLED_PREFIX):
        raise InvalidVnfd(
            f"bundled definitions import unknown file {ref}", file=importer
        )
    resolved = posixpath.normpath(
        posixpath.join(posixpath.dirname(importer), ref)
    )
    if resolved == ".." or resolved.startswith("../"):
        raise InvalidVnfd(f"import {ref} escapes the package", file=importer)
    reason = unsafe_path_reason(resolved)
    if reason:
        raise InvalidVnfd(f"import {ref}: {reason}", file=importer)
    if resolved not in files:
        raise InvalidVnfd(
            f"imported file {ref} ({resolved}) is not in the package",
            file=importer,
        )
    return resolved


def load_definitions(
    root: Path, entry: str, files: set[str], limits: CsarLimits
) -> list[DefinitionsFile]:
    """Load the entry definitions and every import, depth first.

    The bundled normative TOSCA types come first; each file appears once,
    after the files it imports.
    """
    loader = _Loader(root, files, limits)
    loader.load(BUNDLED_PREFIX + NORMATIVE_TYPES)
    loader.load(entry)
    return loader.order


class _Loader:
    def __init__(self, root: Path, files: set[str], limits: CsarLimits):
        self.root = root
        self.files = files
        self.limits = limits
        self.loaded: set[str] = set()
        self.order: list[DefinitionsFile] = []
        self.stack: list[str] = []

    def _read(self, path: str) -> Any:
        if path.startswith(BUNDLED_PREFIX):
            # Parsed once per process; copied so no caller can alter it.
            return copy.deepcopy(_bundled(path[len(BUNDLED_PREFIX) :]))
        return load_yaml_file(self.root, path, self.limits)

    def load(self, path: str) -> None:
        if path in self.stack:
            cycle = " -> ".join([*self.stack[self.stack.index(path) :], path])
            raise InvalidVnfd(f"import cycle: {cycle}", file=self.stack[-1])
        if path in self.loaded:
            return
        data = self._read(path)
        if not isinstance(data, dict):
            raise InvalidVnfd(
                "definitions file is not a YAML mapping", file=path
            )
        version = data.get("tosca_definitions_version")
        if version not in TOSCA_VERSIONS:
            raise InvalidVnfd(
                f"tosca_definitions_version {version!r} is not supported "
                f"(supported: {', '.join(TOSCA_VERSIONS)})",
                file=path,
            )
        imports = data.get("imports") or []
        if not isinstance(imports, list):
            raise InvalidVnfd("imports is not a list", file=path)
        self.stack.append(path)
        for ref in imports:
            target = ref
            if isinstance(ref, dict) and "file" not in ref and len(ref) == 1:
                # TOSCA 1.0 named import: {name: file} or {name: {file: ..}}.
                target = next(iter(ref.values()))
            self.load(resolve_import(path, target, self.files))
        self.stack.pop()
        self.loaded.add(path)
        self.order.append(DefinitionsFile(path=path, data=data))
