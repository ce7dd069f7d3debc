"""Typed VNFD model (ETSI NFV-SOL001), the only view of a VNFD others use.

Field names follow SOL001 so the code reads against the standard. Sizes
(``scalar-unit.size``) are converted to bytes. Paths are package paths:
relative POSIX paths from the package root. Everything is immutable.
"""

import dataclasses
from typing import Any

AFFINITY = "tosca.policies.nfv.AffinityRule"
ANTI_AFFINITY = "tosca.policies.nfv.AntiAffinityRule"


@dataclasses.dataclass(frozen=True)
class Artifact:
    """A node template artifact (``artifacts:``) resolved in the package."""

    name: str
    type: str
    #: Package path of the file; ``None`` for a URI artifact.
    file: str | None
    uri: str | None = None
    description: str | None = None


@dataclasses.dataclass(frozen=True)
class LcmOperationHook:
    """A ``Vnflcm`` operation with an implementation (MgmtDriver hook)."""

    #: SOL001 operation name, e.g. ``instantiate_start``.
    operation: str
    artifact: Artifact


@dataclasses.dataclass(frozen=True)
class VduProfile:
    min_number_of_instances: int
    max_number_of_instances: int


@dataclasses.dataclass(frozen=True)
class VirtualCpu:
    num_virtual_cpu: int
    cpu_architecture: str | None = None
    virtual_cpu_clock: str | None = None


@dataclasses.dataclass(frozen=True)
class VirtualMemory:
    #: Bytes.
    virtual_mem_size: int


@dataclasses.dataclass(frozen=True)
class VirtualCompute:
    """The ``virtual_compute`` capability of a Vdu.Compute."""

    virtual_cpu: VirtualCpu
    virtual_memory: VirtualMemory
    #: ``size_of_storage`` of each ``virtual_local_storage`` entry, bytes.
    virtual_local_storage: tuple[int, ...] = ()
    requested_additional_capabilities: dict[str, Any] = dataclasses.field(
        default_factory=dict
    )
    compute_requirements: dict[str, str] = dataclasses.field(
        default_factory=dict
    )


@dataclasses.dataclass(frozen=True)
class Checksum:
    algorithm: str
    hash: str


@dataclasses.dataclass(frozen=True)
class SwImageData:
    """``tosca.datatypes.nfv.SwImageData`` (sizes in bytes)."""

    name: str
    version: str
    checksum: Checksum
    container_format: str
    disk_format: str
    min_disk: int
    size: int
    min_ram: int | None = None
    operating_system: str | None = None
    supported_virtualisation_environments: tuple[str, ...] = ()
    #: Package path of the ``tosca.artifacts.nfv.SwImage`` artifact, if any.
    file: str | None = None
    #: URI of that artifact when the image is external to the package.
    uri: str | None = None


@dataclasses.dataclass(frozen=True)
class Vdu:
    """A ``tosca.nodes.nfv.Vdu.Compute`` node with its policies folded in."""

    #: Node template name (the VDU id in SOL003, e.g. ``VDU1``).
    node_name: str
    name: str
    description: str
    vdu_profile: VduProfile
    virtual_compute: VirtualCompute | None = None
    sw_image_data: SwImageData | None = None
    #: Node names of the attached ``Vdu.VirtualBlockStorage`` nodes.
    virtual_storages: tuple[str, ...] = ()
    #: Node names of the ``VduCp`` nodes bound to this VDU.
    cps: tuple[str, ...] = ()
    boot_order: tuple[str, ...] = ()
    nfvi_constraints: tuple[str, ...] = ()
    boot_data: str | None = None
    #: ``VduInitialDelta`` number_of_instances, if a policy gives one.
    initial_delta: int | None = None
    #: aspect id -> scaling delta id -> number_of_instances.
    aspect_deltas: dict[str, dict[str, int]] = dataclasses.field(
        default_factory=dict
    )
    #: instantiation level id -> number_of_instances.
    instantiation_levels: dict[str, int] = dataclasses.field(
        default_factory=dict
    )
    artifacts: dict[str, Artifact] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class VirtualBlockStorage:
    """A ``tosca.nodes.nfv.Vdu.VirtualBlockStorage`` node."""

    node_name: str
    #: ``virtual_block_storage_data.size_of_storage`` in bytes.
    size_of_storage: int
    rdma_enabled: bool = False
    vdu_storage_requirements: dict[str, str] = dataclasses.field(
        default_factory=dict
    )
    sw_image_data: SwImageData | None = None


@dataclasses.dataclass(frozen=True)
class VduCp:
    """A ``tosca.nodes.nfv.VduCp`` node."""

    node_name: str
    layer_protocols: tuple[str, ...]
    #: Node name of the VDU (``virtual_binding`` requirement).
    virtual_binding: str
    #: Node name of the internal VL (``virtual_link``), None if external.
    virtual_link: str | None = None
    role: str | None = None
    description: str | None = None
    order: int | None = None
    vnic_type: str | None = None
    bitrate_requirement: int | None = None
    protocol: tuple[dict[str, Any], ...] = ()


