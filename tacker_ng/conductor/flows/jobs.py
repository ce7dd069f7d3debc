"""Hand LCM operations between conductors through a taskflow jobboard.

The conductor that receives an operation (RPC cast) posts it as a job on
a Redis jobboard (Redis already runs beside every deployment for tooz;
its claims expire by themselves, which is what detects a dead conductor
without any extra failure detector). Every conductor claims unclaimed
jobs with an expiry of ``[conductor] claim_timeout`` and renews the
claims it holds every third of it. A conductor that is killed stops
renewing: its claims expire and another conductor claims the job, moves
the op occ's SQL claim to itself and resumes the flow from its last
finished task (taskflow's persisted atoms). SIGTERM stops claiming,
lets running jobs finish for ``graceful_shutdown_timeout`` and abandons
(hands back) the rest. A Redis outage is logged once by each loop when
Redis is lost and once when it is back (:mod:`tacker_ng.connectivity`).
"""

from __future__ import annotations

import threading
import urllib.parse
from collections.abc import Callable
from typing import Any

from futurist import ThreadPoolExecutor
from oslo_config import cfg
from oslo_log import log as logging
from taskflow import exceptions as tf_exc
from taskflow.jobs import backends as job_backends

from tacker_ng import connectivity
from tacker_ng import context as tcontext
from tacker_ng.conductor.operations import runner
from tacker_ng.db import api as db_api
from tacker_ng.db import lcm_claims

LOG = logging.getLogger(__name__)

#: Seconds between two looks for unclaimed jobs.
POLL_INTERVAL = 0.5
#: Seconds before an interrupted job (database lost) is handed back.
RETRY_DELAY = 2.0
BOARD_NAME = "tacker-ng-lcm"

#: (context, op occ id, host) -> None: runner.run or runner.rollback.
Handler = Callable[[Any, str, str], None]


