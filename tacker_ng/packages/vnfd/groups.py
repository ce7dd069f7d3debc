"""Checks of a topology's groups and policies against their types.

Known type, property values, members/targets that exist and whose types
the group or policy type allows (e.g. an AffinityRule may target a VDU, a
virtual link or a PlacementGroup, but not a connection point).
"""

import dataclasses
from typing import Any

from tacker_ng.packages.compat import Compatibility
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.types import TypeRegistry
from tacker_ng.packages.vnfd.values import ValueProblem


@dataclasses.dataclass
class GroupOrPolicy:
    name: str
    type: str
    properties: dict[str, Any]
    #: Group members or policy targets.
    targets: list[str]


class GroupPolicyChecker:
    """Checks groups and policies; nodes are ``{name: node type}``."""

    def __init__(
        self, registry: TypeRegistry, compat: Compatibility | None = None
    ) -> None:
        self.registry = registry
        self.compat = compat or Compatibility()

    def group(
        self, path: str, name: str, body: Any, nodes: dict[str, Any]
    ) -> GroupOrPolicy:
        item = self._typed(path, name, body, "group_types", "members")
        allowed = self.registry.inherited("group_types", item.type, "members")
        for member in item.targets:
            if member not in nodes:
                raise InvalidVnfd(
                    f"member {member!r} is not a node template",
                    file=path,
                    node=name,
                )
            self._check_allowed(
                allowed,
                "node_types",
                nodes[member].type,
                what=f"member {member}",
                path=path,
                name=name,
            )
        return item

    def policy(
        self,
        path: str,
        name: str,
        body: Any,
        nodes: dict[str, Any],
        groups: dict[str, GroupOrPolicy],
    ) -> GroupOrPolicy:
        item = self._typed(path, name, body, "policy_types", "targets")
        allowed = self.registry.inherited("policy_types", item.type, "targets")
        for target in item.targets:
            if target in nodes:
                section, type_name = "node_types", nodes[target].type
            elif target in groups:
                section, type_name = "group_types", groups[target].type
            else:
                raise InvalidVnfd(
                    f"target {target!r} is neither a node template nor a "
                    "group",
                    file=path,
                    node=name,
                )
            self._check_allowed(
                allowed,
                section,
                type_name,
                what=f"target {target}",
                path=path,
                name=name,
            )
        return item

    def _typed(
        self, path: str, name: str, body: Any, section: str, list_key: str
    ) -> GroupOrPolicy:
        kind = section[:-6]
        if not isinstance(body, dict):
            raise InvalidVnfd(f"{kind} is not a mapping", file=path, node=name)
        type_name = body.get("type")
        if not isinstance(type_name, str) or not self.registry.has(
            section, type_name
        ):
            raise InvalidVnfd(
                f"unknown {kind} type {type_name!r}", file=path, node=name
            )
        targets = body.get(list_key) or []
        if not isinstance(targets, list) or not all(
            isinstance(t, str) for t in targets
        ):
            raise InvalidVnfd(
                f"{list_key} is not a list of names", file=path, node=name
            )
        properties = body.get("properties") or {}
        definitions = self.compat.relax_descriptive(
            properties,
            self.registry.merged(section, type_name, "properties"),
            f"{path}, {kind} {name}",
        )
        try:
            self.registry.check_properties(
                properties, definitions, "properties"
            )
        except ValueProblem as exc:
            raise InvalidVnfd(str(exc), file=path, node=name) from None
        return GroupOrPolicy(name, type_name, properties, targets)

    def _check_allowed(
        self,
        allowed: list[str] | None,
        section: str,
        type_name: str,
        *,
        what: str,
        path: str,
        name: str,
    ) -> None:
        if not allowed:
            return
        if not any(
            self.registry.has(section, base)
            and self.registry.derives_from(section, type_name, base)
            for base in allowed
        ):
            raise InvalidVnfd(
                f"{what} is a {type_name}; allowed: {', '.join(allowed)}",
                file=path,
                node=name,
            )


def policy_items(raw: Any, path: str) -> list[tuple[str, Any]]:
    """Policies as (name, body): TOSCA's list of single-key maps or a map."""
    if raw is None:
        return []
    if isinstance(raw, dict):
        return list(raw.items())
    if not isinstance(raw, list):
        raise InvalidVnfd("policies is not a list", file=path)
    items: list[tuple[str, Any]] = []
    for item in raw:
        if not isinstance(item, dict) or len(item) != 1:
            raise InvalidVnfd(
                f"policy {item!r} is not a single-key mapping", file=path
            )
        items.extend(item.items())
    names = [name for name, _ in items]
    for name in names:
        if names.count(name) > 1:
            raise InvalidVnfd("duplicate policy name", file=path, node=name)
    return items