@dataclasses.dataclass(frozen=True)
class VnfVirtualLink:
    """A ``tosca.nodes.nfv.VnfVirtualLink`` node (internal VL)."""

    node_name: str
    layer_protocols: tuple[str, ...]
    flow_pattern: str | None = None
    description: str | None = None
    #: ``vl_profile`` as written (bitrates, protocol data).
    vl_profile: dict[str, Any] = dataclasses.field(default_factory=dict)
    test_access: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class ScalingAspect:
    """One entry of ``tosca.policies.nfv.ScalingAspects``."""

    aspect_id: str
    name: str
    description: str
    max_scale_level: int
    step_deltas: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class InstantiationLevel:
    """One entry of ``tosca.policies.nfv.InstantiationLevels``."""

    level_id: str
    description: str
    #: aspect id -> scale_level.
    scale_info: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class PlacementGroup:
    """A ``tosca.groups.nfv.PlacementGroup``."""

    name: str
    description: str
    members: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class PlacementRule:
    """An ``AffinityRule`` or ``AntiAffinityRule`` policy."""

    name: str
    #: :data:`AFFINITY` or :data:`ANTI_AFFINITY`.
    type: str
    #: nfvi_node, zone, zone_group, nfvi_pop or network_link_port.
    scope: str
    #: Targets as written: VDU, VL or PlacementGroup names.
    targets: tuple[str, ...]
    #: VDU node names the rule applies to (groups expanded).
    vdus: tuple[str, ...]
    #: VnfVirtualLink node names the rule applies to (groups expanded).
    virtual_links: tuple[str, ...] = ()

    @property
    def is_affinity(self) -> bool:
        return self.type == AFFINITY


@dataclasses.dataclass(frozen=True)
class Policy:
    """A known SOL001 policy tacker-ng does not model (kept as written)."""

    name: str
    type: str
    targets: tuple[str, ...]
    properties: dict[str, Any]


@dataclasses.dataclass(frozen=True)
class BaseHot:
    """The Heat templates of a flavour: ``BaseHOT/<flavour_id>/``."""

    #: Package path of the top template.
    template: str
    #: Nested template file name (as referenced by ``type:``) -> path.
    nested: dict[str, str]
    #: Names of the top template's resources.
    resources: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class KubernetesResource:
    """One object of a Kubernetes manifest in the package."""

    file: str
    kind: str
    name: str
    namespace: str | None = None
    api_version: str | None = None


@dataclasses.dataclass(frozen=True)
class UserData:
    """The LCM user-data script and class (``lcm-operation-user-data``)."""

    file: str
    class_name: str


@dataclasses.dataclass(frozen=True)
class DeploymentFlavour:
    """One deployment flavour: its topology, policies and artifacts."""

    flavour_id: str
    flavour_description: str
    #: Definitions file holding the flavour's topology template.
    file: str
    vnf_node_name: str
    vdus: dict[str, Vdu]
    virtual_storages: dict[str, VirtualBlockStorage]
    vdu_cps: dict[str, VduCp]
    virtual_links: dict[str, VnfVirtualLink]
    scaling_aspects: dict[str, ScalingAspect]
    instantiation_levels: dict[str, InstantiationLevel]
    default_instantiation_level_id: str | None
    placement_groups: dict[str, PlacementGroup]
    affinity_rules: tuple[PlacementRule, ...]
    #: Vnflcm operation name -> hook, for operations with an implementation.
    lcm_operations: dict[str, LcmOperationHook]
    #: substitution_mappings requirements: name -> (node, requirement).
    substitution_requirements: dict[str, tuple[str, str]]
    #: Defaults from ``Vnflcm.instantiate.inputs.additional_parameters``.
    additional_parameters: dict[str, Any]
    base_hot: BaseHot | None = None
    kubernetes_manifests: tuple[str, ...] = ()
    kubernetes_resources: tuple[KubernetesResource, ...] = ()
    user_data: UserData | None = None
    other_policies: tuple[Policy, ...] = ()

    @property
    def mgmt_driver_artifacts(self) -> tuple[Artifact, ...]:
        """Distinct artifacts implementing the LCM hooks (MgmtDriver)."""
        seen: dict[str, Artifact] = {}
        for hook in self.lcm_operations.values():
            seen.setdefault(hook.artifact.name, hook.artifact)
        return tuple(seen.values())

    def vdu_instance_count(self, vdu: str, level_id: str | None = None) -> int:
        """VNFCs of ``vdu`` at instantiation level ``level_id`` (or default).

        VduInstantiationLevels first, then VduInitialDelta, then the
        profile's min_number_of_instances, as SOL001 orders them.
        """
        model = self.vdus[vdu]
        level = level_id or self.default_instantiation_level_id
        if level is not None and level in model.instantiation_levels:
            return model.instantiation_levels[level]
        if model.initial_delta is not None:
            return model.initial_delta
        return model.vdu_profile.min_number_of_instances

    def rules_for(self, vdu: str) -> tuple[PlacementRule, ...]:
        """Affinity/anti-affinity rules that apply to ``vdu``."""
        return tuple(rule for rule in self.affinity_rules if vdu in rule.vdus)


@dataclasses.dataclass(frozen=True)
class Vnfd:
    """A whole VNFD: VNF product information and its deployment flavours."""

    descriptor_id: str
    descriptor_version: str
    provider: str
    product_name: str
    software_version: str
    vnfm_info: tuple[str, ...]
    #: The VNF node type (derived from ``tosca.nodes.nfv.VNF``).
    vnf_node_type: str
    entry_definitions: str
    #: Package paths of every definitions file loaded (entry + imports).
    definitions_files: tuple[str, ...]
    flavours: dict[str, DeploymentFlavour]
    product_info_name: str | None = None
    product_info_description: str | None = None
    localization_languages: tuple[str, ...] = ()
    default_localization_language: str | None = None
    lcm_operations_configuration: dict[str, Any] = dataclasses.field(
        default_factory=dict
    )

    def flavour(self, flavour_id: str) -> DeploymentFlavour:
        """The flavour ``flavour_id``; KeyError names the known ones."""
        try:
            return self.flavours[flavour_id]
        except KeyError:
            known = ", ".join(sorted(self.flavours))
            raise KeyError(
                f"no deployment flavour {flavour_id!r} (known: {known})"
            ) from None
