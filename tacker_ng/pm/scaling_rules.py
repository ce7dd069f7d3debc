"""Scaling rules of a VNF and the decision one measurement makes. Pure.

A VNF's instantiate request declares its rules in ``additionalParams``::

    "scalingRules": [{"metric": "VCpuUsageMeanVnf", "aspectId": "worker",
                      "scaleOutThreshold": 70, "scaleInThreshold": 30,
                      "numberOfSteps": 1, "cooldown": 300,
                      "minScaleLevel": 0, "maxScaleLevel": 3,
                      "vduIds": ["VDU1"]}]

:func:`parse` checks them against the measurement table and the VNFD's
flavour (422 at instantiate, each message naming ``scalingRules[i].<attr>``)
and resolves the defaults once: the cooldown of ``[autoscale]``, the
aspect's ``max_scale_level``, the VDUs of the aspect's deltas and how many
of their VNFCs one step adds or removes.

:func:`decide` turns the mean of the rule's VNFCs into SCALE_OUT, SCALE_IN
or nothing. Tacker's Prometheus auto-scaling compares the value with one
threshold per direction and so flaps under a load that sits near them: a
scale in concentrates the same total load on fewer VNFCs, which pushes the
mean back over the scale-out threshold, and round it goes. Here a scale in
happens only when the projected mean after it (``mean * n / (n -
removed)``: the same total load on the VNFCs left) stays below the
scale-out threshold; otherwise fewer steps are tried, then none. A
cooldown after any SCALE of the instance (the NFVO's too) lets new VNFCs
take their share before the load is judged again.
"""

import dataclasses
import datetime
import enum
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from tacker_ng import exceptions
from tacker_ng.objects.vnfd import DeploymentFlavour
from tacker_ng.pm import measurements as m

PARAM = "scalingRules"
_KEYS = frozenset(
    {
        "metric",
        "aspectId",
        "scaleOutThreshold",
        "scaleInThreshold",
        "numberOfSteps",
        "cooldown",
        "minScaleLevel",
        "maxScaleLevel",
        "vduIds",
    }
)


class InvalidScalingRule(exceptions.UnprocessableEntity):
    message = "additionalParams.scalingRules is not valid."


class Direction(enum.StrEnum):
    SCALE_OUT = "SCALE_OUT"
    SCALE_IN = "SCALE_IN"
    NONE = "NONE"


@dataclasses.dataclass(frozen=True)
class ScalingRule:
    """One rule, defaults resolved against the VNFD and ``[autoscale]``."""

    #: Position in ``scalingRules`` (names the rule in logs and params).
    index: int
    metric: str
    aspect_id: str
    scale_out_threshold: float
    scale_in_threshold: float
    number_of_steps: int
    cooldown: int
    min_scale_level: int
    max_scale_level: int
    #: VDUs whose VNFCs' values count (empty: every VNFC of the VNF).
    vdu_ids: tuple[str, ...]
    #: VNFCs of ``vdu_ids`` that one step of the aspect adds or removes.
    vnfcs_per_step: int

    def counts(self, vdu_id: str | None) -> bool:
        """Whether a VNFC of ``vdu_id`` is one of the rule's."""
        return not self.vdu_ids or vdu_id in self.vdu_ids

    def describe(self) -> dict[str, Any]:
        """The rule as the automatic SCALE's additionalParams name it."""
        return {
            "index": self.index,
            "metric": self.metric,
            "aspectId": self.aspect_id,
            "scaleOutThreshold": self.scale_out_threshold,
            "scaleInThreshold": self.scale_in_threshold,
        }


@dataclasses.dataclass(frozen=True)
class Decision:
    direction: Direction
    steps: int
    reason: str
    rule: ScalingRule | None = None


def _fail(index: int, attr: str, problem: str) -> InvalidScalingRule:
    return InvalidScalingRule(f"{PARAM}[{index}].{attr}: {problem}")


def _number(raw: Mapping[str, Any], i: int, attr: str) -> float:
    value = raw.get(attr)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(i, attr, "a number is required.")
    return float(value)


