"""Invalid VNFDs: each error names the file, the node and the problem.

A complete single-file VNFD (``BASE``) is mutated one way per test and
written to a package directory; ``load_vnfd`` must refuse it precisely.
"""

import copy

import pytest
import yaml

from tacker_ng.objects import vnfd as model
from tacker_ng.packages.compat import STRICT
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.vnfd.parser import load_vnfd

ENTRY = "Definitions/vnfd.yaml"

BASE = yaml.safe_load("""
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - etsi_nfv_sol001_common_types.yaml
  - etsi_nfv_sol001_vnfd_types.yaml
topology_template:
  substitution_mappings:
    node_type: tosca.nodes.nfv.VNF
    requirements:
      virtual_link: [VDU1_CP1, virtual_link]
  node_templates:
    VNF:
      type: tosca.nodes.nfv.VNF
      properties:
        descriptor_id: d1
        descriptor_version: '1.0'
        provider: tests
        product_name: invalid cases
        software_version: '1.0'
        vnfm_info: [Tacker]
        flavour_id: simple
        flavour_description: base of the invalid cases
      interfaces:
        Vnflcm:
          instantiate_end:
            implementation: hooks
      artifacts:
        hooks:
          type: tosca.artifacts.Implementation.Python
          file: ../Scripts/hooks.py
    VDU1:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU1
        description: first VDU
        vdu_profile:
          min_number_of_instances: 1
          max_number_of_instances: 2
      capabilities:
        virtual_compute:
          properties:
            virtual_memory:
              virtual_mem_size: 512 MB
            virtual_cpu:
              num_virtual_cpu: 1
      requirements:
        - virtual_storage: VirtualStorage
    VDU2:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU2
        description: second VDU
        vdu_profile:
          min_number_of_instances: 1
          max_number_of_instances: 3
    VirtualStorage:
      type: tosca.nodes.nfv.Vdu.VirtualBlockStorage
      properties:
        virtual_block_storage_data:
          size_of_storage: 1 GB
          rdma_enabled: true
        sw_image_data:
          name: image
          version: '1'
          checksum: {algorithm: sha-256, hash: abc}
          container_format: bare
          disk_format: raw
          min_disk: 1 GB
          size: 100 MB
      artifacts:
        sw_image:
          type: tosca.artifacts.nfv.SwImage
          file: ../Files/images/image.raw
    VDU1_CP1:
      type: tosca.nodes.nfv.VduCp
      properties:
        layer_protocols: [ipv4]
      requirements:
        - virtual_binding: VDU1
    VDU1_CP2:
      type: tosca.nodes.nfv.VduCp
      properties:
        layer_protocols: [ipv4]
      requirements:
        - virtual_binding: VDU1
        - virtual_link: internalVL1
    internalVL1:
      type: tosca.nodes.nfv.VnfVirtualLink
      properties:
        connectivity_type:
          layer_protocols: [ipv4]
        vl_profile: {}
  groups:
    group1:
      type: tosca.groups.nfv.PlacementGroup
      properties:
        description: both VDUs
      members: [VDU1, VDU2]
  policies:
    - scaling_aspects:
        type: tosca.policies.nfv.ScalingAspects
        properties:
          aspects:
            aspect1:
              name: aspect1
              description: scales VDU1
              max_scale_level: 1
              step_deltas: [delta_1]
    - VDU1_deltas:
        type: tosca.policies.nfv.VduScalingAspectDeltas
        properties:
          aspect: aspect1
          deltas:
            delta_1:
              number_of_instances: 1
        targets: [VDU1]
    - levels:
        type: tosca.policies.nfv.InstantiationLevels
        properties:
          levels:
            level1:
              description: small
              scale_info:
                aspect1: {scale_level: 0}
            level2:
              description: big
              scale_info:
                aspect1: {scale_level: 1}
          default_level: level1
    - VDU1_levels:
        type: tosca.policies.nfv.VduInstantiationLevels
        properties:
          levels:
            level1: {number_of_instances: 1}
            level2: {number_of_instances: 2}
        targets: [VDU1]
    - anti_affinity:
        type: tosca.policies.nfv.AntiAffinityRule
        targets: [group1]
        properties:
          scope: zone
    - vl_levels:
        type: tosca.policies.nfv.VirtualLinkInstantiationLevels
        properties:
          levels:
            level1:
              bitrate_requirements: {root: 1000}
        targets: [internalVL1]
""")

