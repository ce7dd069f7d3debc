"""The VNFM's own automatic heals: it starts them, ends them, alarms them.

An automatic heal is the VNFM's operation, not the NFVO's, so an
automatic heal that ends FAILED_TEMP is never left holding the instance:
on the next observation of the instance the VNFM fails it (or, with
``[convergence] auto_heal_failed_action = rollback``, rolls it back; a
rollback that fails too is then failed), through the same transitions
and VnfLcmOperationOccurrenceNotifications as an NFVO's ``POST .../fail``
or ``.../rollback``. Each such failure, and an automatic heal that an
NFVO failed or rolled back itself, counts: the next automatic heal waits
``auto_heal_backoff_base * 2**(n-1)`` seconds (at most
``auto_heal_backoff_max``) after the n-th failure in a row, and after
``auto_heal_attempts`` failures none starts for ``autoheal_backoff``
seconds. Meanwhile drift is alarmed per VNFC as with auto-heal off.

One FM alarm per instance (key :data:`AUTOHEAL_KEY`, no VNFC id) names
the last failed heal: its op occ, its VNFCs, its error, attempt n of N
and when the next attempt is due; a later failure updates it (an
AlarmNotification again). It is cleared, and the count reset, when an
automatic heal COMPLETES, or when the instance is observed free of drift
with no operation holding it (a manual heal that completed, or VNFCs
that recovered by themselves).

Crash safety: the count, the next-attempt time and the alarm are written
in the transaction that moves the op occ (to FAILED, or to ROLLING_BACK),
and ``last_autoheal_op_occ_id`` names the automatic heal not counted yet
(None once it is). A crash leaves all or nothing; the next cycle does
whatever is left.

What holds an instance decides what may happen (:func:`judge_current`):
an operation in flux (STARTING, PROCESSING, ROLLING_BACK) - the instance
is left alone, its desired state is changing; an operation in
FAILED_TEMP (any, manual too) - observation and VNFC alarms go on, but
no automatic operation starts.
"""

from collections.abc import Callable, Mapping
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.convergence.autoheal_rules import (
    AUTOHEAL_FAULT,
    AUTOHEAL_KEY,
    FINAL,
    Failure,
    Held,
    after_failure,
    alarm_text,
    judge_current,
    may_heal,
)
from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.db import vnf_lcm
from tacker_ng.db.types import utcnow
from tacker_ng.lcm import rollback as lcm_rollback
from tacker_ng.lcm import starting
from tacker_ng.lcm import transitions as state
from tacker_ng.nfvo import fm_notify
from tacker_ng.objects import lcm

LOG = logging.getLogger(__name__)
S = lcm.OperationState

#: Casts an op occ id to the conductors.
Cast = Callable[[Any, str], None]

# -- the VNFM acting ---------------------------------------------------


