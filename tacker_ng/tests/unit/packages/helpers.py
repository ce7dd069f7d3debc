"""Builders of crafted CSARs for the package tests (no network, no files
outside pytest's tmp_path)."""

import hashlib
import io
import os
import stat
import struct
import warnings
import zipfile
from pathlib import Path

from tacker_ng.packages.builder import build_csar_bytes

SAMPLES = Path(__file__).resolve().parents[4] / "samples" / "vnf_packages"

TOSCA_META = (
    "TOSCA-Meta-File-Version: 1.0\n"
    "CSAR-Version: 1.1\n"
    "Created-By: tests\n"
    "Entry-Definitions: Definitions/vnfd.yaml\n"
)

MINIMAL_VNFD = """\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - etsi_nfv_sol001_common_types.yaml
  - etsi_nfv_sol001_vnfd_types.yaml
topology_template:
  substitution_mappings:
    node_type: tosca.nodes.nfv.VNF
  node_templates:
    VNF:
      type: tosca.nodes.nfv.VNF
      properties:
        descriptor_id: 11111111-2222-3333-4444-555555555555
        descriptor_version: '1.0'
        provider: tests
        product_name: minimal
        software_version: '1.0'
        vnfm_info: [Tacker]
        flavour_id: simple
        flavour_description: minimal flavour
    VDU1:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU1
        description: the only VDU
        vdu_profile:
          min_number_of_instances: 1
          max_number_of_instances: 1
"""


def minimal_files() -> dict[str, bytes]:
    """A valid package: TOSCA.meta + a single-file VNFD."""
    return {
        "TOSCA-Metadata/TOSCA.meta": TOSCA_META.encode(),
        "Definitions/vnfd.yaml": MINIMAL_VNFD.encode(),
    }


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_zip(
    files: dict[str, bytes],
    *,
    extra: list[tuple[zipfile.ZipInfo, bytes]] = (),
    compression: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """Zip ``files`` (regular, 0644) plus raw ``extra`` (ZipInfo, data)."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names on purpose
        with zipfile.ZipFile(buffer, "w", compression) as zf:
            for name, data in files.items():
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (stat.S_IFREG | 0o644) << 16
                info.compress_type = compression
                zf.writestr(info, data)
            for info, data in extra:
                zf.writestr(info, data)
    return buffer.getvalue()


def raw_info(name: str, mode: int | None = None) -> zipfile.ZipInfo:
    """A ZipInfo with a Unix mode (file type bits included) if given."""
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.create_system = 3
    if mode is not None:
        info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def patch_sizes(archive: bytes, name: str, file_size: int) -> bytes:
    """Rewrite the declared uncompressed size of member ``name``.

    Both the local header and the central directory entry lie.
    """
    data = bytearray(archive)
    encoded = name.encode()
    pos = 0
    while (pos := data.find(b"PK\x03\x04", pos)) >= 0:
        (length,) = struct.unpack("<H", data[pos + 26 : pos + 28])
        if data[pos + 30 : pos + 30 + length] == encoded:
            data[pos + 22 : pos + 26] = struct.pack("<I", file_size)
        pos += 4
    pos = 0
    while (pos := data.find(b"PK\x01\x02", pos)) >= 0:
        (length,) = struct.unpack("<H", data[pos + 28 : pos + 30])
        if data[pos + 46 : pos + 46 + length] == encoded:
            data[pos + 24 : pos + 28] = struct.pack("<I", file_size)
        pos += 4
    return bytes(data)


def set_encrypted(archive: bytes, name: str) -> bytes:
    """Set the "encrypted" general purpose flag of member ``name``."""
    data = bytearray(archive)
    encoded = name.encode()
    for sig, flag_at, len_at, name_at in (
        (b"PK\x03\x04", 6, 26, 30),
        (b"PK\x01\x02", 8, 28, 46),
    ):
        pos = 0
        while (pos := data.find(sig, pos)) >= 0:
            (length,) = struct.unpack(
                "<H", data[pos + len_at : pos + len_at + 2]
            )
            if data[pos + name_at : pos + name_at + length] == encoded:
                data[pos + flag_at] |= 0x1
            pos += 4
    return bytes(data)


def replace_name(archive: bytes, old: str, new: bytes) -> bytes:
    """Replace a member name in all headers (same length), e.g. with NUL."""
    assert len(old.encode()) == len(new)
    return archive.replace(old.encode(), new)


def sample_csar(name: str) -> bytes:
    """The CSAR of ``samples/vnf_packages/<name>``."""
    return build_csar_bytes(SAMPLES / name)


def tree(path: Path) -> set[str]:
    """Every file and directory below ``path`` (relative), for leak checks."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(path):
        for entry in dirnames + filenames:
            found.add(os.path.relpath(os.path.join(dirpath, entry), path))
    return found
