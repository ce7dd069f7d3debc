"""What a drift leads to: an automatic HEAL, or an FM alarm.

Per VNF instance, after an observation:

* an instance held by an operation is left alone (never fight an op; its
  own result decides what the instance becomes);
* with ``isAutohealEnabled`` a HEAL op occ is opened for the drifted VNFCs
  only (``isAutomaticInvocation`` true) and cast to the conductors like any
  other op; after ``autoheal_max_failures`` failed heals in a row the
  observer backs off for ``autoheal_backoff`` seconds, logs it and raises
  alarms instead;
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
import datetime
from collections.abc import Callable, Mapping
from typing import Any

import oslo_messaging as messaging
from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence import desired as desired_mod
from tacker_ng.convergence.drift import ALARM_OF, Observation, StackState
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm
from tacker_ng.db.types import utcnow
from tacker_ng.lcm import starting
from tacker_ng.lcm import transitions as state
from tacker_ng.nfvo import fm_notify
from tacker_ng.objects import lcm

LOG = logging.getLogger(__name__)

#: Final states of an automatic heal that count as a failure.
_FAILED = {"FAILED", "FAILED_TEMP", "ROLLED_BACK"}

#: Casts an op occ id to the conductors (``ConductorAPI.run_lcm_op``).
Cast = Callable[[Any, str], None]

#: Key of a VNF's stack alarm among its open alarms (never a VNFC id: a
#: pod or server id holds no colon).
STACK_KEY = "heat:stack"
STACK_FAULT = "STACK_FAILED"


@dataclasses.dataclass
class Outcome:
    """What converging one instance did (for logs, tests, the bench)."""

    heal_op_occ_id: str | None = None
    raised: list[str] = dataclasses.field(default_factory=list)
    cleared: list[str] = dataclasses.field(default_factory=list)
    skipped_busy: bool = False
    backing_off: bool = False


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
        self, context: Any, cast: Cast, conf: cfg.ConfigOpts = cfg.CONF
    ) -> None:
        self.context = context
        self.cast = cast
        self.conf = conf

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
        if instance["current_op_occ_id"]:
            out.skipped_busy = True
            return out
        drifted = {o.desired.vnfc_id: o for o in observations if o.drift}
        alarm_mode = True
        if desired_mod.autoheal_enabled(instance):
            if drifted:
                healed = self._autoheal(instance, sorted(drifted), out)
                alarm_mode = not healed
            else:
                alarm_mode = False
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

    # -- auto-heal ------------------------------------------------------

    def _failures(self, session, instance_id: str) -> tuple[int, Any]:
        """Failed automatic heals in a row, counting the last one."""
        st = observed_db.autoheal_state(session, instance_id)
        if st is None:
            return 0, None
        failures = st["autoheal_failures"]
        last = st["last_autoheal_op_occ_id"]
        if last:
            try:
                occ = vnf_lcm.get_op_occ(session, last)
            except vnf_lcm.OpOccNotFound:
                occ = None
            if occ is not None and occ["operation_state"] == "COMPLETED":
                failures = 0
            elif occ is None or occ["operation_state"] in _FAILED:
                failures += 1
        return failures, st["backoff_until"]

    def _autoheal(
        self, instance: Mapping[str, Any], vnfc_ids: list[str], out: Outcome
    ) -> bool:
        """Open and cast a HEAL; False when backing off (alarm instead)."""
        limit = self.conf.convergence.autoheal_max_failures
        now = utcnow()
        occ = None
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                failures, backoff_until = self._failures(
                    session, instance["id"]
                )
                if failures >= limit:
                    if backoff_until is None:
                        backoff_until = now + datetime.timedelta(
                            seconds=self.conf.convergence.autoheal_backoff
                        )
                        LOG.warning(
                            "VNF instance %s: %d automatic heals failed in a "
                            "row; no automatic heal before %s, raising "
                            "alarms instead",
                            instance["id"],
                            failures,
                            backoff_until.isoformat(),
                        )
                    if backoff_until > now:
                        observed_db.set_autoheal_state(
                            session,
                            instance["id"],
                            failures,
                            None,
                            backoff_until,
                        )
                        out.backing_off = True
                        return False
                    failures = 0
                try:
                    occ = starting.open_op_occ(
                        session,
                        instance["id"],
                        lcm.Operation.HEAL,
                        {
                            "vnfcInstanceId": vnfc_ids,
                            "cause": "convergence: VNFC drift observed",
                        },
                        is_automatic=True,
                    )
                except vnf_lcm.OperationConflict:
                    out.skipped_busy = True
                    return True
                observed_db.set_autoheal_state(
                    session, instance["id"], failures, occ["id"], None
                )
        LOG.info(
            "VNF instance %s: automatic heal %s of %s",
            instance["id"],
            occ["id"],
            ", ".join(vnfc_ids),
        )
        out.heal_op_occ_id = occ["id"]
        try:
            self.cast(self.context, occ["id"])
        except messaging.MessagingException as exc:
            LOG.error("Cast of automatic heal %s failed: %s", occ["id"], exc)
            state.move(
                self.context,
                occ["id"],
                lcm.OperationState.FAILED_TEMP,
                {lcm.OperationState.STARTING},
                error={
                    "status": 503,
                    "detail": "No conductor could be reached.",
                },
            )
        return True

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