class AutoOps:
    """One instance's automatic heals (see module doc)."""

    def __init__(
        self,
        context: Any,
        cast: Cast,
        rollback_cast: Cast | None,
        conf: cfg.ConfigOpts,
    ) -> None:
        self.context = context
        self.cast = cast
        self.rollback_cast = rollback_cast
        self.conf = conf

    def current(self, instance: Mapping[str, Any]) -> Held:
        """What the instance's current op allows, once the VNFM has
        ended its own failed automatic heal (FREE then)."""
        if not instance["current_op_occ_id"]:
            return Held.FREE
        with db_api.reader(self.context) as session:
            try:
                occ = vnf_lcm.get_op_occ(
                    session, instance["current_op_occ_id"]
                )
            except vnf_lcm.OpOccNotFound:
                # Not ours to judge (being written, or a stale pointer):
                # leave the instance alone, as for a running op.
                return Held.RUNNING
            st = observed_db.autoheal_state(session, instance["id"])
        held = judge_current(occ)
        if held is Held.SETTLE:
            # Counted already: the VNFM rolled it back and the rollback
            # failed (the pointer is cleared when a failure is counted).
            counted = (
                st is not None and st["last_autoheal_op_occ_id"] != occ["id"]
            )
            return self._settle(instance, occ, counted)
        if held is Held.FAILED_TEMP:
            LOG.debug(
                "VNF instance %s is held by %s %s in FAILED_TEMP: observed "
                "and alarmed, no automatic operation",
                instance["id"],
                occ["operation"],
                occ["id"],
            )
        return held

    def _settle(
        self,
        instance: Mapping[str, Any],
        occ: Mapping[str, Any],
        counted: bool,
    ) -> Held:
        """Fail (or roll back) our automatic heal in FAILED_TEMP."""
        action = self.conf.convergence.auto_heal_failed_action
        if action == "rollback" and not counted:
            refusing = lcm_rollback.driver_refusing(
                instance, lcm.Operation.HEAL
            )
            if refusing is not None or self.rollback_cast is None:
                LOG.warning(
                    "VNF instance %s: automatic heal %s cannot be rolled "
                    "back (%s); failing it",
                    instance["id"],
                    occ["id"],
                    refusing.name if refusing else "no rollback cast",
                )
            else:
                return self._roll_back(instance, occ)

        def account(session: Any, _occ: Any) -> None:
            if not counted:
                self._count_failure(
                    session, instance, occ, "failed by the VNFM"
                )

        if not state.finish(
            self.context, occ["id"], S.FAILED, {S.FAILED_TEMP}, also=account
        ):
            # Someone (the NFVO's retry, rollback or fail) was first.
            return Held.RUNNING
        LOG.warning(
            "VNF instance %s: the VNFM failed its automatic heal %s (%s); "
            "the instance is free",
            instance["id"],
            occ["id"],
            (occ.get("error") or {}).get("detail") or "no detail",
        )
        return Held.FREE

    def _roll_back(
        self, instance: Mapping[str, Any], occ: Mapping[str, Any]
    ) -> Held:
        def account(session: Any, _occ: Any) -> None:
            self._count_failure(
                session, instance, occ, "rolled back by the VNFM"
            )

        if not state.move(
            self.context,
            occ["id"],
            S.ROLLING_BACK,
            {S.FAILED_TEMP},
            also=account,
            conductor_host=None,
        ):
            return Held.RUNNING
        LOG.warning(
            "VNF instance %s: the VNFM rolls back its automatic heal %s",
            instance["id"],
            occ["id"],
        )
        # A refused cast: FAILED_TEMP again, counted: the next cycle
        # fails it.
        state.cast_or_park(
            self.context,
            self.rollback_cast,
            occ["id"],
            S.ROLLING_BACK,
            "rollback of",
        )
        return Held.RUNNING

    def _count_failure(
        self,
        session: Any,
        instance: Mapping[str, Any],
        occ: Mapping[str, Any],
        how: str,
    ) -> Failure:
        """One more failure in a row: its back-off and the alarm."""
        st = observed_db.autoheal_state(session, instance["id"])
        failure = after_failure(
            st["autoheal_failures"] if st else 0, utcnow(), self.conf
        )
        observed_db.set_autoheal_state(
            session,
            instance["id"],
            failure.failures,
            None,
            failure.next_attempt,
        )
        probable, details = alarm_text(occ, how, failure)
        vnfcs = list(
            (occ.get("operation_params") or {}).get("vnfcInstanceId") or []
        )
        resource = {
            "resourceId": occ["id"],
            "vimLevelResourceType": "VnfLcmOpOcc",
        }
        alarm = alarms_db.open_for(session, instance["id"]).get(AUTOHEAL_KEY)
        if alarm is not None:
            alarm = alarms_db.change_open(
                session,
                alarm["id"],
                faulty_resource=resource,
                details=details,
                vnfc_ids=vnfcs,
                probable_cause=probable,
            )
        if alarm is None:
            alarm = alarms_db.raise_open(
                session,
                instance,
                AUTOHEAL_KEY,
                faulty_resource=resource,
                severity="MAJOR",
                event_type="PROCESSING_ERROR_ALARM",
                probable_cause=probable,
                fault_type=AUTOHEAL_FAULT,
                details=details,
                vnfc_ids=vnfcs,
            )
        fm_notify.alarm_raised(session, alarm, instance)
        LOG.warning(
            "VNF instance %s: automatic heal %s of %s %s, attempt %d of "
            "%d; alarm %s; %s",
            instance["id"],
            occ["id"],
            ", ".join(vnfcs) or "-",
            how,
            failure.failures,
            failure.attempts,
            alarm["id"],
            details[-1],
        )
        return failure

    def account_ended(self, instance: Mapping[str, Any]) -> None:
        """Count the last automatic heal if it ended without us (the NFVO
        failed or rolled it back, or it COMPLETED: then the count is
        reset and the alarm cleared)."""
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                st = observed_db.autoheal_state(session, instance["id"])
                last = st and st["last_autoheal_op_occ_id"]
                if not last:
                    return
                try:
                    occ = vnf_lcm.get_op_occ(session, last)
                except vnf_lcm.OpOccNotFound:
                    occ = {"id": last, "operation_state": S.FAILED}
                ended = occ["operation_state"]
                if ended not in FINAL:
                    return
                if ended == S.COMPLETED:
                    self._reset(session, instance, f"heal {last} COMPLETED")
                else:
                    self._count_failure(
                        session, instance, occ, f"ended {ended} by the NFVO"
                    )

    def converged(self, instance: Mapping[str, Any]) -> None:
        """The instance is free and free of drift: the alarm (if any) is
        cleared and the count reset."""
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                st = observed_db.autoheal_state(session, instance["id"])
                if st is None or (
                    not st["autoheal_failures"] and not st["backoff_until"]
                ):
                    return
                if st["last_autoheal_op_occ_id"]:
                    return  # its end is accounted first
                self._reset(session, instance, "instance converged")

    def _reset(
        self, session: Any, instance: Mapping[str, Any], why: str
    ) -> None:
        observed_db.set_autoheal_state(session, instance["id"], 0, None, None)
        alarm = alarms_db.open_for(session, instance["id"]).get(AUTOHEAL_KEY)
        cleared = alarm and alarms_db.clear(session, alarm["id"])
        if cleared:
            fm_notify.alarm_cleared(session, cleared, instance)
        LOG.info(
            "VNF instance %s: %s; automatic-heal failures reset%s",
            instance["id"],
            why,
            f", alarm {cleared['id']} cleared" if cleared else "",
        )

    def heal(
        self, instance: Mapping[str, Any], vnfc_ids: list[str]
    ) -> tuple[str | None, bool]:
        """Open and cast an automatic HEAL of ``vnfc_ids``: (its op occ
        id, or None; False when backing off: alarm the drift instead)."""
        now = utcnow()
        occ = None
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                st = observed_db.autoheal_state(session, instance["id"])
                allowed, failures = may_heal(
                    st["autoheal_failures"] if st else 0,
                    st["backoff_until"] if st else None,
                    self.conf.convergence.auto_heal_attempts,
                    now,
                )
                if not allowed:
                    LOG.info(
                        "VNF instance %s: no automatic heal of %s before "
                        "%s (%d failed in a row); alarming",
                        instance["id"],
                        ", ".join(vnfc_ids),
                        st["backoff_until"].isoformat(),
                        failures,
                    )
                    return None, False
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
                    return None, True
                observed_db.set_autoheal_state(
                    session, instance["id"], failures, occ["id"], None
                )
        LOG.info(
            "VNF instance %s: automatic heal %s of %s (%d failed before)",
            instance["id"],
            occ["id"],
            ", ".join(vnfc_ids),
            failures,
        )
        state.cast_or_park(
            self.context, self.cast, occ["id"], S.STARTING, "automatic heal"
        )
        return occ["id"], True
