"""TOSCA.meta (SOL004) checks and the variant without TOSCA-Metadata."""

import io

import pytest

from tacker_ng.packages.csar import extract_csar
from tacker_ng.packages.exceptions import InvalidPackage
from tacker_ng.packages.exceptions import PackageProblem as P
from tacker_ng.packages.tosca_meta import parse_tosca_meta
from tacker_ng.tests.unit.packages import helpers

META = "TOSCA-Metadata/TOSCA.meta"


def refuse(store, files):
    with pytest.raises(InvalidPackage) as info:
        extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    store.assert_untouched()
    return info.value


def with_meta(text: str) -> dict[str, bytes]:
    files = helpers.minimal_files()
    files[META] = text.encode()
    return files


def test_full_block_zero_and_artifact_blocks():
    meta = parse_tosca_meta(
        "TOSCA-Meta-File-Version: 1.0\n"
        "CSAR-Version: 1.1\n"
        "Created-By: Someone Else\n"
        "Entry-Definitions: Definitions/vnfd.yaml\n"
        "ETSI-Entry-Manifest: vnfd.mf\n"
        "ETSI-Entry-Change-Log: Files/ChangeLog.txt\n"
        "ETSI-Entry-Licenses: Files/LICENSE Files/NOTICE\n"
        "\n"
        "Name: Files/kubernetes/deployment.yaml\n"
        "Content-Type: application/yaml\n"
        "Algorithm: SHA-256\n"
        "Hash: abc123\n"
    )
    assert meta.entry_definitions == "Definitions/vnfd.yaml"
    assert meta.created_by == "Someone Else"
    assert meta.entry_manifest == "vnfd.mf"
    assert meta.entry_change_log == "Files/ChangeLog.txt"
    assert meta.entry_licenses == ("Files/LICENSE", "Files/NOTICE")
    assert meta.has_tosca_metadata
    (artifact,) = meta.artifacts
    assert artifact.name == "Files/kubernetes/deployment.yaml"
    assert (artifact.algorithm, artifact.hash) == ("SHA-256", "abc123")


@pytest.mark.parametrize(
    "missing",
    [
        "TOSCA-Meta-File-Version",
        "CSAR-Version",
        "Created-By",
        "Entry-Definitions",
    ],
)
def test_missing_required_key(store, missing):
    lines = [
        line
        for line in helpers.TOSCA_META.splitlines()
        if not line.startswith(missing)
    ]
    error = refuse(store, with_meta("\n".join(lines)))
    assert (error.code, error.member) == (P.INVALID_TOSCA_META, META)
    assert f"required key {missing} is missing" in error.reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "file is empty"),
        ("just some text\n", "line 1 is not a 'Key: value' pair"),
        (
            helpers.TOSCA_META.replace("1.0", "9.9", 1),
            "unsupported TOSCA-Meta-File-Version '9.9'",
        ),
        (
            helpers.TOSCA_META.replace("CSAR-Version: 1.1", "CSAR-Version: 7"),
            "unsupported CSAR-Version '7'",
        ),
        (
            helpers.TOSCA_META + "Created-By: twice\n",
            "line 5: duplicate key Created-By",
        ),
        (
            helpers.TOSCA_META.replace(
                "Definitions/vnfd.yaml", "../Definitions/vnfd.yaml"
            ),
            "Entry-Definitions '../Definitions/vnfd.yaml': path has a '..'",
        ),
        (
            helpers.TOSCA_META.replace(
                "Definitions/vnfd.yaml", "/Definitions/vnfd.yaml"
            ),
            "path is absolute",
        ),
        (
            helpers.TOSCA_META.replace("Definitions/vnfd.yaml", "vnfd.json"),
            "Entry-Definitions vnfd.json is not a YAML file",
        ),
        (
            helpers.TOSCA_META + "\nContent-Type: text/plain\n",
            "artifact block without Name",
        ),
    ],
)
def test_invalid_tosca_meta(store, text, reason):
    error = refuse(store, with_meta(text))
    assert error.code == P.INVALID_TOSCA_META
    assert reason in error.reason


def test_tosca_meta_not_utf8(store):
    files = helpers.minimal_files()
    files[META] = b"\xff\xfe\x00bad"
    assert "not UTF-8" in refuse(store, files).reason


def test_metadata_directory_without_tosca_meta(store):
    files = helpers.minimal_files()
    del files[META]
    files["TOSCA-Metadata/other.txt"] = b"x"
    error = refuse(store, files)
    assert error.code == P.INVALID_TOSCA_META
    assert "has no TOSCA.meta" in error.reason


def test_missing_entry_definitions(store):
    files = helpers.minimal_files()
    del files["Definitions/vnfd.yaml"]
    files["Definitions/other.yaml"] = b"x: 1\n"
    error = refuse(store, files)
    assert error.code == P.MISSING_ENTRY_DEFINITIONS
    assert error.member == "Definitions/vnfd.yaml"


def test_variant_without_tosca_metadata(store):
    files = {"vnfd.yaml": helpers.MINIMAL_VNFD.encode()}
    contents = extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    assert contents.entry_definitions == "vnfd.yaml"
    assert not contents.tosca_meta.has_tosca_metadata
    assert contents.manifest is None
    assert contents.vnfd.product_name == "minimal"


def test_variant_without_tosca_metadata_uses_same_named_manifest(store):
    vnfd = helpers.MINIMAL_VNFD.encode()
    manifest = (
        "metadata:\nvnf_product_name: minimal\n\n"
        "Source: vnfd.yaml\nAlgorithm: SHA-256\n"
        f"Hash: {helpers.sha256(vnfd)}\n"
    )
    files = {"vnfd.yaml": vnfd, "vnfd.mf": manifest.encode()}
    contents = extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    assert contents.manifest.path == "vnfd.mf"


@pytest.mark.parametrize(
    "roots", [[], ["a.yaml", "b.yaml"]], ids=["none", "two"]
)
def test_variant_without_tosca_metadata_needs_one_root_yaml(store, roots):
    files = {name: helpers.MINIMAL_VNFD.encode() for name in roots}
    files["Definitions/vnfd.yaml"] = helpers.MINIMAL_VNFD.encode()
    error = refuse(store, files)
    assert error.code == P.INVALID_TOSCA_META
    assert "exactly one YAML file at its root" in error.reason
