"""Build the :class:`Vnfd` model from a package's definitions files.

A flavour is a topology template with ``substitution_mappings`` (one per
file, as in Tacker's ``*_df_*.yaml`` pattern, or the entry file itself for
a single-flavour VNFD). The VNF node of the entry/top file gives common
properties, the flavour's VNF node and ``substitution_mappings`` the
flavour's own; required VNF properties are checked on that merge.
"""

import os
from pathlib import Path
from typing import Any

from tacker_ng.objects import vnfd as model
from tacker_ng.packages import compat as _compat
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.vnfd import deployment, nodes, policies
from tacker_ng.packages.vnfd.loader import load_definitions
from tacker_ng.packages.vnfd.substitution import substitution_requirements
from tacker_ng.packages.vnfd.topology import (
    VNF_TYPE,
    NodeTemplate,
    Topology,
    TopologyChecker,
)
from tacker_ng.packages.vnfd.types import TypeRegistry
from tacker_ng.packages.vnfd.values import ValueProblem, is_function

_PRODUCT_FIELDS = (
    "descriptor_id",
    "descriptor_version",
    "provider",
    "product_name",
    "software_version",
)


def _package_files(root: Path) -> set[str]:
    found = set()
    for dirpath, _, filenames in os.walk(root):
        for filename in filenames:
            full = Path(dirpath, filename)
            if full.is_file() and not full.is_symlink():
                found.add(full.relative_to(root).as_posix())
    return found


def load_vnfd(
    root: str | os.PathLike,
    entry_definitions: str,
    *,
    files: set[str] | None = None,
    limits: CsarLimits | None = None,
    compat: _compat.Compatibility | None = None,
) -> model.Vnfd:
    """Parse and check the VNFD of the extracted package at ``root``.

    ``files`` (relative POSIX paths of the package's regular files) is
    computed from ``root`` when not given. Raises :class:`InvalidVnfd`.
    Deviations accepted at the compatibility level (``compat``, else the
    level of ``limits``) are left in ``compat.warnings``.
    """
    root_path = Path(root)
    limits = limits or CsarLimits()
    compat = compat or _compat.Compatibility(limits.compatibility)
    files = files if files is not None else _package_files(root_path)
    definitions = load_definitions(root_path, entry_definitions, files, limits)
    registry = TypeRegistry.build(definitions)
    checker = TopologyChecker(registry, files, compat)
    topologies = [
        topology
        for topology in (
            checker.check(d) for d in definitions if not d.bundled
        )
        if topology is not None
    ]
    return _Builder(root_path, files, limits, registry, checker, compat).vnfd(
        entry_definitions,
        [d.path for d in definitions if not d.bundled],
        topologies,
    )