FILES = {
    "Scripts/hooks.py": "HOOKS = {}\n",
    "Files/images/image.raw": "raw",
}


def write(root, vnfd=None, extra=None):
    files = {ENTRY: yaml.safe_dump(vnfd if vnfd is not None else BASE)}
    files.update(FILES)
    files.update(extra or {})
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return root


def base():
    return copy.deepcopy(BASE)


def nodes(vnfd):
    return vnfd["topology_template"]["node_templates"]


def policy(vnfd, name):
    for item in vnfd["topology_template"]["policies"]:
        if name in item:
            return item[name]
    raise KeyError(name)


def refuse(tmp_path, vnfd=None, extra=None, entry=ENTRY):
    """Refused at the strict level: today's checks and messages (the
    tacker level's accepted deviations are tested in test_compat)."""
    with pytest.raises(InvalidVnfd) as info:
        load_vnfd(
            write(tmp_path, vnfd, extra),
            entry,
            limits=CsarLimits(compatibility=STRICT),
        )
    return info.value


def test_base_is_valid_and_models_storage_vls_and_other_policies(tmp_path):
    vnfd = load_vnfd(write(tmp_path), ENTRY)
    flavour = vnfd.flavour("simple")
    assert flavour.vdus["VDU1"].virtual_storages == ("VirtualStorage",)
    storage = flavour.virtual_storages["VirtualStorage"]
    assert storage.size_of_storage == 1000**3
    assert storage.rdma_enabled is True
    assert storage.sw_image_data.file == "Files/images/image.raw"
    assert storage.sw_image_data.size == 100 * 1000**2
    assert flavour.vdu_cps["VDU1_CP2"].virtual_link == "internalVL1"
    assert flavour.vdus["VDU1"].cps == ("VDU1_CP1", "VDU1_CP2")
    assert flavour.lcm_operations["instantiate_end"].artifact.file == (
        "Scripts/hooks.py"
    )
    (rule,) = flavour.affinity_rules
    assert rule.vdus == ("VDU1", "VDU2") and rule.scope == "zone"
    (other,) = flavour.other_policies
    assert other == model.Policy(
        name="vl_levels",
        type="tosca.policies.nfv.VirtualLinkInstantiationLevels",
        targets=("internalVL1",),
        properties={
            "levels": {"level1": {"bitrate_requirements": {"root": 1000}}}
        },
    )
    # No VduInitialDelta: the profile minimum applies outside levels.
    assert flavour.vdu_instance_count("VDU2") == 1
    assert flavour.vdu_instance_count("VDU1", "level2") == 2


def mutate(fn):
    vnfd = base()
    fn(vnfd)
    return vnfd


def _set(path, value):
    def apply(vnfd):
        target = vnfd
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return apply


_DELETE = object()
TT = "topology_template"
NT = "node_templates"


