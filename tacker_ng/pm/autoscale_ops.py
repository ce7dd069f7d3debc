"""The VNFM's own automatic scales: it starts them, ends them, alarms them.

The automatic-operation rules of the architecture, as auto-heal follows
them (:mod:`tacker_ng.convergence.autoops`), for SCALE:

* an automatic SCALE opens its op occ like any request
  (:func:`tacker_ng.lcm.starting.open_op_occ`, ``isAutomaticInvocation``
  true): the database decides whether another operation holds the
  instance (409 -> nothing starts, nothing is logged above debug);
* one that ends FAILED_TEMP is failed by the VNFM on the next pass (or,
  with ``[autoscale] failed_action = rollback``, rolled back; a rollback
  that fails too is then failed), so it never holds the instance; each
  failure in a row, and one the NFVO failed or rolled back itself,
  delays the next automatic scale exponentially
  (:mod:`tacker_ng.lcm.automatic`) and raises or updates one FM alarm per
  instance (key :data:`AUTOSCALE_KEY`); an automatic scale that
  COMPLETES clears it and resets the count.

Crash safety: the count, the next-attempt time and the alarm are written
in the transaction that moves the op occ (to FAILED or ROLLING_BACK), and
``last_op_occ_id`` names the automatic scale not counted yet.
"""

from collections.abc import Callable, Mapping
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng.db import alarms as alarms_db
from tacker_ng.db import api as db_api
from tacker_ng.db import pm_autoscale as state_db
from tacker_ng.db import vnf_lcm
from tacker_ng.db.types import utcnow
from tacker_ng.lcm import automatic, starting
from tacker_ng.lcm import rollback as lcm_rollback
from tacker_ng.lcm import transitions as state
from tacker_ng.nfvo import fm_notify
from tacker_ng.objects import lcm
from tacker_ng.pm.scaling_rules import Decision

LOG = logging.getLogger(__name__)
S = lcm.OperationState

#: Casts an op occ id to the conductors.
Cast = Callable[[Any, str], None]
#: Key of the instance's automatic-scale alarm (a colon: no VNFC's, so
#: the observer leaves it alone).
AUTOSCALE_KEY = "autoscale:failed"
AUTOSCALE_FAULT = "AUTO_SCALE_FAILED"


def is_automatic_scale(occ: Mapping[str, Any]) -> bool:
    return bool(occ["is_automatic_invocation"]) and (
        occ["operation"] == lcm.Operation.SCALE
    )


def alarm_text(
    occ: Mapping[str, Any], how: str, failure: automatic.Failure
) -> tuple[str, list[str]]:
    """(probableCause, faultDetails) of the automatic-scale alarm."""
    error = occ.get("error") or {}
    cause = error.get("detail") or error.get("title") or "unknown error"
    params = occ.get("operation_params") or {}
    when = failure.next_attempt.isoformat()
    if failure.exhausted:
        nxt = f"attempts exhausted; no automatic scale before {when}"
    else:
        nxt = f"next attempt not before {when}"
    rule = (params.get("additionalParams") or {}).get("autoscale") or {}
    probable = f"Automatic scale {occ['id']} failed: {cause}"
    return probable[:255], [
        f"operation: {params.get('type', 'SCALE')} of aspect "
        f"{params.get('aspectId', '-')} by "
        f"{params.get('numberOfSteps', 1)} {occ['id']} (automatic), {how}",
        f"rule: {rule.get('rule') or '-'}; {rule.get('reason') or '-'}",
        f"cause: {error.get('title') or '-'}: {cause}",
        f"attempt {failure.failures} of {failure.attempts}",
        nxt,
    ]


