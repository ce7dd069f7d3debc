"""Automatic scaling: one pass of the closed loop on a conductor.

Every ``[autoscale] interval`` seconds each conductor takes the
INSTANTIATED VNF instances of its shards (:mod:`.shards`: the split of
the PM collector, by instance id, so no two conductors decide for one
VNF) whose instantiate request declared ``scalingRules``, and:

1. ends what the VNFM owes first (:mod:`.autoscale_ops`): its own
   automatic SCALE left in FAILED_TEMP is failed or rolled back, an
   automatic SCALE that ended since the last pass is accounted (its
   alarm cleared when it COMPLETED);
2. measures each metric the free instances' rules read with ONE call
   for all of them (per metric and window: queries grow with the metrics,
   never with the VNFs);
3. decides per rule (:func:`.scaling_rules.decide`: thresholds, the
   projected scale-in that keeps a load at the threshold from flapping,
   the cooldown after any SCALE of the instance, min/max levels) and
   starts at most one automatic SCALE per instance.

A Prometheus that fails is said once per pass (a warning, no traceback)
and nothing is decided: a missing value must not read as "no load".

Rules are parsed against the instance's VNFD once per instantiation
(cached by the INSTANTIATE op occ, VNFD and flavour).
"""

import collections
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import periodic
from tacker_ng.db import api as db_api
from tacker_ng.db import pm_autoscale as state_db
from tacker_ng.db.types import utcnow
from tacker_ng.lcm import automatic
from tacker_ng.objects.vnfd import DeploymentFlavour
from tacker_ng.packages import catalog
from tacker_ng.pm import measurements, scaling_rules, shards
from tacker_ng.pm.autoscale_ops import AutoScaleOps, Cast
from tacker_ng.pm.prometheus import PrometheusError
from tacker_ng.pm.scaling_rules import ScalingRule

LOG = logging.getLogger(__name__)

#: (metric name, VNF instance ids, window seconds) -> {(vnfInstanceId,
#: vnfcId or None): value}; one Prometheus query for all the ids.
Measure = Callable[
    [str, Sequence[str], int], Mapping[tuple[str, str | None], float]
]
#: The VNFD flavour an instance runs (its package's, by vnfdId).
FlavourOf = Callable[[Mapping[str, Any]], DeploymentFlavour]


def package_flavour(instance: Mapping[str, Any]) -> DeploymentFlavour:
    """The flavour of the instance's VNFD, from its onboarded package."""
    with db_api.reader() as session:
        package = catalog.find_onboarded(
            session, instance["vnfd_id"], enabled_only=False
        )
    vnfd = catalog.load(package["id"]).vnfd
    info = instance["instantiated_vnf_info"] or {}
    return vnfd.flavour(info.get("flavourId") or "")


