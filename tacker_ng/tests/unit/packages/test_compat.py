"""The package compatibility levels: each deviation Tacker's packages make
onboards with a warning at ``tacker`` and is refused, with the message it
always had, at ``strict``; key spelling is case-insensitive at both."""

import io

import pytest
import yaml
from oslo_config import cfg

from tacker_ng.conf import vnf_package
from tacker_ng.packages import compat
from tacker_ng.packages.csar import extract_csar
from tacker_ng.packages.exceptions import InvalidPackage, InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.manifest import parse_manifest
from tacker_ng.packages.tosca_meta import parse_tosca_meta
from tacker_ng.packages.vnfd.parser import load_vnfd
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.packages.test_vnfd_invalid import (
    ENTRY,
    base,
    write,
)

TACKER = CsarLimits(compatibility=compat.TACKER)
STRICT = CsarLimits(compatibility=compat.STRICT)


def _load(tmp_path, vnfd, limits):
    level = compat.Compatibility(limits.compatibility)
    model = load_vnfd(
        write(tmp_path, vnfd), ENTRY, limits=limits, compat=level
    )
    return model, level.warnings


def _refused(tmp_path, vnfd) -> InvalidVnfd:
    with pytest.raises(InvalidVnfd) as info:
        load_vnfd(write(tmp_path, vnfd), ENTRY, limits=STRICT)
    return info.value


# -- key spelling (both levels) --------------------------------------------


def test_tosca_meta_keys_are_case_insensitive():
    meta = parse_tosca_meta(
        "tosca-meta-file-version: 1.0\n"
        "CSAR-Version: 1.1\n"
        "Created-by: Onboarding portal\n"
        "ENTRY-DEFINITIONS: Definitions/vnfd.yaml\n"
        "\n"
        "Name: Files/a.txt\n"
        "Content-type: text/plain\n"
        "algorithm: SHA-256\n"
        "HASH: 00ff\n"
    )
    assert meta.created_by == "Onboarding portal"
    assert meta.entry_definitions == "Definitions/vnfd.yaml"
    (artifact,) = meta.artifacts
    assert (artifact.content_type, artifact.algorithm, artifact.hash) == (
        "text/plain",
        "SHA-256",
        "00ff",
    )


def test_tosca_meta_duplicate_key_in_another_case_is_still_a_duplicate():
    with pytest.raises(InvalidPackage, match="line 5: duplicate key Created"):
        parse_tosca_meta(helpers.TOSCA_META + "created-by: twice\n")


def test_tosca_meta_entry_names_stay_exact(store):
    files = helpers.minimal_files()
    files["TOSCA-Metadata/TOSCA.meta"] = helpers.TOSCA_META.replace(
        "Definitions/vnfd.yaml", "definitions/VNFD.yaml"
    ).encode()
    with pytest.raises(InvalidPackage) as info:
        extract_csar(io.BytesIO(helpers.make_zip(files)), store.dest)
    assert info.value.member == "definitions/VNFD.yaml"


def test_manifest_keys_are_case_insensitive():
    manifest = parse_manifest(
        "METADATA:\n  vnf_product_name: x\n"
        "source: Definitions/vnfd.yaml\nALGORITHM: SHA-256\nhash: 00ff\n",
        "vnf.mf",
    )
    assert manifest.metadata == {"vnf_product_name": "x"}
    (entry,) = manifest.entries
    assert (entry.source, entry.algorithm, entry.hash) == (
        "Definitions/vnfd.yaml",
        "SHA-256",
        "00ff",
    )


# -- deviations ------------------------------------------------------------


def _no_group_description(vnfd):
    del vnfd["topology_template"]["groups"]["group1"]["properties"]
    return vnfd


def test_placement_group_without_description_tacker(tmp_path):
    model, warnings = _load(tmp_path, _no_group_description(base()), TACKER)
    assert "simple" in model.flavours
    assert warnings == [
        f"{ENTRY}, group group1: required property description is missing "
        "(descriptive only; accepted)"
    ]


def test_placement_group_without_description_strict(tmp_path):
    error = _refused(tmp_path, _no_group_description(base()))
    assert error.node == "group1"
    assert (
        error.problem == "properties.description: required property is missing"
    )


def test_missing_vdu_description_tacker_and_strict(tmp_path):
    vnfd = base()
    del vnfd["topology_template"]["node_templates"]["VDU1"]["properties"][
        "description"
    ]
    _, warnings = _load(tmp_path / "t", vnfd, TACKER)
    assert warnings == [
        f"{ENTRY}, node VDU1: required property description is missing "
        "(descriptive only; accepted)"
    ]
    error = _refused(tmp_path / "s", vnfd)
    assert (error.node, error.problem) == (
        "VDU1",
        "properties.description: required property is missing",
    )