CASES = [
    (
        "unknown node type",
        _set([TT, NT, "VDU1", "type"], "tosca.nodes.nfv.Vdu.Computer"),
        "VDU1",
        "unknown node type 'tosca.nodes.nfv.Vdu.Computer'",
    ),
    (
        "missing required property",
        _set([TT, NT, "VDU1", "properties", "vdu_profile"], _DELETE),
        "VDU1",
        "properties.vdu_profile: required property is missing",
    ),
    (
        "missing nested required property",
        _set(
            [
                TT,
                NT,
                "VDU1",
                "properties",
                "vdu_profile",
                "max_number_of_instances",
            ],
            _DELETE,
        ),
        "VDU1",
        "properties.vdu_profile.max_number_of_instances: required property",
    ),
    (
        "unknown property",
        _set([TT, NT, "VDU1", "properties", "colour"], "red"),
        "VDU1",
        "properties.colour: unknown property",
    ),
    (
        "wrong value type",
        _set(
            [
                TT,
                NT,
                "VDU2",
                "properties",
                "vdu_profile",
                "min_number_of_instances",
            ],
            "one",
        ),
        "VDU2",
        "min_number_of_instances: must be an integer",
    ),
    (
        "negative instances",
        _set(
            [
                TT,
                NT,
                "VDU2",
                "properties",
                "vdu_profile",
                "min_number_of_instances",
            ],
            -1,
        ),
        "VDU2",
        "-1 violates greater_or_equal: 0",
    ),
    (
        "min greater than max",
        _set(
            [
                TT,
                NT,
                "VDU2",
                "properties",
                "vdu_profile",
                "min_number_of_instances",
            ],
            5,
        ),
        "VDU2",
        "min_number_of_instances (5) is greater than max_number_of_instances "
        "(3)",
    ),
    (
        "number where a string is required",
        _set([TT, NT, "VDU2", "properties", "name"], 1.0),
        "VDU2",
        "properties.name: must be a string (quote it)",
    ),
    (
        "bad scalar size",
        _set(
            [
                TT,
                NT,
                "VDU1",
                "capabilities",
                "virtual_compute",
                "properties",
                "virtual_memory",
                "virtual_mem_size",
            ],
            "512",
        ),
        "VDU1",
        "virtual_mem_size: '512' is not a scalar-unit.size",
    ),
    (
        "capability missing required property",
        _set(
            [
                TT,
                NT,
                "VDU1",
                "capabilities",
                "virtual_compute",
                "properties",
                "virtual_cpu",
            ],
            _DELETE,
        ),
        "VDU1",
        "capabilities.virtual_compute.properties.virtual_cpu: required",
    ),
    (
        "unknown capability",
        _set([TT, NT, "VDU2", "capabilities"], {"gpu": {}}),
        "VDU2",
        "unknown capability gpu for type tosca.nodes.nfv.Vdu.Compute",
    ),
    (
        "dangling requirement",
        _set(
            [TT, NT, "VDU1_CP1", "requirements"], [{"virtual_binding": "VDU9"}]
        ),
        "VDU1_CP1",
        "requirement virtual_binding refers to unknown node template 'VDU9'",
    ),
    (
        "requirement target without the capability",
        _set(
            [TT, NT, "VDU1_CP2", "requirements"],
            [{"virtual_binding": "VDU1"}, {"virtual_link": "VDU2"}],
        ),
        "VDU1_CP2",
        "requirement virtual_link needs capability "
        "tosca.capabilities.nfv.VirtualLinkable but VDU2",
    ),
    (
        "requirement target of the wrong node type",
        _set(
            [TT, NT, "VDU1_CP1", "requirements"],
            [{"virtual_binding": "internalVL1"}],
        ),
        "VDU1_CP1",
        "needs a tosca.nodes.nfv.Vdu.Compute but internalVL1 is a "
        "tosca.nodes.nfv.VnfVirtualLink",
    ),
    (
        "unknown requirement",
        _set(
            [TT, NT, "VDU1", "requirements"],
            [{"virtual_sorage": "VirtualStorage"}],
        ),
        "VDU1",
        "unknown requirement virtual_sorage",
    ),
    (
        "cp without virtual_binding",
        _set([TT, NT, "VDU1_CP1", "requirements"], []),
        "VDU1_CP1",
        "a VduCp needs exactly one virtual_binding requirement (found 0)",
    ),
    (
        "bad placement scope",
        lambda v: policy(v, "anti_affinity")["properties"].update(
            scope="galaxy"
        ),
        "anti_affinity",
        "properties.scope: 'galaxy' violates valid_values",
    ),
    (
        "dangling policy target",
        lambda v: policy(v, "anti_affinity").update(targets=["VDU9"]),
        "anti_affinity",
        "target 'VDU9' is neither a node template nor a group",
    ),
    (
        "policy target of a type the policy does not allow",
        lambda v: policy(v, "anti_affinity").update(targets=["VDU1_CP1"]),
        "anti_affinity",
        "target VDU1_CP1 is a tosca.nodes.nfv.VduCp; allowed:",
    ),
    (
        "dangling group member",
        _set([TT, "groups", "group1", "members"], ["VDU1", "VDU9"]),
        "group1",
        "member 'VDU9' is not a node template",
    ),
    (
        "group member of a type the group does not allow",
        _set([TT, "groups", "group1", "members"], ["VDU1_CP1"]),
        "group1",
        "member VDU1_CP1 is a tosca.nodes.nfv.VduCp; allowed:",
    ),
    (
        "unknown policy type",
        lambda v: policy(v, "anti_affinity").update(
            type="tosca.policies.nfv.Teleport"
        ),
        "anti_affinity",
        "unknown policy type 'tosca.policies.nfv.Teleport'",
    ),
    (
        "deltas of an unknown aspect",
        lambda v: policy(v, "VDU1_deltas")["properties"].update(aspect="nope"),
        "VDU1_deltas",
        "aspect 'nope' is not a scaling aspect",
    ),
    (
        "delta that is not a step of the aspect",
        lambda v: policy(v, "VDU1_deltas")["properties"].update(
            deltas={"delta_9": {"number_of_instances": 1}}
        ),
        "VDU1_deltas",
        "delta 'delta_9' is not a step_delta of aspect aspect1",
    ),
    (
        "step without deltas",
        lambda v: policy(v, "scaling_aspects")["properties"]["aspects"][
            "aspect1"
        ].update(step_deltas=["delta_1", "delta_2"]),
        "scaling_aspects",
        "step_delta 'delta_2' of aspect aspect1 has no VduScalingAspectDeltas",
    ),
    (
        "scale level above max_scale_level",
        lambda v: policy(v, "levels")["properties"]["levels"]["level2"].update(
            scale_info={"aspect1": {"scale_level": 2}}
        ),
        "levels",
        "level level2: scale_level 2 of aspect1 exceeds max_scale_level 1",
    ),
    (
        "scale info of an unknown aspect",
        lambda v: policy(v, "levels")["properties"]["levels"]["level2"].update(
            scale_info={"aspect9": {"scale_level": 0}}
        ),
        "levels",
        "level level2: unknown aspect 'aspect9'",
    ),
    (
        "unknown default level",
        lambda v: policy(v, "levels")["properties"].update(
            default_level="level9"
        ),
        "levels",
        "default_level 'level9' is not a level",
    ),
    (
        "missing default level",
        lambda v: policy(v, "levels")["properties"].pop("default_level"),
        "levels",
        "default_level is required with several levels",
    ),
    (
        "vdu level that is not an instantiation level",
        lambda v: policy(v, "VDU1_levels")["properties"]["levels"].update(
            level9={"number_of_instances": 1}
        ),
        "VDU1_levels",
        "level 'level9' is not an instantiation level",
    ),
    (
        "vdu level above max instances",
        lambda v: policy(v, "VDU1_levels")["properties"]["levels"].update(
            level2={"number_of_instances": 7}
        ),
        "VDU1_levels",
        "level level2 gives VDU VDU1 7 instances, more than its "
        "max_number_of_instances (2)",
    ),
    (
        "initial delta above max instances",
        lambda v: v[TT]["policies"].append(
            {
                "init": {
                    "type": "tosca.policies.nfv.VduInitialDelta",
                    "properties": {
                        "initial_delta": {"number_of_instances": 3}
                    },
                    "targets": ["VDU1"],
                }
            }
        ),
        "init",
        "initial_delta gives VDU VDU1 3 instances",
    ),
    (
        "vdu policy targeting a group",
        lambda v: policy(v, "VDU1_levels").update(targets=["group1"]),
        "VDU1_levels",
        "target group1 is a tosca.groups.nfv.PlacementGroup; allowed: "
        "tosca.nodes.nfv.Vdu.Compute",
    ),
    (
        "duplicate policy name",
        lambda v: v[TT]["policies"].append(
            copy.deepcopy(v[TT]["policies"][-1])
        ),
        "vl_levels",
        "duplicate policy name",
    ),
    (
        "VNF without a required property",
        _set([TT, NT, "VNF", "properties", "descriptor_id"], _DELETE),
        "VNF",
        "properties.descriptor_id: required property is missing",
    ),
    (
        "missing artifact file",
        _set([TT, NT, "VNF", "artifacts", "hooks", "file"], "Scripts/gone.py"),
        "VNF",
        "file Scripts/gone.py is not in the package",
    ),
    (
        "artifact file outside the package",
        _set([TT, NT, "VNF", "artifacts", "hooks", "file"], "/etc/passwd"),
        "VNF",
        "file /etc/passwd is outside the package",
    ),
    (
        "hook implementation that does not exist",
        _set(
            [TT, NT, "VNF", "interfaces", "Vnflcm", "instantiate_end"],
            {"implementation": "nope"},
        ),
        "VNF",
        "Vnflcm.instantiate_end implementation 'nope' is neither an artifact",
    ),
    (
        "unknown Vnflcm operation",
        _set(
            [TT, NT, "VNF", "interfaces", "Vnflcm", "instantiate_middle"],
            {"implementation": "hooks"},
        ),
        "VNF",
        "unknown operation Vnflcm.instantiate_middle",
    ),
    (
        "unknown interface",
        _set([TT, NT, "VNF", "interfaces", "Vnfops"], {}),
        "VNF",
        "unknown interface Vnfops",
    ),
    (
        "substitution node type that is not a VNF",
        _set(
            [TT, "substitution_mappings", "node_type"],
            "tosca.nodes.nfv.Vdu.Compute",
        ),
        None,
        "substitution_mappings node_type 'tosca.nodes.nfv.Vdu.Compute' is "
        "not a known type derived from tosca.nodes.nfv.VNF",
    ),
    (
        "substitution requirement on an unknown node",
        _set(
            [TT, "substitution_mappings", "requirements", "virtual_link"],
            ["VDU9_CP1", "virtual_link"],
        ),
        None,
        "substitution_mappings requirement virtual_link must be [node "
        "template, requirement]",
    ),
    (
        "substitution requirement the VNF type lacks",
        _set(
            [TT, "substitution_mappings", "requirements", "ext_link"],
            ["VDU1_CP1", "virtual_link"],
        ),
        None,
        "substitution_mappings requirement ext_link is not a requirement of "
        "tosca.nodes.nfv.VNF",
    ),
    (
        "no flavour",
        _set([TT, "substitution_mappings"], _DELETE),
        None,
        "no deployment flavour",
    ),
    (
        "unsupported TOSCA version",
        _set(["tosca_definitions_version"], "tosca_2_0"),
        None,
        "tosca_definitions_version 'tosca_2_0' is not supported",
    ),
]