class AutoScaleOps:
    """Starts, settles and accounts the automatic scales (module doc)."""

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

    def free(self, instance: Mapping[str, Any]) -> bool:
        """Whether no operation holds the instance, once the VNFM has
        ended its own automatic scale in FAILED_TEMP (failing it frees
        the instance; rolling it back holds it a while longer)."""
        if not instance["current_op_occ_id"]:
            return True
        with db_api.reader(self.context) as session:
            try:
                occ = vnf_lcm.get_op_occ(
                    session, instance["current_op_occ_id"]
                )
            except vnf_lcm.OpOccNotFound:
                return False
            st = state_db.state(session, instance["id"])
        if occ["operation_state"] != S.FAILED_TEMP or not (
            is_automatic_scale(occ)
        ):
            return False
        # Counted already: the VNFM rolled it back and the rollback failed.
        counted = st is not None and st["last_op_occ_id"] != occ["id"]
        return self._settle(instance, occ, counted)

    def _settle(
        self,
        instance: Mapping[str, Any],
        occ: Mapping[str, Any],
        counted: bool,
    ) -> bool:
        if self.conf.autoscale.failed_action == "rollback" and not counted:
            refusing = lcm_rollback.driver_refusing(
                instance, lcm.Operation.SCALE
            )
            if refusing is None and self.rollback_cast is not None:
                self._roll_back(instance, occ)
                return False
            LOG.warning(
                "VNF instance %s: automatic scale %s cannot be rolled back "
                "(%s); failing it",
                instance["id"],
                occ["id"],
                refusing.name if refusing else "no rollback cast",
            )

        def account(session: Any, _occ: Any) -> None:
            if not counted:
                self._count(session, instance, occ, "failed by the VNFM")

        if not state.finish(
            self.context, occ["id"], S.FAILED, {S.FAILED_TEMP}, also=account
        ):
            return False  # the NFVO's retry, rollback or fail was first
        LOG.warning(
            "VNF instance %s: the VNFM failed its automatic scale %s (%s)",
            instance["id"],
            occ["id"],
            (occ.get("error") or {}).get("detail") or "no detail",
        )
        return True

    def _roll_back(
        self, instance: Mapping[str, Any], occ: Mapping[str, Any]
    ) -> None:
        def account(session: Any, _occ: Any) -> None:
            self._count(session, instance, occ, "rolled back by the VNFM")

        if not state.move(
            self.context,
            occ["id"],
            S.ROLLING_BACK,
            {S.FAILED_TEMP},
            also=account,
            conductor_host=None,
        ):
            return
        LOG.warning(
            "VNF instance %s: the VNFM rolls back its automatic scale %s",
            instance["id"],
            occ["id"],
        )
        # A refused cast: FAILED_TEMP again, counted: the next pass fails it.
        state.cast_or_park(
            self.context,
            self.rollback_cast,  # type: ignore[arg-type]
            occ["id"],
            S.ROLLING_BACK,
            "rollback of",
        )

    def _count(
        self,
        session: Any,
        instance: Mapping[str, Any],
        occ: Mapping[str, Any],
        how: str,
    ) -> None:
        """One more failure in a row: its back-off and the alarm."""
        c = self.conf.autoscale
        st = state_db.state(session, instance["id"])
        failure = automatic.next_failure(
            st["failures"] if st else 0,
            utcnow(),
            attempts=c.attempts,
            base=c.backoff_base,
            cap=c.backoff_max,
            pause=c.backoff_max,
        )
        state_db.set_state(
            session,
            instance["id"],
            failure.failures,
            None,
            failure.next_attempt,
        )
        probable, details = alarm_text(occ, how, failure)
        resource = {
            "resourceId": occ["id"],
            "vimLevelResourceType": "VnfLcmOpOcc",
        }
        alarm = alarms_db.open_for(session, instance["id"]).get(AUTOSCALE_KEY)
        if alarm is not None:
            alarm = alarms_db.change_open(
                session,
                alarm["id"],
                faulty_resource=resource,
                details=details,
                vnfc_ids=[],
                probable_cause=probable,
            )
        if alarm is None:
            alarm = alarms_db.raise_open(
                session,
                instance,
                AUTOSCALE_KEY,
                faulty_resource=resource,
                severity="MAJOR",
                event_type="PROCESSING_ERROR_ALARM",
                probable_cause=probable,
                fault_type=AUTOSCALE_FAULT,
                details=details,
                vnfc_ids=[],
            )
        fm_notify.alarm_raised(session, alarm, instance)
        LOG.warning(
            "VNF instance %s: automatic scale %s %s, attempt %d of %d; "
            "alarm %s; %s",
            instance["id"],
            occ["id"],
            how,
            failure.failures,
            failure.attempts,
            alarm["id"],
            details[-1],
        )

    def account_ended(self, instance: Mapping[str, Any]) -> None:
        """Count the last automatic scale if it ended without us (the
        NFVO failed or rolled it back; COMPLETED: the count is reset and
        the alarm cleared)."""
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                st = state_db.state(session, instance["id"])
                last = st and st["last_op_occ_id"]
                if not last:
                    return
                try:
                    occ = vnf_lcm.get_op_occ(session, last)
                except vnf_lcm.OpOccNotFound:
                    occ = {"id": last, "operation_state": S.FAILED}
                ended = occ["operation_state"]
                if ended not in automatic.FINAL:
                    return
                if ended == S.COMPLETED:
                    self._reset(session, instance, last)
                else:
                    self._count(
                        session, instance, occ, f"ended {ended} by the NFVO"
                    )

    def _reset(
        self, session: Any, instance: Mapping[str, Any], occ_id: str
    ) -> None:
        state_db.set_state(session, instance["id"], 0, None, None)
        alarm = alarms_db.open_for(session, instance["id"]).get(AUTOSCALE_KEY)
        cleared = alarm and alarms_db.clear(session, alarm["id"])
        if cleared:
            fm_notify.alarm_cleared(session, cleared, instance)
            LOG.info(
                "VNF instance %s: automatic scale %s COMPLETED; alarm %s "
                "cleared",
                instance["id"],
                occ_id,
                cleared["id"],
            )

    def start(
        self, instance: Mapping[str, Any], decision: Decision
    ) -> str | None:
        """Open and cast the automatic SCALE of ``decision``; None when
        backing off or another operation holds the instance."""
        assert decision.rule is not None
        params = {
            "type": str(decision.direction),
            "aspectId": decision.rule.aspect_id,
            "numberOfSteps": decision.steps,
            "additionalParams": {
                "autoscale": {
                    "rule": decision.rule.describe(),
                    "reason": decision.reason,
                }
            },
        }
        now = utcnow()
        for attempt in db_api.retrying():
            with attempt, db_api.writer(self.context) as session:
                st = state_db.state(session, instance["id"])
                allowed, failures = automatic.may_start(
                    st["failures"] if st else 0,
                    st["backoff_until"] if st else None,
                    self.conf.autoscale.attempts,
                    now,
                )
                if not allowed:
                    return None
                try:
                    occ = starting.open_op_occ(
                        session,
                        instance["id"],
                        lcm.Operation.SCALE,
                        params,
                        is_automatic=True,
                    )
                except vnf_lcm.OperationConflict as exc:
                    LOG.debug(
                        "VNF instance %s: no automatic %s: %s",
                        instance["id"],
                        decision.direction,
                        exc,
                    )
                    return None
                state_db.set_state(
                    session, instance["id"], failures, occ["id"], None
                )
        LOG.info(
            "VNF instance %s: automatic %s of aspect %s by %d (%s): %s",
            instance["id"],
            decision.direction,
            decision.rule.aspect_id,
            decision.steps,
            decision.reason,
            occ["id"],
        )
        state.cast_or_park(
            self.context, self.cast, occ["id"], S.STARTING, "automatic scale"
        )
        return str(occ["id"])
