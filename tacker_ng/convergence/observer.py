"""The observer: one batched listing per VIM and cycle, observed state
written, drift handed to the converger.

A cycle reads the INSTANTIATED instances page by page, groups their
desired VNFCs by VIM (instances sharing credentials share one listing),
keeps the VIMs this conductor owns (:mod:`.shard`), lists each once
(:mod:`.nova`), judges every VNFC (:mod:`.drift`), records the observation
and lets :class:`~.converge.Converger` act on the instances with drift.
A VIM that cannot be listed is skipped: not hearing from Nova is not a
VNFC gone.
"""

import collections
import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import crypto
from tacker_ng.convergence import (
    converge,
    departed,
    drift,
    heat,
    kubernetes,
    nova,
    refresh,
    scrape_targets,
    shard,
    vims,
)
from tacker_ng.convergence.desired import DesiredVnfc, desired_vnfcs
from tacker_ng.db import api as db_api
from tacker_ng.db import observed as observed_db
from tacker_ng.infra.openstack import errors
from tacker_ng.pm import discovery

LOG = logging.getLogger(__name__)

#: Instances per database statement batch.
CHUNK = 500

Lister = Callable[[dict[str, Any]], Any]
#: (Kubernetes VIM, namespaces) -> a VimListing of their pods.
PodLister = Callable[[dict[str, Any], Iterable[str]], Any]
#: OpenStack VIM -> (FAILED stacks by name, or None: unknown; calls).
StackLister = Callable[
    [dict[str, Any]], tuple[dict[str, drift.StackState] | None, int]
]
#: (OpenStack VIM, stack names) -> (those Heat does not have, calls).
StackFinder = Callable[[dict[str, Any], Iterable[str]], tuple[set[str], int]]


@dataclasses.dataclass
class CycleReport:
    """Figures of one observation cycle."""

    vims: int = 0
    vims_skipped: int = 0
    vim_calls: int = 0
    pod_list_calls: int = 0
    stack_list_calls: int = 0
    stacks_failed: int = 0
    stacks_missing: int = 0
    scrape_files_changed: int = 0
    vnfcs_refreshed: int = 0
    instances: int = 0
    vnfcs: int = 0
    drifted: int = 0
    heals: list[str] = dataclasses.field(default_factory=list)
    alarms_raised: int = 0
    alarms_cleared: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def nova_lister(vim: dict[str, Any]) -> nova.VimListing:
    return nova.NovaLister(vim).listing()