class _Builder:
    def __init__(
        self,
        root: Path,
        files: set[str],
        limits: CsarLimits,
        registry: TypeRegistry,
        checker: TopologyChecker,
        compat: _compat.Compatibility,
    ) -> None:
        self.compat = compat
        self.root = root
        self.files = files
        self.limits = limits
        self.registry = registry
        self.checker = checker

    def _vnf_nodes(self, topology: Topology) -> list[NodeTemplate]:
        return [
            node
            for node in topology.nodes.values()
            if self.registry.derives_from("node_types", node.type, VNF_TYPE)
        ]

    def vnfd(
        self, entry: str, paths: list[str], topologies: list[Topology]
    ) -> model.Vnfd:
        flavour_topologies = [
            t for t in topologies if t.substitution_mappings is not None
        ]
        if not flavour_topologies:
            raise InvalidVnfd(
                "no deployment flavour: no topology_template has "
                "substitution_mappings",
                file=entry,
            )
        common = [
            node
            for t in topologies
            if t.substitution_mappings is None
            for node in self._vnf_nodes(t)
        ]
        if len(common) > 1:
            raise InvalidVnfd(
                "more than one VNF node outside the flavour topologies",
                file=entry,
                node=common[1].name,
            )
        flavours: dict[str, model.DeploymentFlavour] = {}
        product: dict[str, Any] | None = None
        for topology in flavour_topologies:
            props, flavour = self._flavour(
                topology, common[0] if common else None
            )
            if flavour.flavour_id in flavours:
                raise InvalidVnfd(
                    f"flavour_id {flavour.flavour_id!r} is also defined in "
                    f"{flavours[flavour.flavour_id].file}",
                    file=topology.file,
                )
            flavours[flavour.flavour_id] = flavour
            if product is None:
                product = props
            for field in _PRODUCT_FIELDS:
                if props[field] != product[field]:
                    raise InvalidVnfd(
                        f"{field} {props[field]!r} differs from "
                        f"{product[field]!r} in another flavour",
                        file=topology.file,
                    )
        assert product is not None
        return model.Vnfd(
            descriptor_id=str(product["descriptor_id"]),
            descriptor_version=str(product["descriptor_version"]),
            provider=str(product["provider"]),
            product_name=str(product["product_name"]),
            software_version=str(product["software_version"]),
            vnfm_info=tuple(product["vnfm_info"]),
            vnf_node_type=product["__type__"],
            entry_definitions=entry,
            definitions_files=tuple(paths),
            flavours=flavours,
            product_info_name=product.get("product_info_name"),
            product_info_description=product.get("product_info_description"),
            localization_languages=tuple(
                product.get("localization_languages") or ()
            ),
            default_localization_language=product.get(
                "default_localization_language"
            ),
            lcm_operations_configuration=dict(
                product.get("lcm_operations_configuration") or {}
            ),
        )

    def _flavour(
        self, topology: Topology, common: NodeTemplate | None
    ) -> tuple[dict[str, Any], model.DeploymentFlavour]:
        reg, path = self.registry, topology.file
        subst = topology.substitution_mappings or {}
        node_type = subst.get("node_type")
        if (
            not isinstance(node_type, str)
            or not reg.has("node_types", node_type)
            or not reg.derives_from("node_types", node_type, VNF_TYPE)
        ):
            raise InvalidVnfd(
                f"substitution_mappings node_type {node_type!r} is not a "
                f"known type derived from {VNF_TYPE}",
                file=path,
            )
        local = self._vnf_nodes(topology)
        if len(local) > 1:
            raise InvalidVnfd(
                "more than one VNF node in a flavour",
                file=path,
                node=local[1].name,
            )
        vnf_nodes = [n for n in (common, *local) if n is not None]
        for node in vnf_nodes:
            if node.type != node_type:
                raise InvalidVnfd(
                    f"VNF node type {node.type} differs from "
                    f"substitution_mappings node_type {node_type}",
                    file=path,
                    node=node.name,
                )
        vnf_name = vnf_nodes[-1].name if vnf_nodes else "VNF"
        props = self._vnf_properties(
            node_type, vnf_nodes, subst, path, vnf_name
        )
        interfaces: dict[str, dict[str, Any]] = {}
        artifacts: dict[str, model.Artifact] = {}
        for node in vnf_nodes:
            artifacts.update(node.artifacts)
            for op, value in node.interfaces.get("Vnflcm", {}).items():
                interfaces[op] = value
        hooks = self._hooks(interfaces, artifacts, path, vnf_name)
        params = (interfaces.get("instantiate") or {}).get("inputs", {})
        params = params.get("additional_parameters") or {}
        if not isinstance(params, dict):
            raise InvalidVnfd(
                "Vnflcm.instantiate additional_parameters is not a mapping",
                file=path,
                node=vnf_name,
            )
        vdus, storages, cps, links = nodes.build_nodes(topology, reg)
        pol = policies.build_policies(topology, reg.derives_from, vdus, links)
        flavour_id = str(props["flavour_id"])
        hot = deployment.base_hot(
            flavour_id, self.root, self.files, self.limits
        )
        manifests, k8s = deployment.kubernetes(
            params,
            has_base_hot=hot is not None,
            root=self.root,
            files=self.files,
            limits=self.limits,
            vnfd=path,
        )
        user = deployment.user_data(params, self.root, self.files, path)
        deployment.check_vdus_deployable(path, pol.vdus, hot, k8s, user)
        flavour = model.DeploymentFlavour(
            flavour_id=flavour_id,
            flavour_description=str(props["flavour_description"]),
            file=path,
            vnf_node_name=vnf_name,
            vdus=pol.vdus,
            virtual_storages=storages,
            vdu_cps=cps,
            virtual_links=links,
            scaling_aspects=pol.scaling_aspects,
            instantiation_levels=pol.instantiation_levels,
            default_instantiation_level_id=pol.default_instantiation_level_id,
            placement_groups=pol.placement_groups,
            affinity_rules=pol.affinity_rules,
            lcm_operations=hooks,
            substitution_requirements=substitution_requirements(
                self.registry, topology, node_type, self.compat
            ),
            additional_parameters=dict(params),
            base_hot=hot,
            kubernetes_manifests=manifests,
            kubernetes_resources=k8s,
            user_data=user,
            other_policies=pol.other_policies,
        )
        return props, flavour

    def _vnf_properties(
        self,
        node_type: str,
        vnf_nodes: list[NodeTemplate],
        subst: dict[str, Any],
        path: str,
        vnf_name: str,
    ) -> dict[str, Any]:
        definitions = self.registry.merged(
            "node_types", node_type, "properties"
        )
        merged = {
            key: definition["default"]
            for key, definition in definitions.items()
            if isinstance(definition, dict)
            and definition.get("default") is not None
        }
        sources = [node.properties for node in vnf_nodes]
        subst_props = subst.get("properties") or {}
        if not isinstance(subst_props, dict):
            raise InvalidVnfd(
                "substitution_mappings properties is not a mapping", file=path
            )
        sources.append(subst_props)
        for source in sources:
            merged.update(
                {k: v for k, v in source.items() if not is_function(v)}
            )
        try:
            self.registry.check_properties(merged, definitions, "properties")
        except ValueProblem as exc:
            raise InvalidVnfd(str(exc), file=path, node=vnf_name) from None
        merged["__type__"] = node_type
        return merged

    def _hooks(
        self,
        interfaces: dict[str, dict[str, Any]],
        artifacts: dict[str, model.Artifact],
        path: str,
        vnf_name: str,
    ) -> dict[str, model.LcmOperationHook]:
        hooks = {}
        for op, value in interfaces.items():
            impl = value["implementation"]
            if impl is None:
                continue
            artifact = artifacts.get(impl)
            if artifact is None:
                try:
                    file = self.checker.resolve_file(path, vnf_name, impl)
                except InvalidVnfd:
                    raise InvalidVnfd(
                        f"Vnflcm.{op} implementation {impl!r} is neither an "
                        "artifact of the VNF node nor a file in the package",
                        file=path,
                        node=vnf_name,
                    ) from None
                artifact = model.Artifact(
                    name=impl, type="tosca.artifacts.Implementation", file=file
                )
            hooks[op] = model.LcmOperationHook(operation=op, artifact=artifact)
        return hooks