class AutoScaler:
    """The pass of one conductor (module doc)."""

    def __init__(
        self,
        host: str,
        live_hosts: Callable[[], Iterable[str]],
        measure: Measure,
        ops: AutoScaleOps,
        conf: cfg.ConfigOpts = cfg.CONF,
        flavour_of: FlavourOf = package_flavour,
    ) -> None:
        self.host = host
        self.live_hosts = live_hosts
        self.measure = measure
        self.ops = ops
        self.conf = conf
        self.flavour_of = flavour_of
        #: INSTANTIATE op occ id -> its raw scalingRules (None: none).
        self._declared: dict[str, Any] = {}
        #: (op occ id, vnfd id, flavour id) -> the parsed rules.
        self._parsed: dict[tuple[str, str, str], list[ScalingRule]] = {}

    # -- which instances -----------------------------------------------

    def _mine(self) -> dict[str, str]:
        """My instances with declared rules -> their INSTANTIATE op occ."""
        owned = shards.owned(self.host, self.live_hosts())
        with db_api.reader() as session:
            sources = {
                i: occ
                for i, occ in state_db.instantiated(session).items()
                if shards.shard_of(i) in owned
            }
            unread = set(sources.values()) - set(self._declared)
            for occ_id, params in state_db.additional_params(
                session, unread
            ).items():
                self._declared[occ_id] = params.get(scaling_rules.PARAM)
        live = set(sources.values())
        for gone in set(self._declared) - live:
            del self._declared[gone]
        for key in [k for k in self._parsed if k[0] not in live]:
            del self._parsed[key]
        return {i: o for i, o in sources.items() if self._declared.get(o)}

    def _rules(
        self, instance: Mapping[str, Any], source: str
    ) -> list[ScalingRule]:
        info = instance["instantiated_vnf_info"] or {}
        key = (source, instance["vnfd_id"], info.get("flavourId") or "")
        if key not in self._parsed:
            try:
                self._parsed[key] = scaling_rules.parse(
                    {scaling_rules.PARAM: self._declared[source]},
                    self.flavour_of(instance),
                    measurements.table(self.conf),
                    self.conf.autoscale.default_cooldown,
                )
            except Exception as exc:  # a package or table changed since
                LOG.warning(
                    "VNF instance %s: its scaling rules are ignored: %s",
                    instance["id"],
                    exc,
                )
                self._parsed[key] = []
        return self._parsed[key]

    # -- the pass --------------------------------------------------------

    def run_pass(self) -> dict[str, Any] | None:
        """One pass (module doc); a report for logs and tests."""
        if not self.conf.autoscale.enabled:
            return None
        report: dict[str, Any] = {
            "instances": 0,
            "measured": [],
            "scales": [],
            "decisions": {},
        }
        for attempt in db_api.retrying():
            with attempt, db_api.writer() as session:
                state_db.forget_departed(session)
        sources = self._mine()
        if not sources:
            return report
        with db_api.reader() as session:
            rows = state_db.instances(session, sources)
        free = []
        for row in rows:
            rules = self._rules(row, sources[row["id"]])
            if rules and self.ops.free(row):
                self.ops.account_ended(row)
                free.append((row, rules))
        report["instances"] = len(free)
        if not free:
            return report
        now = utcnow()
        ids = [row["id"] for row, _ in free]
        with db_api.reader() as session:
            states = state_db.states(session, ids)
            ends = state_db.last_scale_ends(session, ids)
        waiting = {
            i
            for i, st in states.items()
            if not automatic.may_start(
                st["failures"],
                st["backoff_until"],
                self.conf.autoscale.attempts,
                now,
            )[0]
        }
        free = [
            (row, rules) for row, rules in free if row["id"] not in waiting
        ]
        measured = self._measure(free, report)
        if measured is None:
            return report
        window = self.conf.autoscale.window
        for row, rules in free:
            info = row["instantiated_vnf_info"] or {}
            vnfcs = info.get("vnfcResourceInfo") or []
            decisions = []
            for rule in rules:
                values, count = scaling_rules.values_of(
                    rule, row["id"], vnfcs, measured[(rule.metric, window)]
                )
                decisions.append(
                    scaling_rules.decide(
                        rule,
                        values,
                        scaling_rules.scale_level(info, rule.aspect_id),
                        count,
                        ends.get(row["id"]),
                        now,
                    )
                )
            report["decisions"][row["id"]] = decisions
            chosen = scaling_rules.combine(decisions)
            if chosen is not None:
                occ_id = self.ops.start(row, chosen)
                if occ_id is not None:
                    report["scales"].append(occ_id)
        return report

    def _measure(
        self,
        free: list[tuple[Mapping[str, Any], list[ScalingRule]]],
        report: dict[str, Any],
    ) -> dict[tuple[str, int], Mapping[tuple[str, str | None], float]] | None:
        """One measure() per (metric, window) for every instance that
        reads it; None when Prometheus failed (said once)."""
        window = self.conf.autoscale.window
        wanted: dict[tuple[str, int], set[str]] = collections.defaultdict(set)
        for row, rules in free:
            for rule in rules:
                wanted[(rule.metric, window)].add(row["id"])
        out = {}
        for (metric, win), ids in sorted(wanted.items()):
            try:
                out[(metric, win)] = self.measure(metric, sorted(ids), win)
            except PrometheusError as exc:
                LOG.warning(
                    "Automatic scaling decides nothing this pass: measuring "
                    "%s failed: %s",
                    metric,
                    exc,
                )
                return None
            report["measured"].append(metric)
        return out


def periodic_job(
    conf: cfg.ConfigOpts,
    host: str,
    live_hosts: Callable[[], Iterable[str]],
    measure: Measure,
    cast: Cast,
    rollback_cast: Cast | None,
) -> periodic.PeriodicJob:
    """The conductor's automatic-scaling job (every conductor runs it on
    its shards; a pass does nothing while ``[autoscale] enabled`` is
    off). ``cast`` runs an op occ, ``rollback_cast`` rolls one back."""
    ops = AutoScaleOps(tcontext.get_admin_context(), cast, rollback_cast, conf)
    scaler = AutoScaler(host, live_hosts, measure, ops, conf)
    return periodic.PeriodicJob(
        "pm_autoscale", conf.autoscale.interval, scaler.run_pass
    )
