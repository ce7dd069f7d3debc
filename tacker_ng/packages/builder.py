"""Build a CSAR (zip) from a package source directory, with manifest hashes.

Used by ``tools/build_csar.py`` and by the tests, so the samples are built
exactly the same way everywhere. The output is deterministic (sorted
members, fixed timestamps and modes) and the manifest's ``Source:``/
``Algorithm:``/``Hash:`` blocks are regenerated for every other file.
"""

import hashlib
import io
import os
import zipfile
from pathlib import Path

from tacker_ng.packages.manifest import ALGORITHMS
from tacker_ng.packages.tosca_meta import TOSCA_META_PATH, parse_tosca_meta

_FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def source_files(src_dir: Path) -> list[str]:
    """Regular files below ``src_dir`` as sorted package paths."""
    found = []
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for filename in filenames:
            full = Path(dirpath, filename)
            if full.is_symlink() or not full.is_file():
                raise ValueError(f"{full} is not a regular file")
            found.append(full.relative_to(src_dir).as_posix())
    return sorted(found)


def manifest_path(src_dir: Path, files: list[str]) -> str | None:
    """The manifest named by TOSCA.meta, else the single root ``.mf``."""
    if TOSCA_META_PATH in files:
        meta = parse_tosca_meta(
            (src_dir / TOSCA_META_PATH).read_text(encoding="utf-8")
        )
        if meta.entry_manifest:
            return meta.entry_manifest
    roots = [f for f in files if "/" not in f and f.endswith(".mf")]
    return roots[0] if len(roots) == 1 else None


def render_manifest(
    header: str, src_dir: Path, files: list[str], algorithm: str
) -> str:
    """``header`` (metadata block) followed by one hash block per file."""
    kept = []
    for line in header.splitlines():
        if line.startswith(("Source:", "Algorithm:", "Hash:")):
            break
        kept.append(line)
    blocks = ["\n".join(kept).rstrip() + "\n"]
    name = ALGORITHMS[algorithm.upper()]
    for path in files:
        digest = hashlib.new(name, (src_dir / path).read_bytes()).hexdigest()
        blocks.append(
            f"Source: {path}\nAlgorithm: {algorithm}\nHash: {digest}\n"
        )
    return "\n".join(blocks)


def build_csar_bytes(
    src_dir: str | os.PathLike, algorithm: str = "SHA-256"
) -> bytes:
    """The CSAR of ``src_dir`` as bytes."""
    src = Path(src_dir)
    files = source_files(src)
    manifest = manifest_path(src, files)
    contents: dict[str, bytes] = {f: (src / f).read_bytes() for f in files}
    if manifest is not None:
        hashed = [f for f in files if f != manifest]
        header = contents.get(manifest, b"").decode("utf-8")
        contents[manifest] = render_manifest(
            header, src, hashed, algorithm
        ).encode("utf-8")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(contents):
            info = zipfile.ZipInfo(path, date_time=_FIXED_TIME)
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, contents[path])
    return buffer.getvalue()


def build_csar(
    src_dir: str | os.PathLike,
    out: str | os.PathLike,
    algorithm: str = "SHA-256",
) -> Path:
    """Write the CSAR of ``src_dir`` to ``out``; return its path."""
    out_path = Path(out)
    out_path.write_bytes(build_csar_bytes(src_dir, algorithm))
    return out_path