def _integer(
    raw: Mapping[str, Any], i: int, attr: str, default: int, low: int
) -> int:
    value = raw.get(attr, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(i, attr, "an integer is required.")
    if value < low:
        raise _fail(i, attr, f"{value} is below {low}.")
    return value


def _step_of(flavour: DeploymentFlavour, vdu: str, aspect: str) -> int:
    deltas = flavour.vdus[vdu].aspect_deltas.get(aspect) or {}
    return next(iter(deltas.values()), 0)


def _vdus(
    raw: Mapping[str, Any], i: int, flavour: DeploymentFlavour, aspect: str
) -> tuple[str, ...]:
    if "vduIds" not in raw:
        return tuple(
            sorted(v for v in flavour.vdus if _step_of(flavour, v, aspect))
        )
    vdus = raw["vduIds"]
    if not isinstance(vdus, list) or not all(isinstance(v, str) for v in vdus):
        raise _fail(i, "vduIds", "a list of VDU ids is required.")
    unknown = sorted(set(vdus) - set(flavour.vdus))
    if unknown:
        raise _fail(
            i,
            "vduIds",
            f"{', '.join(unknown)} not a VDU of flavour "
            f"'{flavour.flavour_id}'.",
        )
    return tuple(dict.fromkeys(vdus))


def parse_rule(
    raw: Any,
    i: int,
    flavour: DeploymentFlavour,
    table: Mapping[str, m.Measurement],
    default_cooldown: int,
) -> ScalingRule:
    """One entry of ``scalingRules`` (see module doc)."""
    if not isinstance(raw, Mapping):
        raise InvalidScalingRule(f"{PARAM}[{i}]: an object is required.")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise _fail(
            i, unknown[0], f"unknown; known: {', '.join(sorted(_KEYS))}."
        )
    metric = raw.get("metric")
    known = table.get(metric) if isinstance(metric, str) else None
    if known is None or not set(known.object_types) & set(m.COMPUTE):
        names = sorted(
            n for n, v in table.items() if set(v.object_types) & set(m.COMPUTE)
        )
        raise _fail(
            i,
            "metric",
            f"{metric!r} is not a Vnf or Vnfc metric of the measurement "
            f"table; known: {', '.join(names)}.",
        )
    aspect_id = raw.get("aspectId")
    aspect = flavour.scaling_aspects.get(aspect_id)  # type: ignore[arg-type]
    if aspect is None:
        raise _fail(
            i,
            "aspectId",
            f"{aspect_id!r} is not a scaling aspect of flavour "
            f"'{flavour.flavour_id}'; known: "
            f"{', '.join(sorted(flavour.scaling_aspects)) or 'none'}.",
        )
    out = _number(raw, i, "scaleOutThreshold")
    in_ = _number(raw, i, "scaleInThreshold")
    if in_ >= out:
        raise _fail(
            i,
            "scaleInThreshold",
            f"{in_:g} must be below scaleOutThreshold {out:g}.",
        )
    low = _integer(raw, i, "minScaleLevel", 0, 0)
    high = _integer(raw, i, "maxScaleLevel", aspect.max_scale_level, 0)
    if high > aspect.max_scale_level:
        raise _fail(
            i,
            "maxScaleLevel",
            f"{high} exceeds the max_scale_level {aspect.max_scale_level} "
            f"of aspect '{aspect.aspect_id}'.",
        )
    if low >= high:
        raise _fail(
            i, "minScaleLevel", f"{low} must be below maxScaleLevel {high}."
        )
    vdus = _vdus(raw, i, flavour, aspect.aspect_id)
    return ScalingRule(
        index=i,
        metric=known.name,
        aspect_id=aspect.aspect_id,
        scale_out_threshold=out,
        scale_in_threshold=in_,
        number_of_steps=_integer(raw, i, "numberOfSteps", 1, 1),
        cooldown=_integer(raw, i, "cooldown", default_cooldown, 0),
        min_scale_level=low,
        max_scale_level=high,
        vdu_ids=vdus,
        vnfcs_per_step=sum(
            _step_of(flavour, v, aspect.aspect_id)
            for v in (vdus or flavour.vdus)
        ),
    )


def parse(
    additional_params: Mapping[str, Any] | None,
    flavour: DeploymentFlavour,
    table: Mapping[str, m.Measurement],
    default_cooldown: int,
) -> list[ScalingRule]:
    """The rules of an instantiate request's ``additionalParams`` (none
    when it declares none); InvalidScalingRule (422) names the fault."""
    raw = (additional_params or {}).get(PARAM)
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidScalingRule(f"{PARAM}: a list of rules is required.")
    return [
        parse_rule(r, i, flavour, table, default_cooldown)
        for i, r in enumerate(raw)
    ]


def scale_level(info: Mapping[str, Any] | None, aspect_id: str) -> int:
    """The aspect's level in an instantiatedVnfInfo's scaleStatus."""
    for status in (info or {}).get("scaleStatus") or []:
        if status.get("aspectId") == aspect_id:
            return int(status.get("scaleLevel") or 0)
    return 0


def _none(reason: str, rule: ScalingRule) -> Decision:
    return Decision(Direction.NONE, 0, reason, rule)


def decide(
    rule: ScalingRule,
    values: Sequence[float],
    current_level: int,
    vnfc_count: int,
    last_scale_end: datetime.datetime | None,
    now: datetime.datetime,
) -> Decision:
    """What ``rule`` decides from the values of its VNFCs (see module
    doc); ``vnfc_count``: the rule's VNFCs in the instance."""
    if last_scale_end is not None:
        until = last_scale_end + datetime.timedelta(seconds=rule.cooldown)
        if now < until:
            return _none(f"cooldown until {until.isoformat()}", rule)
    if not values:
        return _none(f"no value of {rule.metric}", rule)
    mean = sum(values) / len(values)
    said = f"mean {rule.metric} {mean:.4g}"
    if mean >= rule.scale_out_threshold:
        room = rule.max_scale_level - current_level
        if room <= 0:
            return _none(f"{said}: at maxScaleLevel {current_level}", rule)
        steps = min(rule.number_of_steps, room)
        return Decision(
            Direction.SCALE_OUT,
            steps,
            f"{said} >= scaleOutThreshold {rule.scale_out_threshold:g}",
            rule,
        )
    if mean > rule.scale_in_threshold:
        return _none(f"{said} within the thresholds", rule)
    room = current_level - rule.min_scale_level
    if room <= 0:
        return _none(f"{said}: at minScaleLevel {current_level}", rule)
    n = max(vnfc_count, len(values))
    for steps in range(min(rule.number_of_steps, room), 0, -1):
        left = n - steps * rule.vnfcs_per_step
        if left <= 0:
            continue
        projected = mean * n / left
        if projected < rule.scale_out_threshold:
            return Decision(
                Direction.SCALE_IN,
                steps,
                f"{said} <= scaleInThreshold {rule.scale_in_threshold:g}, "
                f"{projected:.4g} projected on {left} VNFCs",
                rule,
            )
    return _none(
        f"{said} <= scaleInThreshold {rule.scale_in_threshold:g}, but "
        f"scaling in would bring it to scaleOutThreshold "
        f"{rule.scale_out_threshold:g} or above",
        rule,
    )


def combine(decisions: Iterable[Decision]) -> Decision | None:
    """The one SCALE an instance gets from its rules' decisions: a scale
    out as soon as one rule of an aspect asks for it (the most steps),
    a scale in only when every rule of the aspect agrees (the fewest
    steps); None when nothing is to be done."""
    by_aspect: dict[str, list[Decision]] = {}
    for d in decisions:
        if d.rule is not None:
            by_aspect.setdefault(d.rule.aspect_id, []).append(d)
    ins: list[Decision] = []
    for aspect in sorted(by_aspect):
        ds = by_aspect[aspect]
        outs = [d for d in ds if d.direction is Direction.SCALE_OUT]
        if outs:
            return max(outs, key=lambda d: d.steps)
        if all(d.direction is Direction.SCALE_IN for d in ds):
            ins.append(min(ds, key=lambda d: d.steps))
    return ins[0] if ins else None


def values_of(
    rule: ScalingRule,
    instance_id: str,
    vnfcs: Collection[Mapping[str, Any]],
    measured: Mapping[tuple[str, str | None], float],
) -> tuple[list[float], int]:
    """(the values of the rule's VNFCs, how many VNFCs it has) from a
    measurement; a per-VNF value (no vnfcId) stands for them all."""
    mine = [v for v in vnfcs if rule.counts(v.get("vduId"))]
    values = [
        measured[(instance_id, v["id"])]
        for v in mine
        if (instance_id, v["id"]) in measured
    ]
    if not values and (instance_id, None) in measured:
        values = [measured[(instance_id, None)]]
    return values, len(mine)
