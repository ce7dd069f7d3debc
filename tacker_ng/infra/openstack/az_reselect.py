"""The AZ reselection loop: stack attempt, judge, reselect, repeat.

Thin on purpose: every decision is made by pure code
(:mod:`tacker_ng.placement.az_errors` classifies Heat's failure texts,
:mod:`tacker_ng.placement.az_select` picks zones); this module only runs
attempts, logs what was decided and turns dead ends into ProblemDetails.
"""

import dataclasses
import random
from collections.abc import Callable, Sequence

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.infra.openstack import errors
from tacker_ng.placement import az_errors, az_select

LOG = logging.getLogger(__name__)

Assignment = dict[str, str | None]


@dataclasses.dataclass
class Outcome:
    """What one stack create/update attempt came to."""

    ok: bool
    failures: list[az_errors.Failure] = dataclasses.field(default_factory=list)
    #: VNFC names whose resource did not complete (failed or cancelled).
    incomplete: set[str] = dataclasses.field(default_factory=set)
    #: The stack's status reason (for errors when no failure is named).
    reason: str = ""


def rng_for(conf: cfg.ConfigOpts) -> random.Random:
    """Random source of zone picks: seeded only when configured."""
    seed = conf.openstack.zone_choice_seed
    return random.Random(seed) if seed is not None else random.Random()  # noqa: S311 - not crypto


def run(
    *,
    attempt: Callable[[Assignment], Outcome],
    assignment: Assignment,
    members: Sequence[az_select.Member],
    rules: az_select.ZoneRules,
    list_zones: Callable[[], list[str]],
    on_change: Callable[[Assignment], None],
    stack: str,
    action: str,
    conf: cfg.ConfigOpts = cfg.CONF,
    rng: random.Random | None = None,
) -> Assignment:
    """Attempt until success; reselect zones after capacity failures.

    Raises :class:`errors.StackFailed` for any failure that is not a
    lack of capacity (no reselection), and
    :class:`errors.InsufficientCapacity` when capacity failures remain
    and reselection is off, has no zone left or hit its limit.
    """
    state: az_select.Reselection | None = None
    while True:
        outcome = attempt(assignment)
        if outcome.ok:
            return assignment
        verdict = az_errors.judge(outcome.failures)
        if not verdict.reselectable:
            reason = (verdict.other or (outcome.reason,))[0]
            raise errors.StackFailed(
                stack=stack, action=action, reason=errors.verdict(reason)
            )
        # Classified on Heat's raw text above; shown scrubbed from here.
        first = errors.verdict(next(iter(verdict.capacity.values())))
        if not conf.placement.fallback_best_effort:
            raise errors.InsufficientCapacity(
                reason=f"{first} (no zone reselection: [placement] "
                "fallback_best_effort is false)"
            )
        if state is None:
            zones = list_zones()
            state = az_select.Reselection(
                members=members,
                zones=zones,
                rules=rules,
                limit=az_select.reselection_limit(
                    conf.placement.az_select_retry, zones
                ),
                rng=rng or rng_for(conf),
            )
        try:
            assignment, moves = state.next(
                assignment, verdict.capacity, outcome.incomplete
            )
        except (
            az_select.NoZoneLeft,
            az_select.RetryLimitReached,
            az_select.CannotMove,
        ) as exc:
            raise errors.InsufficientCapacity(
                reason=f"{exc}. Last capacity failure: {first}"
            ) from exc
        for move in moves:
            _log_move(stack, move, state)
        on_change(assignment)


def _log_move(
    stack: str, move: az_select.Move, state: az_select.Reselection
) -> None:
    if move.anti_affinity_broken:
        LOG.warning(
            "Stack %s: anti-affinity is broken for %s: no zone outside "
            "their peers' zones %s and the failed zones %s; chose %s",
            stack,
            ", ".join(move.members),
            ", ".join(move.peer_zones),
            ", ".join(sorted(state.failed_zones)),
            move.zone,
        )
    LOG.info(
        "Stack %s: zone reselection %d/%d: %s from %s to %s",
        stack,
        state.count,
        state.limit,
        ", ".join(move.members),
        ", ".join(str(z) for z in move.old_zones),
        move.zone,
    )