@pytest.mark.parametrize(
    ("change", "node", "problem"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_invalid_vnfd(tmp_path, change, node, problem):
    error = refuse(tmp_path, mutate(change))
    assert error.file == ENTRY
    assert error.node == node
    assert problem in error.problem
    details = error.to_problem_details()
    assert details["file"] == ENTRY
    assert details["status"] == 422


# -- imports ----------------------------------------------------------------


def with_import(ref):
    vnfd = base()
    vnfd["imports"].append(ref)
    return vnfd


@pytest.mark.parametrize(
    ("ref", "problem"),
    [
        ("../../etc/types.yaml", "import ../../etc/types.yaml escapes"),
        ("/etc/types.yaml", "import /etc/types.yaml escapes the package"),
        ("C:/types.yaml", "escapes the package"),
        ("..\\types.yaml", "escapes the package"),
        (
            "https://example.invalid/types.yaml",
            "remote import https://example.invalid/types.yaml is not allowed",
        ),
        (
            "missing_types.yaml",
            "imported file missing_types.yaml "
            "(Definitions/missing_types.yaml) is not in the package",
        ),
        ({"file": "x.yaml", "repository": "etsi"}, "'repository' is not"),
        (42, "import 42 is not a file name"),
    ],
)
def test_bad_imports(tmp_path, ref, problem):
    error = refuse(tmp_path, with_import(ref))
    assert error.file == ENTRY
    assert problem in error.problem


@pytest.mark.parametrize(
    "ref",
    [
        "https://forge.etsi.org/rep/nfv/SOL001/raw/v4.5.1/"
        "etsi_nfv_sol001_vnfd_types.yaml",
        "http://forge.etsi.org/rep/nfv/SOL001/raw/v2.6.1/"
        "etsi_nfv_sol001_common_types.yaml",
        "../Definitions/etsi_nfv_sol001_vnfd_types.yaml",
        {"file": "etsi_nfv_sol001_common_types.yaml"},
        {"sol001": "etsi_nfv_sol001_common_types.yaml"},
    ],
)
def test_sol001_imports_resolve_offline(tmp_path, ref):
    vnfd = load_vnfd(write(tmp_path, with_import(ref)), ENTRY)
    assert vnfd.definitions_files == (ENTRY,)


def test_import_cycle(tmp_path):
    vnfd = with_import("a.yaml")
    extra = {
        "Definitions/a.yaml": yaml.safe_dump(
            {
                "tosca_definitions_version": "tosca_simple_yaml_1_3",
                "imports": ["sub/b.yaml"],
            }
        ),
        "Definitions/sub/b.yaml": yaml.safe_dump(
            {
                "tosca_definitions_version": "tosca_simple_yaml_1_3",
                "imports": ["../vnfd.yaml"],
            }
        ),
    }
    error = refuse(tmp_path, vnfd, extra)
    assert error.file == "Definitions/sub/b.yaml"
    assert error.problem == (
        "import cycle: Definitions/vnfd.yaml -> Definitions/a.yaml -> "
        "Definitions/sub/b.yaml -> Definitions/vnfd.yaml"
    )


def test_diamond_imports_are_loaded_once(tmp_path):
    types = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "node_types": {
            "my.VNF": {"derived_from": "tosca.nodes.nfv.VNF"},
        },
    }
    middle = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "imports": ["types.yaml"],
    }
    vnfd = with_import("a.yaml")
    vnfd["imports"].append("b.yaml")
    extra = {
        "Definitions/types.yaml": yaml.safe_dump(types),
        "Definitions/a.yaml": yaml.safe_dump(middle),
        "Definitions/b.yaml": yaml.safe_dump(middle),
    }
    loaded = load_vnfd(write(tmp_path, vnfd, extra), ENTRY)
    assert loaded.definitions_files == (
        "Definitions/types.yaml",
        "Definitions/a.yaml",
        "Definitions/b.yaml",
        ENTRY,
    )


