"""Model builders for a flavour's VDU, storage, CP and virtual link nodes.

Input is a topology already checked by :mod:`topology` (types, values and
requirement targets are valid), so this module only maps SOL001 fields to
the model and adds the cross-node rules (min <= max instances, one
virtual_binding per CP).
"""

from typing import Any

from tacker_ng.objects import vnfd as model
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.topology import NodeTemplate, Topology
from tacker_ng.packages.vnfd.types import TypeRegistry
from tacker_ng.packages.vnfd.values import is_function, parse_size

COMPUTE = "tosca.nodes.nfv.Vdu.Compute"
BLOCK_STORAGE = "tosca.nodes.nfv.Vdu.VirtualBlockStorage"
VDU_CP = "tosca.nodes.nfv.VduCp"
VIRTUAL_LINK = "tosca.nodes.nfv.VnfVirtualLink"
SW_IMAGE = "tosca.artifacts.nfv.SwImage"


def _str(value: Any) -> str | None:
    return None if value is None or is_function(value) else str(value)


def _size(value: Any) -> int | None:
    return None if value is None or is_function(value) else parse_size(value)


def sw_image_data(
    raw: dict[str, Any] | None, node: NodeTemplate
) -> model.SwImageData | None:
    """``sw_image_data`` plus the file of the node's SwImage artifact."""
    if not raw:
        return None
    checksum = raw["checksum"]
    artifact = next(
        (a for a in node.artifacts.values() if a.type == SW_IMAGE), None
    )
    return model.SwImageData(
        name=raw["name"],
        version=str(raw["version"]),
        checksum=model.Checksum(checksum["algorithm"], checksum["hash"]),
        container_format=raw["container_format"],
        disk_format=raw["disk_format"],
        min_disk=_size(raw["min_disk"]) or 0,
        size=_size(raw["size"]) or 0,
        min_ram=_size(raw.get("min_ram")),
        operating_system=raw.get("operating_system"),
        supported_virtualisation_environments=tuple(
            raw.get("supported_virtualisation_environments") or ()
        ),
        file=artifact.file if artifact else None,
        uri=artifact.uri if artifact else None,
    )


def _virtual_compute(props: dict[str, Any] | None) -> model.VirtualCompute:
    assert props is not None
    cpu = props["virtual_cpu"]
    return model.VirtualCompute(
        virtual_cpu=model.VirtualCpu(
            num_virtual_cpu=cpu["num_virtual_cpu"],
            cpu_architecture=cpu.get("cpu_architecture"),
            virtual_cpu_clock=cpu.get("virtual_cpu_clock"),
        ),
        virtual_memory=model.VirtualMemory(
            virtual_mem_size=parse_size(
                props["virtual_memory"]["virtual_mem_size"]
            )
        ),
        virtual_local_storage=tuple(
            parse_size(item["size_of_storage"])
            for item in props.get("virtual_local_storage") or ()
        ),
        requested_additional_capabilities=dict(
            props.get("requested_additional_capabilities") or {}
        ),
        compute_requirements=dict(props.get("compute_requirements") or {}),
    )


def build_nodes(
    topology: Topology, registry: TypeRegistry
) -> tuple[
    dict[str, model.Vdu],
    dict[str, model.VirtualBlockStorage],
    dict[str, model.VduCp],
    dict[str, model.VnfVirtualLink],
]:
    """VDUs (without policy data), storages, CPs and VLs of a flavour."""

    def kind(node: NodeTemplate, base: str) -> bool:
        return registry.derives_from("node_types", node.type, base)

    nodes = topology.nodes
    cps = {
        n.name: _cp(n, topology.file)
        for n in nodes.values()
        if kind(n, VDU_CP)
    }
    storages = {
        n.name: _storage(n) for n in nodes.values() if kind(n, BLOCK_STORAGE)
    }
    links = {n.name: _link(n) for n in nodes.values() if kind(n, VIRTUAL_LINK)}
    vdus = {}
    for node in nodes.values():
        if not kind(node, COMPUTE):
            continue
        vdus[node.name] = _vdu(node, topology.file, cps)
    return vdus, storages, cps, links


def _vdu(
    node: NodeTemplate, path: str, cps: dict[str, model.VduCp]
) -> model.Vdu:
    props = node.properties
    profile = props["vdu_profile"]
    low = profile["min_number_of_instances"]
    high = profile["max_number_of_instances"]
    if low > high:
        raise InvalidVnfd(
            f"vdu_profile.min_number_of_instances ({low}) is greater than "
            f"max_number_of_instances ({high})",
            file=path,
            node=node.name,
        )
    compute = node.capabilities.get("virtual_compute")
    bound = sorted(
        (cp for cp in cps.values() if cp.virtual_binding == node.name),
        key=lambda cp: (cp.order is None, cp.order or 0, cp.node_name),
    )
    return model.Vdu(
        node_name=node.name,
        name=props["name"],
        description=props.get("description") or "",
        vdu_profile=model.VduProfile(low, high),
        virtual_compute=_virtual_compute(compute) if compute else None,
        sw_image_data=sw_image_data(props.get("sw_image_data"), node),
        virtual_storages=tuple(
            target
            for req, target in node.requirements
            if req == "virtual_storage"
        ),
        cps=tuple(cp.node_name for cp in bound),
        boot_order=tuple(props.get("boot_order") or ()),
        nfvi_constraints=tuple(props.get("nfvi_constraints") or ()),
        boot_data=_str(props.get("boot_data")),
        artifacts=dict(node.artifacts),
    )


def _storage(node: NodeTemplate) -> model.VirtualBlockStorage:
    data = node.properties["virtual_block_storage_data"]
    return model.VirtualBlockStorage(
        node_name=node.name,
        size_of_storage=parse_size(data["size_of_storage"]),
        rdma_enabled=bool(data.get("rdma_enabled", False)),
        vdu_storage_requirements=dict(
            data.get("vdu_storage_requirements") or {}
        ),
        sw_image_data=sw_image_data(
            node.properties.get("sw_image_data"), node
        ),
    )


def _cp(node: NodeTemplate, path: str) -> model.VduCp:
    props = node.properties
    bindings = [t for r, t in node.requirements if r == "virtual_binding"]
    links = [t for r, t in node.requirements if r == "virtual_link"]
    if len(bindings) != 1:
        raise InvalidVnfd(
            f"a VduCp needs exactly one virtual_binding requirement "
            f"(found {len(bindings)})",
            file=path,
            node=node.name,
        )
    if len(links) > 1:
        raise InvalidVnfd(
            "a VduCp has at most one virtual_link requirement",
            file=path,
            node=node.name,
        )
    return model.VduCp(
        node_name=node.name,
        layer_protocols=tuple(props["layer_protocols"]),
        virtual_binding=bindings[0],
        virtual_link=links[0] if links else None,
        role=props.get("role"),
        description=props.get("description"),
        order=props.get("order"),
        vnic_type=props.get("vnic_type"),
        bitrate_requirement=props.get("bitrate_requirement"),
        protocol=tuple(props.get("protocol") or ()),
    )


def _link(node: NodeTemplate) -> model.VnfVirtualLink:
    props = node.properties
    connectivity = props["connectivity_type"]
    return model.VnfVirtualLink(
        node_name=node.name,
        layer_protocols=tuple(connectivity["layer_protocols"]),
        flow_pattern=connectivity.get("flow_pattern"),
        description=props.get("description"),
        vl_profile=dict(props.get("vl_profile") or {}),
        test_access=tuple(props.get("test_access") or ()),
    )
