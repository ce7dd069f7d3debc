"""What a drift leads to: an automatic HEAL, or an FM alarm.

Per VNF instance, after an observation:

* the operation holding the instance decides first (:mod:`.autoops`): an
  operation in flux (STARTING, PROCESSING, ROLLING_BACK) leaves the
  instance alone - its desired state is changing, its own result decides
  what the instance becomes; the VNFM's own automatic heal in
  FAILED_TEMP is failed (or rolled back) by the VNFM, so an automatic
  operation never holds an instance; any other operation in FAILED_TEMP
  still lets the instance be observed and its VNFCs alarmed, but no
  automatic operation starts;
* with ``isAutohealEnabled`` a HEAL op occ is opened for the drifted VNFCs
  only (``isAutomaticInvocation`` true) and cast to the conductors like any
  other op, unless failed automatic heals make it back off
  (:mod:`.autoops`: exponential delay, ``auto_heal_attempts``, one
  ``autoheal:failed`` alarm); while it backs off the drift is alarmed;
* otherwise each drifted VNFC gets one open alarm (AlarmNotification),
  and an alarm whose VNFC converged again is cleared
  (AlarmClearedNotification);
* a VNF whose Heat stack is in a ``*_FAILED`` state gets one stack alarm
  (no VNFC named, faultyResource the stack), in both modes, cleared once
  the stack leaves the FAILED state. A failed stack is never auto-healed
  as such: its servers may all be running (Nova's listing judges them,
  and any VNFC that drifted is healed by itself, which also updates the
  stack), a heal of the whole VNF would recreate every VNFC - an outage
  the failure did not cause - and Heat updates a FAILED stack, so the
  next operation is not blocked by it. The NFVO decides, told by the
  alarm.
"""

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence import autoops
from tacker_ng.convergence import desired as desired_mod
from tacker_ng.convergence.drift import ALARM_OF, Observation, StackState
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm
from tacker_ng.nfvo import fm_notify

LOG = logging.getLogger(__name__)

#: Casts an op occ id to the conductors (``ConductorAPI.run_lcm_op``).
Cast = Callable[[Any, str], None]

#: Key of a VNF's stack alarm among its open alarms (never a VNFC id: a
#: pod or server id holds no colon).
STACK_KEY = "heat:stack"
STACK_FAULT = "STACK_FAILED"
#: Key of a VNF's automatic-heal alarm (:mod:`.autoops`).
AUTOHEAL_KEY = autoops.AUTOHEAL_KEY


@dataclasses.dataclass
class Outcome:
    """What converging one instance did (for logs, tests, the bench)."""

    heal_op_occ_id: str | None = None
    raised: list[str] = dataclasses.field(default_factory=list)
    cleared: list[str] = dataclasses.field(default_factory=list)
    skipped_busy: bool = False
    backing_off: bool = False
    #: Held by an op in FAILED_TEMP: alarmed, no automatic operation.
    held_failed: bool = False


def _faulty_resource(obs: Observation) -> dict[str, Any]:
    d = obs.desired
    resource_id = d.resource_id
    if obs.replaced_by is not None:
        resource_id = obs.replaced_by.id
    handle = {
        "resourceId": resource_id,
        "vimLevelResourceType": d.resource_type or "OS::Nova::Server",
    }
    if d.vim_connection_id:
        handle["vimConnectionId"] = d.vim_connection_id
    return handle


def _details(obs: Observation) -> list[str]:
    desired = {k: v for k, v in obs.desired.as_dict().items() if v}
    observed = obs.observed_dict()
    return [
        f"drift: {obs.drift}",
        f"desired: {desired}",
        f"observed: {observed}",
    ]


