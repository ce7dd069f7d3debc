"""SOL004 manifest parsing and artifact hash verification."""

import hashlib
import io

import pytest

from tacker_ng.packages.csar import extract_csar
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.manifest import parse_manifest
from tacker_ng.tests.unit.packages import helpers

VNFD = "Definitions/vnfd.yaml"


def package(manifest: str, *, meta_manifest: bool = True) -> bytes:
    files = helpers.minimal_files()
    if meta_manifest:
        files["TOSCA-Metadata/TOSCA.meta"] += b"ETSI-Entry-Manifest: pkg.mf\n"
    files["pkg.mf"] = manifest.encode()
    return helpers.make_zip(files)


def block(source: str, data: bytes, algorithm: str = "SHA-256") -> str:
    name = algorithm.replace("-", "").lower()
    digest = hashlib.new(name, data).hexdigest()
    return f"Source: {source}\nAlgorithm: {algorithm}\nHash: {digest}\n"


def vnfd_bytes() -> bytes:
    return helpers.minimal_files()[VNFD]


def refuse(store, data, limits=None):
    with pytest.raises(InvalidPackage) as info:
        extract_csar(io.BytesIO(data), store.dest, limits)
    store.assert_untouched()
    return info.value


def test_parse_metadata_entries_non_mano_and_signature():
    text = (
        "metadata:\n"
        "  vnf_provider_id: Company\n"
        "  vnf_product_name: Sample\n"
        "\n"
        "Source: Definitions/vnfd.yaml\n"
        "Algorithm: SHA-512\n"
        "Hash: ABCDEF\n"
        "\n"
        "Source: https://example.invalid/image.qcow2\n"
        "Content-Type: application/octet-stream\n"
        "\n"
        "non_mano_artifact_sets:\n"
        "  prv.tacker.logs:\n"
        "    Source: Files/logs/a.log\n"
        "    Source: Files/logs/b.log\n"
        "-----BEGIN CMS-----\n"
        "MIIB...\n"
        "-----END CMS-----\n"
    )
    manifest = parse_manifest(text, "pkg.mf")
    assert manifest.metadata == {
        "vnf_provider_id": "Company",
        "vnf_product_name": "Sample",
    }
    first, second = manifest.entries
    assert (first.source, first.algorithm, first.hash) == (
        "Definitions/vnfd.yaml",
        "SHA-512",
        "abcdef",
    )
    assert not first.is_external
    assert second.is_external and second.hash is None
    assert manifest.non_mano_artifact_sets == {
        "prv.tacker.logs": ("Files/logs/a.log", "Files/logs/b.log")
    }
    assert manifest.signed


@pytest.mark.parametrize("algorithm", ["SHA-256", "SHA-512", "sha-256"])
def test_matching_hashes_are_accepted(store, algorithm):
    data = package(block(VNFD, vnfd_bytes(), algorithm))
    contents = extract_csar(io.BytesIO(data), store.dest)
    assert contents.manifest.entries[0].source == VNFD


def test_hash_mismatch_refuses_the_package(store):
    data = package(block(VNFD, b"something else"))
    error = refuse(store, data)
    assert (error.code, error.member) == (P.HASH_MISMATCH, VNFD)
    assert "does not match the one in pkg.mf" in error.reason


def test_root_manifest_found_without_etsi_entry_manifest(store):
    data = package(block(VNFD, b"tampered"), meta_manifest=False)
    assert refuse(store, data).code == P.HASH_MISMATCH


def test_several_root_manifests_are_ambiguous(store):
    files = helpers.minimal_files()
    files["a.mf"] = b"metadata:\n"
    files["b.mf"] = b"metadata:\n"
    error = refuse(store, helpers.make_zip(files))
    assert error.code == P.INVALID_MANIFEST
    assert "several .mf files" in error.reason


def test_manifest_named_in_tosca_meta_must_exist(store):
    files = helpers.minimal_files()
    files["TOSCA-Metadata/TOSCA.meta"] += b"ETSI-Entry-Manifest: gone.mf\n"
    error = refuse(store, helpers.make_zip(files))
    assert (error.code, error.member) == (P.MISSING_MANIFEST, "gone.mf")


def test_required_manifest(store):
    data = helpers.make_zip(helpers.minimal_files())
    error = refuse(store, data, CsarLimits(require_manifest=True))
    assert error.code == P.MISSING_MANIFEST


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "Source: Files/nothing.bin\nAlgorithm: SHA-256\nHash: 00\n",
            "lists Files/nothing.bin, which is not in the package",
        ),
        (
            f"Source: {VNFD}\nAlgorithm: MD5\nHash: 00\n",
            "unsupported Algorithm 'MD5'",
        ),
        (f"Source: {VNFD}\nAlgorithm: SHA-256\n", "Algorithm and Hash go"),
        (
            f"Source: {VNFD}\nAlgorithm: SHA-256\nHash: xyz\n",
            "Hash is not hexadecimal",
        ),
        ("Algorithm: SHA-256\n", "line 1: Algorithm before Source"),
        (
            "Source: ../etc/passwd\nAlgorithm: SHA-256\nHash: 00\n",
            "path has a '..' component",
        ),
        (f"Source: {VNFD}\nSource2 here\n", "line 2 is not a 'key: value'"),
        (f"Source: {VNFD}\nfoo: bar\n", "line 2: unexpected key 'foo'"),
        (
            f"Source: {VNFD}\nHash: 00\nHash: 11\n",
            "line 3: duplicate Hash",
        ),
    ],
)
def test_invalid_manifest(store, text, reason):
    error = refuse(store, package(text))
    assert (error.code, error.member) == (P.INVALID_MANIFEST, "pkg.mf")
    assert reason in error.reason


def test_external_sources_are_not_fetched(store):
    text = (
        "Source: https://example.invalid/x.img\nAlgorithm: SHA-256\nHash: 00\n"
    )
    contents = extract_csar(io.BytesIO(package(text)), store.dest)
    assert contents.manifest.entries[0].is_external


def test_tosca_meta_artifact_hash_mismatch(store):
    files = helpers.minimal_files()
    files["Files/a.txt"] = b"payload"
    files["TOSCA-Metadata/TOSCA.meta"] += (
        b"\nName: Files/a.txt\nContent-Type: text/plain\n"
        b"Algorithm: SHA-256\nHash: " + helpers.sha256(b"other").encode()
    )
    error = refuse(store, helpers.make_zip(files))
    assert (error.code, error.member) == (P.HASH_MISMATCH, "Files/a.txt")
    assert "TOSCA-Metadata/TOSCA.meta" in error.reason


def test_tosca_meta_artifact_hash_match(store):
    files = helpers.minimal_files()
    files["Files/a.txt"] = b"payload"
    files["TOSCA-Metadata/TOSCA.meta"] += (
        b"\nName: Files/a.txt\nAlgorithm: SHA-256\nHash: "
        + helpers.sha256(b"payload").encode()
    )
    contents = extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    assert contents.tosca_meta.artifacts[0].name == "Files/a.txt"