def test_missing_property_that_deploys_stays_an_error_at_tacker(tmp_path):
    vnfd = base()
    del vnfd["topology_template"]["node_templates"]["VDU1"]["properties"][
        "vdu_profile"
    ]
    with pytest.raises(InvalidVnfd, match="vdu_profile: required property"):
        load_vnfd(write(tmp_path, vnfd), ENTRY, limits=TACKER)


def _suffixed(vnfd, name="virtual_link_1", target="VDU1_CP1"):
    reqs = vnfd["topology_template"]["substitution_mappings"]["requirements"]
    reqs[name] = [target, "virtual_link"]
    return vnfd


def test_suffixed_substitution_requirement_tacker(tmp_path):
    model, warnings = _load(tmp_path, _suffixed(base()), TACKER)
    flavour = model.flavours["simple"]
    assert flavour.substitution_requirements["virtual_link_1"] == (
        "VDU1_CP1",
        "virtual_link",
    )
    assert warnings == [
        f"{ENTRY}: substitution_mappings requirement virtual_link_1 is not "
        "declared by tosca.nodes.nfv.VNF; accepted as one of its "
        "virtual_link links (Tacker's numbered-suffix convention)"
    ]


def test_suffixed_substitution_requirement_strict(tmp_path):
    error = _refused(tmp_path, _suffixed(base()))
    assert error.problem == (
        "substitution_mappings requirement virtual_link_1 is not a "
        "requirement of tosca.nodes.nfv.VNF"
    )


@pytest.mark.parametrize("name", ["ext_link_1", "virtual_link_x", "_1"])
def test_suffix_that_resolves_to_nothing_stays_an_error(tmp_path, name):
    with pytest.raises(InvalidVnfd, match=f"requirement {name} is not a"):
        load_vnfd(
            write(tmp_path, _suffixed(base(), name)), ENTRY, limits=TACKER
        )


def test_mapping_to_a_node_the_flavour_lacks_tacker_and_strict(tmp_path):
    vnfd = _suffixed(base(), target="VDU9_CP1")
    model, warnings = _load(tmp_path / "t", vnfd, TACKER)
    assert (
        "virtual_link_1"
        not in model.flavours["simple"].substitution_requirements
    )
    assert warnings[-1] == (
        f"{ENTRY}: substitution_mappings requirement virtual_link_1 maps to "
        "VDU9_CP1, which is not a node of this flavour; mapping ignored"
    )
    error = _refused(tmp_path / "s", vnfd)
    assert "virtual_link_1 is not a requirement" in error.problem


def test_malformed_mapping_stays_an_error_at_tacker(tmp_path):
    vnfd = base()
    reqs = vnfd["topology_template"]["substitution_mappings"]["requirements"]
    reqs["virtual_link"] = "VDU1_CP1"
    with pytest.raises(InvalidVnfd, match="must be \\[node template"):
        load_vnfd(write(tmp_path, vnfd), ENTRY, limits=TACKER)


# -- the level as a whole --------------------------------------------------


def test_extract_csar_reports_warnings_and_strict_refuses(store):
    files = helpers.minimal_files()
    vnfd = yaml.safe_load(files["Definitions/vnfd.yaml"])
    vnfd["topology_template"]["groups"] = {
        "group1": {
            "type": "tosca.groups.nfv.PlacementGroup",
            "members": ["VDU1"],
        }
    }
    files["Definitions/vnfd.yaml"] = yaml.safe_dump(vnfd).encode()
    files["TOSCA-Metadata/TOSCA.meta"] = helpers.TOSCA_META.replace(
        "Created-By", "Created-by"
    ).encode()
    archive = helpers.make_zip(files)
    with pytest.raises(InvalidVnfd, match="description: required property"):
        extract_csar(io.BytesIO(archive), store.dest, STRICT)
    contents = extract_csar(io.BytesIO(archive), store.dest)
    assert contents.warnings == (
        "Definitions/vnfd.yaml, group group1: required property description "
        "is missing (descriptive only; accepted)",
    )


def test_level_comes_from_the_config():
    conf = cfg.ConfigOpts()
    vnf_package.register_opts(conf)
    conf([])
    assert CsarLimits.from_conf(conf).compatibility == compat.TACKER
    conf.set_override("compatibility", "strict", group="vnf_package")
    assert CsarLimits.from_conf(conf).compatibility == compat.STRICT
    with pytest.raises(ValueError):
        conf.set_override("compatibility", "lenient", group="vnf_package")


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown compatibility level"):
        compat.Compatibility("lenient")


def test_a_warning_is_recorded_once():
    level = compat.Compatibility()
    for _ in range(2):
        level.tolerate(ValueError("x"), "same")
    assert level.warnings == ["same"]