def board_conf(url: str, fleet: str) -> dict[str, Any]:
    """taskflow's Redis jobboard configuration from a ``redis://`` URL;
    ``fleet`` (the conductors' RPC topic) names the board, so fleets that
    share a Redis never take each other's jobs."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme != "redis":
        raise ValueError(
            f"[conductor] jobboard_url must be redis://host:port/db, "
            f"not {parsed.scheme}://"
        )
    conf: dict[str, Any] = {
        "board": "redis",
        "host": parsed.hostname or "127.0.0.1",
        "port": parsed.port or 6379,
        "namespace": f"{BOARD_NAME}-{fleet}",
    }
    db = parsed.path.strip("/")
    if db:
        conf["db"] = int(db)
    if parsed.password:
        conf["password"] = urllib.parse.unquote(parsed.password)
    return conf


def take_over(context, op_occ_id: str, host: str) -> str | None:
    """Move the op occ's SQL claim to ``host``, which holds its job now;
    returns the conductor it came from (None if it was free or ours)."""
    with db_api.reader(context) as session:
        previous = lcm_claims.owner(session, op_occ_id)
    if previous in (None, host):
        return None
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            moved = lcm_claims.take_over(session, op_occ_id, host, previous)
    if moved:
        LOG.warning(
            "Op occ %s: %s lost its job; %s resumes it",
            op_occ_id,
            previous,
            host,
        )
    return previous


class JobBoard:
    """This conductor's side of the jobboard: post, claim, run, renew."""

    def __init__(
        self,
        conf: cfg.ConfigOpts,
        host: str,
        handlers: dict[str, Handler],
    ) -> None:
        self.conf = conf
        self.host = host
        self._handlers = handlers
        self._board: Any = None
        self._held: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._closed = threading.Event()
        self._workers = conf.conductor.job_workers
        self._pool = ThreadPoolExecutor(max_workers=self._workers)
        self._threads: list[threading.Thread] = []
        self._claiming = connectivity.ConnectionHealth("jobboard", LOG)
        self._renewing = connectivity.ConnectionHealth(
            "jobboard claim renewals", LOG
        )

    # -- life cycle ---------------------------------------------------------
    def start(self) -> None:
        """Connect, then claim and renew in two background threads."""
        board = job_backends.fetch(
            BOARD_NAME,
            board_conf(
                self.conf.conductor.jobboard_url, self.conf.conductor.topic
            ),
        )
        board.connect()
        self._board = board
        for name, target in (
            ("claim", self._claim_loop),
            ("renew", self._renew_loop),
        ):
            thread = threading.Thread(
                target=target, name=f"jobboard-{name}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        LOG.info("Conductor %s claims LCM jobs from the jobboard", self.host)

    def stop(self, timeout: float) -> list[str]:
        """Stop claiming; let running jobs end within ``timeout`` seconds,
        then hand the others back. Returns the op occs handed back."""
        self._stopping.set()
        self._threads[0].join()
        self._pool.shutdown(wait=False)
        done = threading.Event()

        def drained() -> None:
            while self.held() and not done.is_set():
                done.wait(0.1)

        waiter = threading.Thread(target=drained, daemon=True)
        waiter.start()
        waiter.join(timeout)
        done.set()
        handed_back = []
        with self._lock:
            held, self._held = dict(self._held), {}
        for job in held.values():
            try:
                self._board.abandon(job, self.host)
                handed_back.append(job.details["op_occ_id"])
            except tf_exc.TaskFlowException:
                LOG.exception("Could not hand job %s back", job.name)
        if handed_back:
            LOG.warning("Handed back to other conductors: %s", handed_back)
        self._closed.set()
        self._threads[1].join()
        self._board.close()
        return handed_back

    def depth(self) -> tuple[int, int]:
        """(jobs on the board, jobs no conductor has claimed), for the
        conductor's metrics."""
        total = self._board.job_count
        unclaimed = sum(
            1
            for _ in self._board.iterjobs(
                only_unclaimed=True, ensure_fresh=True
            )
        )
        return total, unclaimed

    def held(self) -> list[str]:
        """Op occ ids of the jobs this conductor holds."""
        with self._lock:
            return [job.details["op_occ_id"] for job in self._held.values()]

    # -- posting ------------------------------------------------------------
    def post(self, context, kind: str, op_occ_id: str) -> bool:
        """Post the op occ as a job unless one is already on the board
        (a duplicate cast or a re-dispatch must not make a second)."""
        name = f"{kind}:{op_occ_id}"
        for job in self._board.iterjobs(ensure_fresh=True):
            if job.name == name:
                LOG.info("Job %s is already posted", name)
                return False
        self._board.post(
            name,
            details={
                "kind": kind,
                "op_occ_id": op_occ_id,
                "context": context.to_dict(),
            },
        )
        LOG.info("Posted job %s", name)
        return True

    # -- claiming and running -----------------------------------------------
    def _claim_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                self._claim_some()
            except Exception as exc:
                if not self._claiming.failed(exc):
                    LOG.exception("Looking for jobs failed; trying again")
            else:
                self._claiming.ok()
            self._stopping.wait(POLL_INTERVAL)

    def _claim_some(self) -> None:
        for job in self._board.iterjobs(
            only_unclaimed=True, ensure_fresh=True
        ):
            if self._stopping.is_set() or len(self.held()) >= self._workers:
                return
            try:
                self._board.claim(
                    job, self.host, expiry=self.conf.conductor.claim_timeout
                )
            except (tf_exc.UnclaimableJob, tf_exc.NotFound):
                continue
            with self._lock:
                self._held[job.uuid] = job
            self._pool.submit(self._run, job)

    def _run(self, job) -> None:
        details = job.details
        op_occ_id = details["op_occ_id"]
        context = tcontext.RequestContext.from_dict(details["context"])
        finished = False
        try:
            take_over(context, op_occ_id, self.host)
            self._handlers[details["kind"]](context, op_occ_id, self.host)
            finished = True
        except Exception as exc:
            if runner.database_unreachable(exc):
                # Nothing was decided: run it again once the database is
                # back (any conductor, after a short pause).
                LOG.warning(
                    "Job %s interrupted (database unreachable); handing "
                    "it back",
                    job.name,
                )
                self._stopping.wait(RETRY_DELAY)
            else:
                LOG.exception("Job %s failed", job.name)
                finished = True
        with self._lock:
            mine = self._held.pop(job.uuid, None)
        if mine is None:
            return  # handed back on stop meanwhile
        try:
            if finished:
                self._board.consume(job, self.host)
            else:
                self._board.abandon(job, self.host)
        except tf_exc.TaskFlowException as exc:
            service = connectivity.service_of(exc)
            if service is None:
                LOG.exception("Could not release job %s", job.name)
            else:
                # Its claim expires and another conductor runs it again.
                LOG.warning(
                    "Could not release job %s (%s unreachable: %s)",
                    job.name,
                    service,
                    connectivity.reason(exc),
                )

    def _renew_loop(self) -> None:
        timeout = self.conf.conductor.claim_timeout
        # Renewed until the jobs are consumed or handed back (also while a
        # graceful stop waits for them).
        while not self._closed.wait(timeout / 3):
            with self._lock:
                held = list(self._held.values())
            renewed = True
            for job in held:
                try:
                    if not job.extend_expiry(timeout):
                        LOG.error("Lost the claim of job %s", job.name)
                except tf_exc.TaskFlowException as exc:
                    renewed = False
                    if not self._renewing.failed(exc):
                        LOG.exception("Could not renew job %s", job.name)
            if renewed and held:
                self._renewing.ok()
