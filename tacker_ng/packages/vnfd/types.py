"""TOSCA type registry: every type a VNFD can use, and checks against it.

Types come from the bundled definitions and the package's own files (e.g.
the provider's VNF node type). Values are checked against property
definitions: required properties, primitive types, data types (recursively)
and constraints, so an invalid VNFD is refused with the exact property path.
"""

from typing import Any

from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.loader import DefinitionsFile
from tacker_ng.packages.vnfd.typeshape import check_type
from tacker_ng.packages.vnfd.values import (
    ValueProblem,
    as_definition,
    check_constraint,
    check_primitive,
    is_function,
    is_primitive,
    type_field,
)

SECTIONS = (
    "data_types",
    "node_types",
    "capability_types",
    "relationship_types",
    "interface_types",
    "artifact_types",
    "group_types",
    "policy_types",
)


class TypeRegistry:
    """Every type visible to a VNFD, by section, with its defining file."""

    def __init__(self) -> None:
        self._types: dict[str, dict[str, tuple[str, dict]]] = {
            section: {} for section in SECTIONS
        }

    @classmethod
    def build(cls, files: list[DefinitionsFile]) -> "TypeRegistry":
        """Collect and cross-check the types of the loaded files."""
        registry = cls()
        for definitions in files:
            for section in SECTIONS:
                entries = definitions.data.get(section) or {}
                if not isinstance(entries, dict):
                    raise InvalidVnfd(
                        f"{section} is not a mapping", file=definitions.path
                    )
                for name, body in entries.items():
                    registry._add(section, name, body, definitions.path)
        registry._check_derivations()
        registry._check_references()
        return registry

    def _add(self, section: str, name: Any, body: Any, path: str) -> None:
        if not isinstance(name, str):
            raise InvalidVnfd(f"type name {name!r} is not a string", file=path)
        body = check_type(section, name, body, path)
        known = self._types[section].get(name)
        if known and known[0] != path:
            raise InvalidVnfd(
                f"type is already defined in {known[0]}", file=path, node=name
            )
        self._types[section][name] = (path, body)

    def _check_derivations(self) -> None:
        for section, types in self._types.items():
            for name, (path, body) in types.items():
                seen = [name]
                parent = body.get("derived_from")
                while parent is not None:
                    if parent not in types:
                        raise InvalidVnfd(
                            f"derived_from {parent} is not a known "
                            f"{section[:-1].replace('_', ' ')}",
                            file=path,
                            node=name,
                        )
                    if parent in seen:
                        raise InvalidVnfd(
                            "derived_from cycle: " + " -> ".join(seen),
                            file=path,
                            node=name,
                        )
                    seen.append(parent)
                    parent = types[parent][1].get("derived_from")

    def _check_references(self) -> None:
        """Types named by definitions exist; defaults fit their property."""
        refs = (
            ("capabilities", "capability_types"),
            ("interfaces", "interface_types"),
        )
        for section, types in self._types.items():
            for name, (path, body) in types.items():
                try:
                    for key, target in refs:
                        for item, value in (body.get(key) or {}).items():
                            self._need_type(
                                target, type_field(value), f"{key}.{item}"
                            )
                    merged = self.merged(section, name, "properties")
                    for prop, value in merged.items():
                        self._check_definition(prop, value)
                except ValueProblem as exc:
                    raise InvalidVnfd(str(exc), file=path, node=name) from None

    def _need_type(self, section: str, name: str | None, where: str) -> None:
        if name is not None and not self.has(section, name):
            kind = section[:-6].replace("_", " ")
            raise ValueProblem(where, f"unknown {kind} type {name!r}")

    def _check_definition(self, prop: str, value: Any) -> None:
        where = f"properties.{prop}"
        definition = {"type": value} if isinstance(value, str) else value
        if not definition.get("type"):
            raise ValueProblem(where, "property has no type")
        schema = definition.get("entry_schema")
        for suffix, type_name in (
            ("", definition["type"]),
            (".entry_schema", None if schema is None else type_field(schema)),
        ):
            if type_name is not None and not is_primitive(type_name):
                self._need_type("data_types", type_name, where + suffix)
        if definition.get("default") is not None:
            self.check_value(
                definition["default"], definition, f"{where}.default"
            )

    def has(self, section: str, name: Any) -> bool:
        return isinstance(name, str) and name in self._types[section]

    def origin(self, section: str, name: str) -> str:
        """File defining the type."""
        return self._types[section][name][0]

    def chain(self, section: str, name: str) -> list[dict]:
        """Definitions from the root type down to ``name``."""
        chain = []
        current: str | None = name
        while current is not None:
            body = self._types[section][current][1]
            chain.append(body)
            current = body.get("derived_from")
        return chain[::-1]

    def derives_from(self, section: str, name: str, base: str) -> bool:
        """True when ``name`` is ``base`` or derives from it."""
        current: str | None = name
        while current is not None:
            if current == base:
                return True
            if current not in self._types[section]:
                return False
            current = self._types[section][current][1].get("derived_from")
        return False

    def merged(self, section: str, name: str, key: str) -> dict[str, Any]:
        """A map entry (e.g. ``properties``) merged down the derivation."""
        result: dict[str, Any] = {}
        for body in self.chain(section, name):
            entries = body.get(key) or {}
            if isinstance(entries, list):  # requirements: list of maps
                entries = {k: v for item in entries for k, v in item.items()}
            for item, value in entries.items():
                # A derived type refines an inherited definition: keep the
                # parent's keys (e.g. an interface's type) unless redefined.
                parent = result.get(item)
                if isinstance(parent, dict) and isinstance(value, dict):
                    result[item] = {**parent, **value}
                else:
                    result[item] = value
        return result

    def inherited(self, section: str, name: str, key: str) -> Any:
        """The most derived value of a plain key (``targets``/``members``)."""
        for body in reversed(self.chain(section, name)):
            if key in body:
                return body[key]
        return None

    def operations(self, interface_type: str) -> set[str]:
        """Operation names of an interface type (TOSCA 1.2 and 1.3 forms)."""
        names: set[str] = set()
        meta = {"derived_from", "description", "version", "metadata"}
        meta |= {"inputs", "notifications", "operations"}
        for body in self.chain("interface_types", interface_type):
            names.update((body.get("operations") or {}).keys())
            names.update(k for k in body if k not in meta)
        return names

    # -- value checks -----------------------------------------------------

    def check_properties(
        self, values: Any, definitions: dict[str, Any], where: str
    ) -> None:
        """Check a properties map against property definitions."""
        if values is None:
            values = {}
        if not isinstance(values, dict):
            raise ValueProblem(where, "must be a mapping")
        for name in values:
            if name not in definitions:
                raise ValueProblem(f"{where}.{name}", "unknown property")
        for name, written in definitions.items():
            definition = as_definition(written)
            path = f"{where}.{name}"
            if name not in values or values[name] is None:
                if definition.get("required", True) and (
                    "default" not in definition
                ):
                    raise ValueProblem(path, "required property is missing")
                continue
            self.check_value(values[name], definition, path)

    def check_value(self, value: Any, definition: Any, where: str) -> None:
        """Check one value against a property/entry-schema definition."""
        if isinstance(definition, str):
            definition = {"type": definition}
        if is_function(value):
            return
        type_name = definition.get("type", "string")
        self._check_type(value, type_name, definition, where)
        for constraint in definition.get("constraints") or []:
            check_constraint(value, constraint, type_name, where)

    def _check_type(
        self, value: Any, type_name: str, definition: dict, where: str
    ) -> None:
        entry = definition.get("entry_schema")
        if type_name in ("list", "map"):
            expected = list if type_name == "list" else dict
            if not isinstance(value, expected):
                raise ValueProblem(where, f"must be a {type_name}")
            if entry is not None:
                items = (
                    enumerate(value)
                    if isinstance(value, list)
                    else value.items()
                )
                for key, item in items:
                    self.check_value(item, entry, f"{where}[{key}]")
            return
        if check_primitive(value, type_name, where):
            return
        if not self.has("data_types", type_name):
            raise ValueProblem(where, f"unknown data type {type_name}")
        props = self.merged("data_types", type_name, "properties")
        if not isinstance(value, dict):
            raise ValueProblem(where, f"must be a mapping ({type_name})")
        if props:
            self.check_properties(value, props, where)
