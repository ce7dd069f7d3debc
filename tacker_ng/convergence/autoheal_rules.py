"""Pure rules of the VNFM's automatic heals (see :mod:`.autoops`): what
the op occ holding an instance allows, the back-off schedule, attempt
counting and the words of the automatic-heal alarm. No I/O.
"""

import datetime
import enum
from collections.abc import Mapping
from typing import Any

from oslo_config import cfg

from tacker_ng.lcm import automatic
from tacker_ng.objects import lcm

S = lcm.OperationState

#: Key of the instance's automatic-heal alarm (a colon: no VNFC's).
AUTOHEAL_KEY = "autoheal:failed"
AUTOHEAL_FAULT = "AUTO_HEAL_FAILED"
FINAL = automatic.FINAL


class Held(enum.Enum):
    """What the instance's current operation allows."""

    FREE = "free"  # no operation: automatic operations may start
    RUNNING = "running"  # in flux: leave the instance alone
    FAILED_TEMP = "failed_temp"  # observe and alarm, start nothing
    SETTLE = "settle"  # our own automatic heal in FAILED_TEMP: end it
    # The op held the instance when it was read for this observation and
    # has ended since: what was observed may predate its end (a heal's old
    # servers, desired state before its changes), so the cycle accounts
    # for the op and acts on nothing; the next cycle sees the result.
    ENDED = "ended"


def judge_current(occ: Mapping[str, Any] | None) -> Held:
    """What the op occ that holds an instance (None: none) allows."""
    if occ is None:
        return Held.FREE
    if occ["operation_state"] in FINAL:
        return Held.ENDED
    if occ["operation_state"] == S.FAILED_TEMP:
        if (
            occ["is_automatic_invocation"]
            and occ["operation"] == lcm.Operation.HEAL
        ):
            return Held.SETTLE
        return Held.FAILED_TEMP
    return Held.RUNNING


#: The back-off and attempt rules are those of every automatic
#: operation (:mod:`tacker_ng.lcm.automatic`); auto-heal reads its
#: numbers from ``[convergence]``.
backoff_delay = automatic.backoff_delay
Failure = automatic.Failure
may_heal = automatic.may_start


def after_failure(
    failures_before: int, now: datetime.datetime, conf: cfg.ConfigOpts
) -> Failure:
    c = conf.convergence
    return automatic.next_failure(
        failures_before,
        now,
        attempts=c.auto_heal_attempts,
        base=c.auto_heal_backoff_base,
        cap=c.auto_heal_backoff_max,
        pause=c.autoheal_backoff,
    )


def alarm_text(
    occ: Mapping[str, Any], how: str, failure: Failure
) -> tuple[str, list[str]]:
    """(probableCause, faultDetails) of the automatic-heal alarm."""
    error = occ.get("error") or {}
    cause = error.get("detail") or error.get("title") or "unknown error"
    vnfcs = (occ.get("operation_params") or {}).get("vnfcInstanceId") or []
    when = failure.next_attempt.isoformat()
    if failure.exhausted:
        nxt = f"attempts exhausted; no automatic heal before {when}"
    else:
        nxt = f"next attempt not before {when}"
    probable = f"Automatic heal {occ['id']} failed: {cause}"
    return probable[:255], [
        f"operation: HEAL {occ['id']} (automatic), {how}",
        f"vnfcs: {', '.join(vnfcs) or '-'}",
        f"cause: {error.get('title') or '-'}: {cause}",
        f"attempt {failure.failures} of {failure.attempts}",
        nxt,
    ]
