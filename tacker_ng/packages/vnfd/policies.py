"""SOL001 policies and groups of a flavour: scaling, levels, placement.

Cross-references are checked here: deltas name a declared aspect and a
declared step, levels exist, scale levels stay within max_scale_level,
instance counts within max_number_of_instances, placement groups expand to
VDUs/VLs. Errors name the file and the policy.
"""

import dataclasses
from typing import Any

from tacker_ng.objects import vnfd as model
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.vnfd.groups import GroupOrPolicy
from tacker_ng.packages.vnfd.topology import Topology

_NFV = "tosca.policies.nfv."
SCALING_ASPECTS = _NFV + "ScalingAspects"
VDU_DELTAS = _NFV + "VduScalingAspectDeltas"
VDU_INITIAL_DELTA = _NFV + "VduInitialDelta"
INSTANTIATION_LEVELS = _NFV + "InstantiationLevels"
VDU_LEVELS = _NFV + "VduInstantiationLevels"
PLACEMENT_GROUP = "tosca.groups.nfv.PlacementGroup"


@dataclasses.dataclass
class FlavourPolicies:
    """Everything the policies and groups of one flavour say."""

    vdus: dict[str, model.Vdu]
    scaling_aspects: dict[str, model.ScalingAspect]
    instantiation_levels: dict[str, model.InstantiationLevel]
    default_instantiation_level_id: str | None
    placement_groups: dict[str, model.PlacementGroup]
    affinity_rules: tuple[model.PlacementRule, ...]
    other_policies: tuple[model.Policy, ...]