class Converger:
    """Turns observations of one instance into a heal or alarms."""

    def __init__(
        self,
        context: Any,
        cast: Cast,
        conf: cfg.ConfigOpts = cfg.CONF,
        rollback_cast: Cast | None = None,
    ) -> None:
        self.context = context
        self.cast = cast
        self.conf = conf
        self.autoops = autoops.AutoOps(context, cast, rollback_cast, conf)

    def converge(
        self,
        instance: Mapping[str, Any],
        observations: list[Observation],
        stack_known: bool = False,
        failed_stack: StackState | None = None,
    ) -> Outcome:
        """Act on one observed instance (see module doc). ``stack_known``:
        the VIM's stacks were listed, so ``failed_stack`` None means the
        stack is not FAILED (its alarm, if any, is cleared)."""
        out = Outcome()
        held = self.autoops.current(instance)
        if held is autoops.Held.ENDED:
            # Observed while an op held the instance: count the op's end,
            # act on the next observation (a heal just COMPLETED must not
            # be judged by servers listed before it).
            self.autoops.account_ended(instance)
            out.skipped_busy = True
            return out
        if held is autoops.Held.RUNNING:
            out.skipped_busy = True
            return out
        out.held_failed = held is autoops.Held.FAILED_TEMP
        drifted = {o.desired.vnfc_id: o for o in observations if o.drift}
        alarm_mode = True
        if held is autoops.Held.FREE:
            self.autoops.account_ended(instance)
            if not drifted:
                self.autoops.converged(instance)
            if desired_mod.autoheal_enabled(instance):
                alarm_mode = False
                if drifted:
                    occ_id, healing = self.autoops.heal(
                        instance, sorted(drifted)
                    )
                    out.heal_op_occ_id = occ_id
                    out.skipped_busy = healing and occ_id is None
                    out.backing_off = not healing
                    alarm_mode = not healing
        stack = (stack_known, failed_stack)
        self._reconcile_alarms(
            instance,
            drifted if alarm_mode else {},
            out,
            raise_new=alarm_mode,
            stack=stack,
        )
        return out

    def clear_departed(self) -> int:
        """Clear the alarms of instances terminated or deleted since they
        were raised, and forget their observed state."""
        cleared = 0
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                cleared = 0
                observed_db.forget_departed(session)
                for alarm in alarms_db.open_of_departed(session):
                    done = alarms_db.clear(session, alarm["id"])
                    if done is None:
                        continue
                    try:
                        instance = vnf_lcm.get_instance(
                            session, alarm["managed_object_id"]
                        )
                    except vnf_lcm.VnfInstanceNotFound:
                        instance = _gone_instance(alarm)
                    fm_notify.alarm_cleared(session, done, instance)
                    cleared += 1
        return cleared

    # -- alarms ---------------------------------------------------------

    def _reconcile_alarms(
        self,
        instance: Mapping[str, Any],
        drifted: dict[str, Observation],
        out: Outcome,
        raise_new: bool,
        stack: tuple[bool, StackState | None] = (False, None),
    ) -> None:
        known, failed = stack
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                out.raised.clear()
                out.cleared.clear()
                open_alarms = alarms_db.open_for(session, instance["id"])
                if (
                    not open_alarms
                    and not (raise_new and drifted)
                    and failed is None
                ):
                    return
                _stack_alarm(
                    session, instance, open_alarms, known, failed, out
                )
                for vnfc_id, alarm in open_alarms.items():
                    # A key with a colon names no VNFC: the stack alarm
                    # (above) or one the observer does not own (e.g. the
                    # conductor's zone anti-affinity alarm).
                    if vnfc_id in drifted or ":" in vnfc_id:
                        continue
                    cleared = alarms_db.clear(session, alarm["id"])
                    if cleared is not None:
                        fm_notify.alarm_cleared(session, cleared, instance)
                        out.cleared.append(cleared["id"])
                for vnfc_id, obs in drifted.items():
                    if not raise_new or vnfc_id in open_alarms:
                        continue
                    severity, cause = ALARM_OF[obs.drift]
                    alarm = alarms_db.raise_alarm(
                        session,
                        instance,
                        vnfc_id,
                        _faulty_resource(obs),
                        severity,
                        cause,
                        str(obs.drift),
                        _details(obs),
                    )
                    fm_notify.alarm_raised(session, alarm, instance)
                    out.raised.append(alarm["id"])
        for alarm_id in out.raised:
            LOG.warning(
                "VNF instance %s: alarm %s raised", instance["id"], alarm_id
            )
        for alarm_id in out.cleared:
            LOG.info(
                "VNF instance %s: alarm %s cleared", instance["id"], alarm_id
            )


def _stack_alarm(
    session: Any,
    instance: Mapping[str, Any],
    open_alarms: Mapping[str, Mapping[str, Any]],
    known: bool,
    failed: StackState | None,
    out: Outcome,
) -> None:
    """Raise or clear the VNF's stack alarm (see module doc)."""
    alarm = open_alarms.get(STACK_KEY)
    if alarm is not None and known and failed is None:
        cleared = alarms_db.clear(session, alarm["id"])
        if cleared is not None:
            fm_notify.alarm_cleared(session, cleared, instance)
            out.cleared.append(cleared["id"])
    elif alarm is None and failed is not None:
        raised = alarms_db.raise_alarm(
            session,
            instance,
            STACK_KEY,
            {
                "resourceId": failed.id,
                "vimLevelResourceType": "OS::Heat::Stack",
            },
            "MAJOR",
            f"Heat stack {failed.status}",
            STACK_FAULT,
            [
                f"drift: {STACK_FAULT}",
                f"desired: stack {failed.name} *_COMPLETE",
                f"observed: {failed.status}: {failed.reason}",
            ],
            vnfc_ids=[],
        )
        fm_notify.alarm_raised(session, raised, instance)
        out.raised.append(raised["id"])


def _gone_instance(alarm: Mapping[str, Any]) -> dict[str, Any]:
    """What subscription filters can know of a deleted instance."""
    return {
        "id": alarm["managed_object_id"],
        "project_id": alarm["project_id"],
        "vnfd_id": None,
        "vnf_provider": None,
        "vnf_product_name": None,
        "vnf_software_version": None,
        "vnfd_version": None,
        "vnf_instance_name": None,
    }
