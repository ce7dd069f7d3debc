"""Keep every registered VIM's status (REACHABLE / UNREACHABLE, with
the reason in tacker-ng's words) up to date.

One conductor (the elected ``vim_status`` leader) probes every VIM of the
registry each ``[vim] status_interval`` seconds, a few at a time, and
writes what changed. An operator therefore sees a VIM that stopped
answering as UNREACHABLE within one interval, and the next VNF
operation's failure is no surprise.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent import futures
from typing import Any

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import crypto, periodic
from tacker_ng.db import api as db_api
from tacker_ng.db import vim_registry
from tacker_ng.infra.kubernetes import reachability as k8s_reach
from tacker_ng.infra.openstack import reachability as os_reach
from tacker_ng.objects import tacker_vim

LOG = logging.getLogger(__name__)

PROBES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    tacker_vim.OPENSTACK: os_reach.probe,
    tacker_vim.KUBERNETES: k8s_reach.probe,
}
#: VIMs probed at the same time.
PARALLEL = 4


def _probe(vim_id: str, sealed: dict[str, Any]) -> str | None:
    probe = PROBES.get(sealed.get("vimType", ""))
    if probe is None:
        return None  # a type tacker-ng does not probe (test drivers)
    try:
        return probe({**crypto.unseal(sealed), "vimId": vim_id})
    except crypto.SecretsUnavailable:
        return "its credentials cannot be decrypted with the current keys"
    except Exception:  # noqa: BLE001 - a bug must not stop the others
        LOG.exception("Probing VIM %s failed unexpectedly", vim_id)
        return "the reachability check failed; see the conductor log"


def check_all() -> dict[str, str]:
    """Probe every registered VIM and record the results; returns
    ``{vim_id: status}``."""
    ctx = tcontext.get_admin_context()
    with db_api.reader(ctx) as session:
        rows = vim_registry.for_status(session)
    with futures.ThreadPoolExecutor(PARALLEL) as pool:
        reasons = dict(
            zip(
                [r["vim_id"] for r in rows],
                pool.map(
                    lambda r: _probe(r["vim_id"], r["vim_connection_info"]),
                    rows,
                ),
                strict=True,
            )
        )
    statuses = {}
    for row in rows:
        vim_id = row["vim_id"]
        reason = reasons[vim_id]
        status = "UNREACHABLE" if reason else "REACHABLE"
        statuses[vim_id] = status
        for attempt in db_api.retrying():
            with attempt, db_api.writer(ctx) as session:
                changed = vim_registry.set_status(
                    session, vim_id, status, reason
                )
        if changed:
            log = LOG.warning if reason else LOG.info
            log(
                "VIM %s is %s%s",
                vim_id,
                status,
                f": {reason}" if reason else "",
            )
    return statuses


def periodic_jobs(conf: cfg.ConfigOpts) -> list[periodic.PeriodicJob]:
    """The leader's VIM status job."""
    return [
        periodic.PeriodicJob(
            "vim_status",
            conf.vim.status_interval,
            check_all,
            leader="vim_status",
        )
    ]