class _Builder:
    def __init__(
        self,
        topology: Topology,
        is_a: Any,
        vdus: dict[str, model.Vdu],
        links: dict[str, model.VnfVirtualLink],
    ) -> None:
        self.topology = topology
        self.is_a = is_a
        self.vdus = dict(vdus)
        self.links = links
        self.by_type: dict[str, list[GroupOrPolicy]] = {}
        self.aspect_policy: dict[str, str] = {}
        for policy in topology.policies:
            self.by_type.setdefault(self._kind(policy.type), []).append(policy)

    def _kind(self, type_name: str) -> str:
        for base in (
            SCALING_ASPECTS,
            VDU_DELTAS,
            VDU_INITIAL_DELTA,
            INSTANTIATION_LEVELS,
            VDU_LEVELS,
            model.AFFINITY,
            model.ANTI_AFFINITY,
        ):
            if self.is_a("policy_types", type_name, base):
                return base
        return "other"

    def fail(self, policy: str, problem: str) -> InvalidVnfd:
        return InvalidVnfd(problem, file=self.topology.file, node=policy)

    def aspects(self) -> dict[str, model.ScalingAspect]:
        result: dict[str, model.ScalingAspect] = {}
        for policy in self.by_type.get(SCALING_ASPECTS, []):
            for aspect_id, raw in policy.properties["aspects"].items():
                if aspect_id in result:
                    raise self.fail(
                        policy.name, f"aspect {aspect_id} is declared twice"
                    )
                self.aspect_policy[aspect_id] = policy.name
                result[aspect_id] = model.ScalingAspect(
                    aspect_id=aspect_id,
                    name=raw["name"],
                    description=raw["description"],
                    max_scale_level=raw["max_scale_level"],
                    step_deltas=tuple(raw.get("step_deltas") or ()),
                )
        return result

    def _per_vdu(self, policy: GroupOrPolicy, problem: str) -> list[str]:
        if not policy.targets:
            raise self.fail(policy.name, "policy has no targets")
        for target in policy.targets:
            if target not in self.vdus:
                raise self.fail(policy.name, f"target {target} {problem}")
        return policy.targets

    def deltas(self, aspects: dict[str, model.ScalingAspect]) -> None:
        for policy in self.by_type.get(VDU_DELTAS, []):
            aspect_id = policy.properties["aspect"]
            if aspect_id not in aspects:
                raise self.fail(
                    policy.name,
                    f"aspect {aspect_id!r} is not a scaling aspect",
                )
            steps = aspects[aspect_id].step_deltas
            deltas = policy.properties["deltas"]
            for delta_id in deltas:
                if delta_id not in steps:
                    raise self.fail(
                        policy.name,
                        f"delta {delta_id!r} is not a step_delta of aspect "
                        f"{aspect_id}",
                    )
            for vdu in self._per_vdu(policy, "is not a VDU"):
                known = self.vdus[vdu].aspect_deltas
                if aspect_id in known:
                    raise self.fail(
                        policy.name,
                        f"VDU {vdu} has two delta policies for {aspect_id}",
                    )
                counts = {
                    k: v["number_of_instances"] for k, v in deltas.items()
                }
                self._update(vdu, aspect_deltas={**known, aspect_id: counts})
        with_deltas = {
            p.properties["aspect"] for p in self.by_type.get(VDU_DELTAS, [])
        }
        for aspect in aspects.values():
            if aspect.aspect_id not in with_deltas:
                continue
            for step in aspect.step_deltas:
                if not any(
                    step in vdu.aspect_deltas.get(aspect.aspect_id, {})
                    for vdu in self.vdus.values()
                ):
                    raise self.fail(
                        self.aspect_policy[aspect.aspect_id],
                        f"step_delta {step!r} of aspect {aspect.aspect_id} "
                        "has no VduScalingAspectDeltas",
                    )

    def initial_deltas(self) -> None:
        for policy in self.by_type.get(VDU_INITIAL_DELTA, []):
            count = policy.properties["initial_delta"]["number_of_instances"]
            for vdu in self._per_vdu(policy, "is not a VDU"):
                if self.vdus[vdu].initial_delta is not None:
                    raise self.fail(
                        policy.name, f"VDU {vdu} has two VduInitialDelta"
                    )
                self._check_max(policy.name, vdu, count, "initial_delta")
                self._update(vdu, initial_delta=count)

    def levels(
        self, aspects: dict[str, model.ScalingAspect]
    ) -> tuple[dict[str, model.InstantiationLevel], str | None]:
        policies = self.by_type.get(INSTANTIATION_LEVELS, [])
        if len(policies) > 1:
            raise self.fail(
                policies[1].name, "more than one InstantiationLevels policy"
            )
        levels: dict[str, model.InstantiationLevel] = {}
        default = None
        if policies:
            policy = policies[0]
            for level_id, raw in policy.properties["levels"].items():
                scale_info = {}
                for aspect_id, info in (raw.get("scale_info") or {}).items():
                    if aspect_id not in aspects:
                        raise self.fail(
                            policy.name,
                            f"level {level_id}: unknown aspect {aspect_id!r}",
                        )
                    level = info["scale_level"]
                    if level > aspects[aspect_id].max_scale_level:
                        raise self.fail(
                            policy.name,
                            f"level {level_id}: scale_level {level} of "
                            f"{aspect_id} exceeds max_scale_level "
                            f"{aspects[aspect_id].max_scale_level}",
                        )
                    scale_info[aspect_id] = level
                levels[level_id] = model.InstantiationLevel(
                    level_id, raw["description"], scale_info
                )
            default = policy.properties.get("default_level")
            if default is None and len(levels) > 1:
                raise self.fail(
                    policy.name,
                    "default_level is required with several levels",
                )
            if default is None:
                default = next(iter(levels))
            if default not in levels:
                raise self.fail(
                    policy.name, f"default_level {default!r} is not a level"
                )
        for policy in self.by_type.get(VDU_LEVELS, []):
            for vdu in self._per_vdu(policy, "is not a VDU"):
                counts = {}
                for level_id, raw in policy.properties["levels"].items():
                    if level_id not in levels:
                        raise self.fail(
                            policy.name,
                            f"level {level_id!r} is not an instantiation "
                            "level",
                        )
                    count = raw["number_of_instances"]
                    self._check_max(
                        policy.name, vdu, count, f"level {level_id}"
                    )
                    counts[level_id] = count
                self._update(vdu, instantiation_levels=counts)
        return levels, default

    def groups(self) -> dict[str, model.PlacementGroup]:
        return {
            group.name: model.PlacementGroup(
                name=group.name,
                description=group.properties.get("description", ""),
                members=tuple(group.targets),
            )
            for group in self.topology.groups.values()
            if self.is_a("group_types", group.type, PLACEMENT_GROUP)
        }

    def rules(
        self, groups: dict[str, model.PlacementGroup]
    ) -> tuple[model.PlacementRule, ...]:
        rules = []
        for base in (model.AFFINITY, model.ANTI_AFFINITY):
            for policy in self.by_type.get(base, []):
                if not policy.targets:
                    raise self.fail(policy.name, "rule has no targets")
                names: list[str] = []
                for target in policy.targets:
                    if target in groups:
                        names.extend(groups[target].members)
                    elif target in self.topology.groups:
                        raise self.fail(
                            policy.name,
                            f"target {target} is not a PlacementGroup",
                        )
                    else:
                        names.append(target)
                unique = list(dict.fromkeys(names))
                rules.append(
                    model.PlacementRule(
                        name=policy.name,
                        type=base,
                        scope=policy.properties["scope"],
                        targets=tuple(policy.targets),
                        vdus=tuple(n for n in unique if n in self.vdus),
                        virtual_links=tuple(
                            n for n in unique if n in self.links
                        ),
                    )
                )
        return tuple(rules)

    def others(self) -> tuple[model.Policy, ...]:
        return tuple(
            model.Policy(p.name, p.type, tuple(p.targets), dict(p.properties))
            for p in self.by_type.get("other", [])
        )

    def _check_max(self, policy: str, vdu: str, count: int, what: str) -> None:
        high = self.vdus[vdu].vdu_profile.max_number_of_instances
        if count > high:
            raise self.fail(
                policy,
                f"{what} gives VDU {vdu} {count} instances, more than its "
                f"max_number_of_instances ({high})",
            )

    def _update(self, vdu: str, **changes: Any) -> None:
        self.vdus[vdu] = dataclasses.replace(self.vdus[vdu], **changes)


def build_policies(
    topology: Topology,
    is_a: Any,
    vdus: dict[str, model.Vdu],
    links: dict[str, model.VnfVirtualLink],
) -> FlavourPolicies:
    """Model the policies and groups of a flavour's topology.

    ``is_a(section, type, base)`` is :meth:`TypeRegistry.derives_from`.
    """
    builder = _Builder(topology, is_a, vdus, links)
    aspects = builder.aspects()
    builder.deltas(aspects)
    builder.initial_deltas()
    levels, default = builder.levels(aspects)
    groups = builder.groups()
    return FlavourPolicies(
        vdus=builder.vdus,
        scaling_aspects=aspects,
        instantiation_levels=levels,
        default_instantiation_level_id=default,
        placement_groups=groups,
        affinity_rules=builder.rules(groups),
        other_policies=builder.others(),
    )
