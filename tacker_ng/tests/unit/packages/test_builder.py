"""The CSAR builder shared by tools/build_csar.py and the tests."""

import importlib.util
import io
import zipfile
from pathlib import Path

from tacker_ng.packages import builder
from tacker_ng.packages.csar import extract_csar
from tacker_ng.tests.unit.packages import helpers

TOOL = Path(__file__).resolve().parents[4] / "tools" / "build_csar.py"


def test_build_is_deterministic_and_hashes_every_other_file():
    first = helpers.sample_csar("heat_vdu_affinity")
    assert first == helpers.sample_csar("heat_vdu_affinity")
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        names = zf.namelist()
        manifest = zf.read("heat_vdu_affinity.mf").decode()
        infos = zf.infolist()
    assert names == sorted(names)
    assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in infos)
    assert all(info.external_attr >> 16 == 0o100644 for info in infos)
    assert manifest.startswith("metadata:\nvnf_provider_id: tacker-ng\n")
    sources = [
        line.split(": ", 1)[1]
        for line in manifest.splitlines()
        if line.startswith("Source: ")
    ]
    assert sources == [n for n in names if n != "heat_vdu_affinity.mf"]


def test_rebuilding_replaces_old_hash_blocks(tmp_path):
    (tmp_path / "a.txt").write_text("a")
    header = "metadata:\nvnf_product_name: x\n\nSource: a.txt\nHash: 00\n"
    text = builder.render_manifest(header, tmp_path, ["a.txt"], "SHA-512")
    assert text.count("Source: a.txt") == 1
    assert "Algorithm: SHA-512" in text
    assert "Hash: 00" not in text


def test_sha512_build_onboards(tmp_path):
    data = builder.build_csar_bytes(
        helpers.SAMPLES / "k8s_cluster", algorithm="SHA-512"
    )
    contents = extract_csar(io.BytesIO(data), tmp_path / "pkg")
    assert {e.algorithm for e in contents.manifest.entries} == {"SHA-512"}


def test_build_csar_tool(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("build_csar", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / "cnf.zip"
    sample = str(helpers.SAMPLES / "cnf_deployment")
    assert tool.main([sample, str(out), "--check"]) == 0
    printed = capsys.readouterr().out
    assert "ok: vnfdId 8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b03" in printed
    assert out.read_bytes() == helpers.sample_csar("cnf_deployment")


def test_build_csar_tool_reports_a_refused_package(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("build_csar", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    src = tmp_path / "src"
    (src / "TOSCA-Metadata").mkdir(parents=True)
    (src / "TOSCA-Metadata/TOSCA.meta").write_text(helpers.TOSCA_META)
    assert tool.main([str(src), str(tmp_path / "x.zip"), "--check"]) == 1
    assert "package refused" in capsys.readouterr().err
