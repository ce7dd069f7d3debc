"""Generic checks of one ``topology_template``: nodes, groups, policies.

Every node template, group and policy is checked against its type: known
type, property values, capabilities, requirement targets (existence and
type), artifacts (files present in the package), interface operations,
policy targets and group members. SOL001 meaning is added on top of this
by the model builders.
"""

import dataclasses
import posixpath
import re
from typing import Any

from tacker_ng.objects.vnfd import Artifact
from tacker_ng.packages.archive import unsafe_path_reason
from tacker_ng.packages.compat import Compatibility
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.groups import (
    GroupOrPolicy,
    GroupPolicyChecker,
    policy_items,
)
from tacker_ng.packages.vnfd.interfaces import node_interfaces, type_of
from tacker_ng.packages.vnfd.loader import DefinitionsFile
from tacker_ng.packages.vnfd.types import TypeRegistry
from tacker_ng.packages.vnfd.values import ValueProblem, as_definition

VNF_TYPE = "tosca.nodes.nfv.VNF"
_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


@dataclasses.dataclass
class NodeTemplate:
    """A checked node template."""

    name: str
    type: str
    #: Properties as written plus the type's defaults.
    properties: dict[str, Any]
    #: (requirement name, target node name) in order of appearance.
    requirements: list[tuple[str, str]]
    #: capability name -> properties.
    capabilities: dict[str, dict[str, Any]]
    artifacts: dict[str, Artifact]
    #: interface name -> operation -> {"implementation", "inputs"}.
    interfaces: dict[str, dict[str, dict[str, Any]]]


@dataclasses.dataclass
class Topology:
    """A checked ``topology_template`` of one definitions file."""

    file: str
    nodes: dict[str, NodeTemplate]
    groups: dict[str, GroupOrPolicy]
    policies: list[GroupOrPolicy]
    substitution_mappings: dict[str, Any] | None