class Observer:
    """One conductor's observer."""

    def __init__(
        self,
        host: str,
        converger: converge.Converger,
        live_hosts: Callable[[], Iterable[str]],
        lister: Lister = nova_lister,
        conf: cfg.ConfigOpts = cfg.CONF,
        pod_lister: PodLister = kubernetes.kubernetes_lister,
        stack_lister: StackLister | None = None,
        stack_finder: StackFinder | None = None,
    ) -> None:
        self.host = host
        self.converger = converger
        self.live_hosts = live_hosts
        self.lister = lister
        self.conf = conf
        self.pod_lister = pod_lister
        # Heat is asked beside the real Nova lister; a stand-in Nova
        # (tests, the bench) has no Heat unless one is given.
        if stack_lister is None and lister is nova_lister:
            stack_lister = heat.heat_lister
        if stack_finder is None and lister is nova_lister:
            stack_finder = heat.missing_stacks
        self.stack_lister = stack_lister
        self.stack_finder = stack_finder
        #: PM's scrape target files (``[pm] file_sd_dir``), if any.
        self.targets = discovery.target_files(conf)

    # -- gathering ------------------------------------------------------

    def _instances(
        self, ids: Sequence[str] | None
    ) -> Iterable[Mapping[str, Any]]:
        with db_api.reader() as s:
            if ids is not None:
                yield from observed_db.instantiated(s, ids=ids)
                return
        after = None
        while True:
            with db_api.reader() as s:
                page = observed_db.instantiated(s, after=after, limit=CHUNK)
            yield from page
            if len(page) < CHUNK:
                return
            after = page[-1]["id"]

    def _group(
        self, instances: Iterable[Mapping[str, Any]], report: CycleReport
    ) -> dict[str, tuple[dict, dict[str, Any], list[DesiredVnfc]]]:
        """VIM key -> (VIM, instances by id, desired VNFCs)."""
        groups: dict[str, tuple[dict, dict[str, Any], list[DesiredVnfc]]]
        groups = {}
        # Opening a VIM's secrets (Fernet) once per distinct sealed VIM
        # and cycle, not once per VNFC: it was 15 % of a cycle.
        opened: dict[tuple[str | None, str], dict | None] = {}
        for instance in instances:
            report.instances += 1
            for vnfc in desired_vnfcs(instance):
                try:
                    vim = vims.resolve_cached(
                        opened, instance, vnfc.vim_connection_id, self.conf
                    )
                except crypto.SecretsUnavailable as exc:
                    LOG.warning(
                        "Observer: VNF instance %s not observed: %s",
                        instance["id"],
                        exc,
                    )
                    break
                if vim is None:
                    continue
                key = shard.vim_key(vim)
                entry = groups.setdefault(key, (vim, {}, []))
                entry[1][instance["id"]] = instance
                entry[2].append(vnfc)
        return groups

    # -- one cycle ------------------------------------------------------

    def run_cycle(self, instance_ids: Sequence[str] | None = None) -> dict:
        """Observe every VIM this conductor owns (or only the VIMs of
        ``instance_ids``, for an on-demand observation, whoever owns
        them). Returns the cycle's figures."""
        start = time.perf_counter()
        report = CycleReport()
        live = list(self.live_hosts()) or [self.host]
        by_instance = (
            instance_ids is None
            and self.conf.convergence.shard_by == "instance"
        )
        found = self._instances(instance_ids)
        if by_instance:
            found = (
                i for i in found if shard.owner(i["id"], live) == self.host
            )
        groups = self._group(found, report)
        for key, (vim, instances, wanted) in groups.items():
            if (
                instance_ids is None
                and not by_instance
                and shard.owner(key, live) != self.host
            ):
                continue
            report.vims += 1
            try:
                listing = self._list(vim, wanted, report)
            except (errors.VimError, errors.InvalidVimConnection) as exc:
                report.vims_skipped += 1
                LOG.warning(
                    "Observer: VIM %s not observed: %s",
                    vim.get("vimId") or "?",
                    exc,
                )
                continue
            report.vim_calls += listing.calls
            stacks = None
            if not kubernetes.is_kubernetes(vim):
                stacks = self._stacks(vim, report)
            self._observe_vim(instances, wanted, listing, report, stacks, vim)
        if instance_ids is None:
            report.alarms_cleared += self.converger.clear_departed()
            if self.targets is not None:
                report.scrape_files_changed += scrape_targets.sweep(
                    self.targets
                )
        report.seconds = round(time.perf_counter() - start, 3)
        LOG.debug("Observer cycle: %s", report.as_dict())
        return report.as_dict()

    def _list(
        self,
        vim: dict[str, Any],
        wanted: list[DesiredVnfc],
        report: CycleReport,
    ) -> nova.VimListing:
        """The VIM's listing: Nova's servers, or the pods of the
        namespaces holding ``wanted`` VNFCs (one paged list each)."""
        if not kubernetes.is_kubernetes(vim):
            return self.lister(vim)
        namespaces = sorted({w.namespace for w in wanted if w.namespace})
        listing = self.pod_lister(vim, namespaces)
        report.pod_list_calls += listing.calls
        return listing

    def _stacks(
        self, vim: dict[str, Any], report: CycleReport
    ) -> dict[str, drift.StackState] | None:
        """FAILED stacks of an OpenStack VIM; None when unknown (no
        Heat, or Heat did not answer: the servers are still judged)."""
        if self.stack_lister is None:
            return None
        try:
            stacks, calls = self.stack_lister(vim)
        except (errors.VimError, errors.InvalidVimConnection) as exc:
            LOG.warning(
                "Observer: stacks of VIM %s not observed: %s",
                vim.get("vimId") or "?",
                exc,
            )
            return None
        report.vim_calls += calls
        report.stack_list_calls += calls
        return stacks

    def _observe_vim(
        self,
        instances: dict[str, Mapping[str, Any]],
        wanted: list[DesiredVnfc],
        listing: nova.VimListing,
        report: CycleReport,
        stacks: dict[str, drift.StackState] | None = None,
        vim: dict[str, Any] | None = None,
    ) -> None:
        judged = drift.judge_all(wanted, listing.servers, listing.hosts_up)
        report.vnfcs_refreshed += refresh.refresh_replaced(instances, judged)
        if self.targets is not None and vim is not None:
            report.scrape_files_changed += scrape_targets.publish(
                self.targets, vim, instances, judged, self.conf
            )
        report.vnfcs += len(judged)
        by_instance: dict[str, list[drift.Observation]] = (
            collections.defaultdict(list)
        )
        for obs in judged:
            by_instance[obs.desired.vnf_instance_id].append(obs)
        ids = sorted(instances)
        changed: set[str] = set()
        failed = {}
        if stacks is not None:
            failed = {
                iid: stacks[heat.stack_name(iid)]
                for iid in ids
                if heat.stack_name(iid) in stacks
            }
            report.stacks_failed += len(failed)
            failed.update(self._lost_stacks(vim, ids, by_instance, report))
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i : i + CHUNK]
            rows = [
                _row(obs) for iid in chunk for obs in by_instance.get(iid, ())
            ]
            for attempt in db_api.retrying():
                with attempt, db_api.writer() as s:
                    moved = observed_db.record(s, chunk, rows)
                    changed.update(
                        departed.with_departed_alarms(
                            s, chunk, instances, stacks is not None
                        )
                    )
            changed.update(r["vnf_instance_id"] for r in moved)
        changed.update(failed)
        for iid in ids:
            observations = by_instance.get(iid, [])
            drifted = [o for o in observations if o.drift]
            report.drifted += len(drifted)
            held = instances[iid]["current_op_occ_id"]  # (see autoops)
            if not drifted and iid not in changed and not held:
                continue
            out = self.converger.converge(
                instances[iid],
                observations,
                stack_known=stacks is not None,
                failed_stack=failed.get(iid),
            )
            if out.heal_op_occ_id:
                report.heals.append(out.heal_op_occ_id)
            report.alarms_raised += len(out.raised)
            report.alarms_cleared += len(out.cleared)

    def _lost_stacks(
        self,
        vim: dict[str, Any] | None,
        ids: Sequence[str],
        by_instance: Mapping[str, list[drift.Observation]],
        report: CycleReport,
    ) -> dict[str, drift.StackState]:
        """Instance id -> its stack as missing, for the instances whose
        every server is missing and whose stack Heat no longer has (one
        listing for all of them; none when no instance lost every
        server). Heat not answering leaves them to the VNFC drift."""
        names = {
            heat.stack_name(iid): iid
            for iid in ids
            if drift.all_missing(by_instance.get(iid, []))
        }
        if not names or vim is None or self.stack_finder is None:
            return {}
        try:
            gone, calls = self.stack_finder(vim, names)
        except (errors.VimError, errors.InvalidVimConnection) as exc:
            LOG.warning(
                "Observer: stacks of VIM %s not found out: %s",
                vim.get("vimId") or "?",
                exc,
            )
            return {}
        report.vim_calls += calls
        report.stack_list_calls += calls
        report.stacks_missing += len(gone)
        for name in sorted(gone):
            LOG.warning(
                "Observer: VNF instance %s: stack %s is gone from Heat",
                names[name],
                name,
            )
        return {names[n]: drift.missing_stack(n) for n in gone}


def _row(obs: drift.Observation) -> dict:
    d, server = obs.desired, obs.server
    resource_id = d.resource_id
    if obs.replaced_by is not None:
        resource_id = obs.replaced_by.id
    return {
        "vnf_instance_id": d.vnf_instance_id,
        "vnfc_id": d.vnfc_id,
        "vdu_id": d.vdu_id,
        "vim_connection_id": d.vim_connection_id,
        "resource_id": resource_id,
        "status": server.status if server else None,
        "host": server.host if server else None,
        "host_up": obs.host_up,
        "zone": server.zone if server else None,
        "drift": str(obs.drift) if obs.drift else None,
    }
