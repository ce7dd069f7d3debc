"""``substitution_mappings`` requirements of a flavour, checked.

Each maps a requirement of the VNF node type to ``[node template,
requirement]`` of the flavour's topology. Nothing is deployed from them,
which is why the ``tacker`` compatibility level can accept Tacker's
numbered names (``virtual_link_external1_1``) and drop mappings to a node
the flavour lacks, each with a warning.
"""

from tacker_ng.packages import compat as _compat
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.topology import Topology
from tacker_ng.packages.vnfd.types import TypeRegistry


def substitution_requirements(
    registry: TypeRegistry,
    topology: Topology,
    node_type: str,
    compat: _compat.Compatibility,
) -> dict[str, tuple[str, str]]:
    """requirement name -> (node template, requirement) of ``topology``."""
    subst = topology.substitution_mappings or {}
    raw = subst.get("requirements") or {}
    if isinstance(raw, list) and all(
        isinstance(item, dict) for item in raw
    ):  # list of single-key maps
        raw = {k: v for item in raw for k, v in item.items()}
    if not isinstance(raw, dict):
        raise InvalidVnfd(
            "substitution_mappings requirements is not a mapping",
            file=topology.file,
        )
    known = registry.merged("node_types", node_type, "requirements")
    result = {}
    for name, mapping in raw.items():
        where = f"substitution_mappings requirement {name}"
        if name not in known:
            error = InvalidVnfd(
                f"{where} is not a requirement of {node_type}",
                file=topology.file,
            )
            base = _compat.declared_base(name, known)
            if base is None:
                raise error
            compat.tolerate(
                error,
                f"{topology.file}: {where} is not declared by "
                f"{node_type}; accepted as one of its {base} links "
                "(Tacker's numbered-suffix convention)",
            )
        shaped = (
            isinstance(mapping, list)
            and len(mapping) == 2
            and all(isinstance(part, str) for part in mapping)
        )
        if not shaped or mapping[0] not in topology.nodes:
            error = InvalidVnfd(
                f"{where} must be [node template, requirement] of this "
                f"topology, not {mapping!r}",
                file=topology.file,
            )
            if not shaped:
                raise error
            # Nothing is deployed from a mapping; one to a node the
            # flavour lacks (left over from a copied flavour) is dropped.
            compat.tolerate(
                error,
                f"{topology.file}: {where} maps to {mapping[0]}, which "
                "is not a node of this flavour; mapping ignored",
            )
            continue
        node = topology.nodes[mapping[0]]
        node_reqs = registry.merged("node_types", node.type, "requirements")
        if mapping[1] not in node_reqs:
            raise InvalidVnfd(
                f"{where}: {mapping[0]} has no requirement {mapping[1]}",
                file=topology.file,
                node=mapping[0],
            )
        result[name] = (mapping[0], mapping[1])
    return result