class TopologyChecker:
    """Checks topology templates against a :class:`TypeRegistry`."""

    def __init__(
        self,
        registry: TypeRegistry,
        files: set[str],
        compat: Compatibility | None = None,
    ) -> None:
        self.registry = registry
        self.files = files
        self.compat = compat or Compatibility()
        self.groups = GroupPolicyChecker(registry, self.compat)

    def check(self, definitions: DefinitionsFile) -> Topology | None:
        """The checked topology of ``definitions``, or None if it has none."""
        raw = definitions.data.get("topology_template")
        if raw is None:
            return None
        path = definitions.path
        if not isinstance(raw, dict):
            raise InvalidVnfd("topology_template is not a mapping", file=path)
        raw_nodes = _mapping(raw.get("node_templates"), path, "node_templates")
        raw_groups = _mapping(raw.get("groups"), path, "groups")
        for name in raw_groups:
            if name in raw_nodes:
                raise InvalidVnfd(
                    "name is used by a node template and a group",
                    file=path,
                    node=name,
                )
        nodes = {
            name: self._node(path, name, body, raw_nodes)
            for name, body in raw_nodes.items()
        }
        groups = {
            name: self.groups.group(path, name, body, nodes)
            for name, body in raw_groups.items()
        }
        policies = [
            self.groups.policy(path, name, body, nodes, groups)
            for name, body in policy_items(raw.get("policies"), path)
        ]
        subst = raw.get("substitution_mappings")
        if subst is not None and not isinstance(subst, dict):
            raise InvalidVnfd(
                "substitution_mappings is not a mapping", file=path
            )
        return Topology(path, nodes, groups, policies, subst)

    # -- node templates ---------------------------------------------------

    def _node(
        self, path: str, name: str, body: Any, raw_nodes: dict[str, Any]
    ) -> NodeTemplate:
        reg = self.registry

        def fail(problem: str) -> InvalidVnfd:
            return InvalidVnfd(problem, file=path, node=name)

        if not isinstance(body, dict):
            raise fail("node template is not a mapping")
        type_name = body.get("type")
        if not isinstance(type_name, str) or not reg.has(
            "node_types", type_name
        ):
            raise fail(f"unknown node type {type_name!r}")
        definitions = reg.merged("node_types", type_name, "properties")
        values = body.get("properties") or {}
        try:
            if reg.derives_from("node_types", type_name, VNF_TYPE):
                # Required VNF properties are checked per flavour, after
                # merging the top-level and flavour VNF node templates.
                optional = {
                    k: {**as_definition(v), "required": False}
                    for k, v in definitions.items()
                }
                reg.check_properties(values, optional, "properties")
            else:
                reg.check_properties(
                    values,
                    self.compat.relax_descriptive(
                        values, definitions, f"{path}, node {name}"
                    ),
                    "properties",
                )
        except ValueProblem as exc:
            raise fail(str(exc)) from None
        properties = {
            key: definition["default"]
            for key, definition in definitions.items()
            if isinstance(definition, dict)
            and definition.get("default") is not None
        }
        properties.update({k: v for k, v in values.items() if v is not None})
        return NodeTemplate(
            name=name,
            type=type_name,
            properties=properties,
            requirements=self._requirements(path, name, body, raw_nodes),
            capabilities=self._capabilities(path, name, body),
            artifacts=self._artifacts(path, name, body),
            interfaces=node_interfaces(reg, path, name, body),
        )

    def _capabilities(
        self, path: str, name: str, body: dict
    ) -> dict[str, dict[str, Any]]:
        reg = self.registry
        defs = reg.merged("node_types", body["type"], "capabilities")
        result: dict[str, dict[str, Any]] = {}
        for cap, value in _mapping(
            body.get("capabilities"), path, "capabilities", name
        ).items():
            if cap not in defs:
                raise InvalidVnfd(
                    f"unknown capability {cap} for type {body['type']}",
                    file=path,
                    node=name,
                )
            cap_type = type_of(defs[cap])
            if value is not None and not isinstance(value, dict):
                raise InvalidVnfd(
                    f"capability {cap} is not a mapping", file=path, node=name
                )
            props = (value or {}).get("properties") or {}
            try:
                reg.check_properties(
                    props,
                    reg.merged("capability_types", cap_type, "properties"),
                    f"capabilities.{cap}.properties",
                )
            except ValueProblem as exc:
                raise InvalidVnfd(str(exc), file=path, node=name) from None
            result[cap] = props
        return result

    def _requirements(
        self, path: str, name: str, body: dict, raw_nodes: dict[str, Any]
    ) -> list[tuple[str, str]]:
        reg = self.registry
        type_name = body["type"]
        defs = reg.merged("node_types", type_name, "requirements")
        raw = body.get("requirements") or []
        if not isinstance(raw, list):
            raise InvalidVnfd(
                "requirements is not a list", file=path, node=name
            )
        result = []
        for item in raw:
            if not isinstance(item, dict) or len(item) != 1:
                raise InvalidVnfd(
                    f"requirement {item!r} is not a single-key mapping",
                    file=path,
                    node=name,
                )
            ((req, target),) = item.items()
            if req not in defs:
                raise InvalidVnfd(
                    f"unknown requirement {req} for type {type_name}",
                    file=path,
                    node=name,
                )
            if isinstance(target, dict):
                target = target.get("node")
            if target is None:
                continue
            where = f"requirement {req}"
            if not isinstance(target, str):
                raise InvalidVnfd(
                    f"{where} target {target!r} is not a node template name",
                    file=path,
                    node=name,
                )
            if target not in raw_nodes:
                raise InvalidVnfd(
                    f"{where} refers to unknown node template {target!r}",
                    file=path,
                    node=name,
                )
            target_body = raw_nodes[target]
            target_type = (
                target_body.get("type")
                if isinstance(target_body, dict)
                else None
            )
            if not isinstance(target_type, str) or not reg.has(
                "node_types", target_type
            ):
                raise InvalidVnfd(
                    f"unknown node type {target_type!r}",
                    file=path,
                    node=target,
                )
            self._check_requirement_target(
                defs[req],
                target=target,
                target_type=target_type,
                where=where,
                path=path,
                name=name,
            )
            result.append((req, target))
        return result

    def _check_requirement_target(
        self,
        definition: Any,
        *,
        target: str,
        target_type: str,
        where: str,
        path: str,
        name: str,
    ) -> None:
        reg = self.registry
        definition = (
            {"capability": definition}
            if isinstance(definition, str)
            else definition or {}
        )
        node_type = definition.get("node")
        if node_type and not reg.derives_from(
            "node_types", target_type, node_type
        ):
            raise InvalidVnfd(
                f"{where} needs a {node_type} but {target} is a {target_type}",
                file=path,
                node=name,
            )
        capability = definition.get("capability")
        if capability:
            caps = reg.merged("node_types", target_type, "capabilities")
            if not any(
                reg.derives_from("capability_types", type_of(c), capability)
                for c in caps.values()
            ):
                raise InvalidVnfd(
                    f"{where} needs capability {capability} but {target} "
                    f"({target_type}) does not offer it",
                    file=path,
                    node=name,
                )

    def _artifacts(
        self, path: str, name: str, body: dict
    ) -> dict[str, Artifact]:
        result = {}
        raw = _mapping(body.get("artifacts"), path, "artifacts", name)
        for art_name, written in raw.items():
            value = written
            if isinstance(written, str):
                value = {"file": written, "type": "tosca.artifacts.File"}
            if not isinstance(value, dict) or not isinstance(
                value.get("file"), str
            ):
                raise InvalidVnfd(
                    f"artifact {art_name} has no file", file=path, node=name
                )
            art_type = value.get("type")
            if not isinstance(art_type, str) or not self.registry.has(
                "artifact_types", art_type
            ):
                raise InvalidVnfd(
                    f"artifact {art_name} has unknown type {art_type!r}",
                    file=path,
                    node=name,
                )
            ref = value["file"]
            uri = ref if _URI_RE.match(ref) else None
            result[art_name] = Artifact(
                name=art_name,
                type=art_type,
                file=None if uri else self.resolve_file(path, name, ref),
                uri=uri,
                description=value.get("description"),
            )
        return result

    def resolve_file(self, path: str, name: str, ref: str) -> str:
        """Package path of ``ref``, relative to ``path`` or package root."""
        if ref.startswith("/") or "\\" in ref:
            raise InvalidVnfd(
                f"file {ref} is outside the package", file=path, node=name
            )
        for base in (posixpath.dirname(path), ""):
            candidate = posixpath.normpath(posixpath.join(base, ref))
            if candidate.startswith("../") or unsafe_path_reason(candidate):
                continue
            if candidate in self.files:
                return candidate
        raise InvalidVnfd(
            f"file {ref} is not in the package", file=path, node=name
        )


def _mapping(
    value: Any, path: str, what: str, node: str | None = None
) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidVnfd(f"{what} is not a mapping", file=path, node=node)
    return value