# -- type definitions -------------------------------------------------------


def types_file(node_types):
    return {
        "Definitions/types.yaml": yaml.safe_dump(
            {
                "tosca_definitions_version": "tosca_simple_yaml_1_3",
                "node_types": node_types,
            }
        )
    }


def test_type_derived_from_unknown_type(tmp_path):
    extra = types_file({"my.VNF": {"derived_from": "tosca.nodes.nfv.VNFF"}})
    error = refuse(tmp_path, with_import("types.yaml"), extra)
    assert (error.file, error.node) == ("Definitions/types.yaml", "my.VNF")
    assert error.problem == (
        "derived_from tosca.nodes.nfv.VNFF is not a known node type"
    )


def test_type_derivation_cycle(tmp_path):
    extra = types_file(
        {"my.A": {"derived_from": "my.B"}, "my.B": {"derived_from": "my.A"}}
    )
    error = refuse(tmp_path, with_import("types.yaml"), extra)
    assert error.file == "Definitions/types.yaml"
    assert "derived_from cycle: my.A -> my.B" in error.problem


def test_package_may_not_redefine_a_bundled_type(tmp_path):
    extra = types_file(
        {"tosca.nodes.nfv.Vdu.Compute": {"derived_from": "tosca.nodes.Root"}}
    )
    error = refuse(tmp_path, with_import("types.yaml"), extra)
    assert error.node == "tosca.nodes.nfv.Vdu.Compute"
    assert "already defined in bundled:etsi_nfv_sol001_vnfd_types.yaml" in (
        error.problem
    )


