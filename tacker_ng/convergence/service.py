"""The observer inside a conductor: its periodic jobs.

Every conductor runs the observation cycle on its own share of the VIMs
(no leader: :mod:`.shard` splits the VIMs among the live conductors), and
polls the on-demand requests of ``POST /v1/vnf_instances/{id}/observe``.
"""

import datetime
from collections.abc import Callable
from typing import Any

from oslo_config import cfg

from tacker_ng import context as tcontext
from tacker_ng import periodic
from tacker_ng.convergence import converge, observer
from tacker_ng.db import api as db_api
from tacker_ng.db import conductors as conductors_db
from tacker_ng.db import observed as observed_db
from tacker_ng.db.types import utcnow
from tacker_ng.metrics import conductor as conductor_metrics

#: Seconds between two looks at on-demand observation requests.
REQUEST_POLL = 2.0


def live_conductors(conf: cfg.ConfigOpts = cfg.CONF) -> list[str]:
    """Hostnames of the conductors whose heartbeat is fresh."""
    alive_after = utcnow() - datetime.timedelta(
        seconds=conf.conductor.heartbeat_timeout
    )
    return [
        c["hostname"]
        for c in conductors_db.list_all(None, alive_after)
        if c["alive"]
    ]


def make_observer(
    host: str,
    cast: Callable[[Any, str], None],
    conf: cfg.ConfigOpts = cfg.CONF,
    lister: observer.Lister = observer.nova_lister,
    rollback_cast: Callable[[Any, str], None] | None = None,
) -> observer.Observer:
    converger = converge.Converger(
        tcontext.get_admin_context(), cast, conf, rollback_cast
    )
    return observer.Observer(
        host, converger, lambda: live_conductors(conf), lister, conf
    )


def serve_requests(obs: observer.Observer) -> dict | None:
    """Observe the instances someone asked for, if any."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            ids = observed_db.claim_observation_requests(session)
    if not ids:
        return None
    return obs.run_cycle(instance_ids=ids)


def periodic_jobs(
    conf: cfg.ConfigOpts,
    host: str,
    cast: Callable[[Any, str], None],
    rollback_cast: Callable[[Any, str], None] | None = None,
) -> list[periodic.PeriodicJob]:
    """The observer's jobs (none when ``[convergence] enabled`` is off);
    ``cast`` runs an op occ, ``rollback_cast`` rolls one back."""
    if not conf.convergence.enabled:
        return []
    obs = make_observer(host, cast, conf, rollback_cast=rollback_cast)
    return [
        periodic.PeriodicJob(
            "convergence_observe",
            conf.convergence.observe_interval,
            conductor_metrics.timed_cycle(obs.run_cycle),
        ),
        periodic.PeriodicJob(
            "convergence_observe_requests",
            REQUEST_POLL,
            lambda: serve_requests(obs),
        ),
    ]