# -- YAML ---------------------------------------------------------------------


def test_yaml_syntax_error(tmp_path):
    error = refuse(tmp_path, extra={ENTRY: "topology_template: [unclosed\n"})
    assert error.file == ENTRY
    assert error.problem.startswith("invalid YAML:")


def test_yaml_duplicate_key(tmp_path):
    text = yaml.safe_dump(BASE) + "topology_template: {}\n"
    error = refuse(tmp_path, extra={ENTRY: text})
    assert error.file == ENTRY
    assert "duplicate key 'topology_template'" in error.problem


def test_definitions_file_that_is_not_a_mapping(tmp_path):
    error = refuse(tmp_path, extra={ENTRY: "- just\n- a list\n"})
    assert error.problem == "definitions file is not a YAML mapping"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"derived_from": ["tosca.nodes.nfv.VNF"]}, "derived_from is not a"),
        (
            {"derived_from": "tosca.nodes.nfv.VNF", "properties": ["x"]},
            "properties is not a mapping",
        ),
        (
            {
                "derived_from": "tosca.nodes.nfv.VNF",
                "properties": {"colour": {"default": "red"}},
            },
            "properties.colour: property has no type",
        ),
        (
            {
                "derived_from": "tosca.nodes.nfv.VNF",
                "properties": {"colour": {"type": "my.Colour"}},
            },
            "properties.colour: unknown data type 'my.Colour'",
        ),
        (
            {
                "derived_from": "tosca.nodes.nfv.VNF",
                "properties": {"vnfm_info": {"type": "list", "default": "x"}},
            },
            "properties.vnfm_info.default: must be a list",
        ),
        (
            {
                "derived_from": "tosca.nodes.nfv.VNF",
                "properties": {
                    "flavour_id": {
                        "type": "string",
                        "constraints": [{"valid_values": ["a"]}],
                        "default": "b",
                    }
                },
            },
            "properties.flavour_id.default: 'b' violates valid_values",
        ),
        (
            {
                "derived_from": "tosca.nodes.nfv.VNF",
                "interfaces": {"Vnflcm": {"type": "my.Lcm"}},
            },
            "interfaces.Vnflcm: unknown interface type 'my.Lcm'",
        ),
        (
            {"derived_from": "tosca.nodes.nfv.VNF", "requirements": {"a": 1}},
            "requirements is not a list",
        ),
    ],
)
def test_malformed_type_definitions(tmp_path, body, problem):
    error = refuse(
        tmp_path, with_import("types.yaml"), types_file({"my.VNF": body})
    )
    assert (error.file, error.node) == ("Definitions/types.yaml", "my.VNF")
    assert problem in error.problem


def test_derived_type_refines_inherited_definitions(tmp_path):
    # Redefining Vnflcm without its type keeps the inherited type.
    body = {
        "derived_from": "tosca.nodes.nfv.VNF",
        "interfaces": {"Vnflcm": {"description": "refined"}},
        "properties": {"flavour_description": {"default": "refined"}},
    }
    vnfd = base()
    vnfd["topology_template"]["substitution_mappings"]["node_type"] = "my.VNF"
    nodes(vnfd)["VNF"]["type"] = "my.VNF"
    del nodes(vnfd)["VNF"]["properties"]["flavour_description"]
    vnfd["imports"].append("types.yaml")
    loaded = load_vnfd(
        write(tmp_path, vnfd, types_file({"my.VNF": body})), ENTRY
    )
    flavour = loaded.flavour("simple")
    assert flavour.flavour_description == "refined"
    assert "instantiate_end" in flavour.lcm_operations
