"""Onboarding in the conductor: UPLOADING -> PROCESSING -> ONBOARDED | ERROR.

The API leaves a complete upload in the store's incoming area (or an
upload_from_uri request) with the package UPLOADING and casts; a
conductor claims it with a conditional UPDATE, verifies and extracts it
with :func:`~tacker_ng.packages.csar.extract_csar`, and publishes it with
another. A refused package ends ERROR with the refusal's ProblemDetails
and leaves no file behind.

Crashes: the owner of an UPLOADING/PROCESSING package renews a lease
(``updated_at``) while it works. When the owner dies, or the cast is
lost, the lease lapses after ``[vnf_package] onboarding_timeout`` and
:func:`expire_stale` (run by the API whenever it reads packages, and by
every conductor periodically) sets the
package ERROR with reason ``onboarding_interrupted``; the operator can
then delete it and upload again. It is not retried automatically: the
package that was being processed may be what killed the conductor.
"""

import datetime
import threading
from collections.abc import Iterable
from typing import Any

from oslo_config import cfg
from oslo_db import exception as db_exc
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import periodic
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_packages as packages_db
from tacker_ng.db.types import utcnow
from tacker_ng.nfvo import pkgm_notify
from tacker_ng.objects.package_states import OnboardingState as S
from tacker_ng.objects.package_states import OperationalState
from tacker_ng.packages import csar, pkginfo, store, uri_source
from tacker_ng.packages.exceptions import InvalidPackage, InvalidVnfd
from tacker_ng.packages.limits import CsarLimits

LOG = logging.getLogger(__name__)

INTERRUPTED = "onboarding_interrupted"
VNFD_ID_IN_USE = "vnfd_id_in_use"
INTERNAL = "internal_error"


def renew_interval(conf: cfg.ConfigOpts = cfg.CONF) -> float:
    """Seconds between two renewals of an onboarding lease."""
    return conf.vnf_package.onboarding_timeout / 4


class Lease:
    """Keep a package's lease (``updated_at``) fresh while a block runs."""

    def __init__(self, package_id: str, states: Iterable[S]) -> None:
        self.package_id = package_id
        self.states = tuple(states)
        self.interval = renew_interval()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @db_api.retry_on_deadlock
    def renew(self) -> bool:
        """One renewal; False when the package left ``states``."""
        with db_api.writer(tcontext.get_admin_context()) as session:
            return packages_db.update(session, self.package_id, self.states)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                if not self.renew():
                    return
            except Exception:  # noqa: BLE001 - retried at the next tick
                LOG.warning("Lease of package %s not renewed", self.package_id)

    def __enter__(self) -> "Lease":
        self._thread = threading.Thread(
            target=self._run, name=f"lease-{self.package_id}", daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


def problem(status: int, title: str, detail: str, code: str) -> dict[str, Any]:
    """ProblemDetails for onboardingFailureDetails."""
    return {
        "status": status,
        "title": title,
        "detail": detail,
        "reasonCode": code,
    }


def storable(value: Any) -> Any:
    """``value`` with control characters and lone surrogates in strings
    escaped (``\\x00``): a hostile member name must not make the reason
    unstorable (PostgreSQL refuses NUL in JSON)."""
    if isinstance(value, str):
        return "".join(
            f"\\x{ord(ch):02x}"
            if ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) < 0xE000
            else ch
            for ch in value
        )
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(item) for item in value]
    return value


def _to_error(
    context, package_id: str, from_states: Iterable[S], details: dict
) -> bool:
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            moved = packages_db.move(
                session,
                package_id,
                S.ERROR,
                from_states,
                operational_state=OperationalState.DISABLED,
                onboarding_failure_details=storable(details),
            )
            if moved:
                store.discard(package_id)
    return moved


def fail(
    context, package_id: str, from_states: Iterable[S], details: dict
) -> bool:
    """ERROR with ``details`` (if still in ``from_states``); no files kept.

    The files go before the commit, so a package seen in ERROR has none
    left, and only when the UPDATE won (the package was ours). Should the
    database refuse the reason, a generic one is stored instead.
    """
    from_states = tuple(from_states)
    try:
        moved = _to_error(context, package_id, from_states, details)
    except db_exc.DBError:
        LOG.exception("Reason of package %s not stored", package_id)
        moved = _to_error(context, package_id, from_states, _internal())
    LOG.info(
        "VNF package %s: onboarding failed: %s", package_id, details["detail"]
    )
    return moved


def process_upload(context, package_id: str) -> None:
    """Claim an uploaded package (UPLOADING -> PROCESSING) and onboard it."""
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            claimed = packages_db.move(
                session, package_id, S.PROCESSING, {S.UPLOADING}
            )
    if not claimed:
        LOG.info("VNF package %s is no longer UPLOADING; skipped", package_id)
        return
    _process(context, package_id)


def process_from_uri(context, package_id: str) -> None:
    """Download an upload_from_uri package, then onboard it."""
    request = store.take_source(package_id)
    if request is None:
        # Taken by another conductor (duplicate cast) or the package is
        # gone; a request that is really lost ends with the lease.
        LOG.info("No upload_from_uri request for package %s", package_id)
        return
    try:
        with Lease(package_id, {S.UPLOADING}):
            size, checksum = uri_source.download(package_id, request)
        store.complete(package_id)
    except (InvalidPackage, uri_source.FetchFailed) as exc:
        fail(context, package_id, {S.UPLOADING}, exc.to_problem_details())
        return
    except Exception:
        LOG.exception("Download of VNF package %s failed", package_id)
        fail(context, package_id, {S.UPLOADING}, _internal())
        return
    for attempt in db_api.retrying():
        with attempt, db_api.writer(context) as session:
            claimed = packages_db.move(
                session,
                package_id,
                S.PROCESSING,
                {S.UPLOADING},
                package_size=size,
                checksum=checksum,
            )
    if not claimed:
        store.discard(package_id)
        return
    _process(context, package_id)


def _internal() -> dict[str, Any]:
    return problem(
        500,
        "Internal Server Error",
        "Onboarding failed because of an internal error; see the "
        "conductor log.",
        INTERNAL,
    )


def _process(context, package_id: str) -> None:
    processing = {S.PROCESSING}
    try:
        with Lease(package_id, processing):
            contents = csar.extract_csar(
                store.incoming_path(package_id),
                store.package_dir(package_id),
                CsarLimits.from_conf(),
            )
            values = pkginfo.describe(contents)
            store.publish_archive(package_id)
    except (InvalidPackage, InvalidVnfd) as exc:
        fail(context, package_id, processing, exc.to_problem_details())
        return
    except Exception:
        LOG.exception("Processing of VNF package %s failed", package_id)
        fail(context, package_id, processing, _internal())
        return
    try:
        for attempt in db_api.retrying():
            with attempt, db_api.writer(context) as session:
                done = packages_db.move(
                    session,
                    package_id,
                    S.ONBOARDED,
                    processing,
                    operational_state=OperationalState.ENABLED,
                    onboarding_failure_details=None,
                    **values,
                )
                if done:
                    pkgm_notify.onboarded(
                        session, packages_db.get(session, package_id)
                    )
    except db_exc.DBDuplicateEntry:
        fail(context, package_id, processing, _duplicate(values["vnfd_id"]))
        return
    except db_exc.DBError:
        LOG.exception("VNF package %s could not be recorded", package_id)
        fail(context, package_id, processing, _internal())
        return
    if not done:
        # Deleted or expired meanwhile: the files are ours to remove.
        store.discard(package_id)
        LOG.warning("VNF package %s left PROCESSING meanwhile", package_id)
        return
    LOG.info("VNF package %s ONBOARDED", package_id)
    if values.get("onboarding_warnings"):
        # Logged once, here; the package keeps them (onboardingWarnings).
        LOG.warning(
            "VNF package %s onboarded with %d deviation(s) accepted at "
            "[vnf_package] compatibility = tacker: %s",
            package_id,
            len(values["onboarding_warnings"]),
            "; ".join(values["onboarding_warnings"]),
        )


def _duplicate(vnfd_id: str) -> dict[str, Any]:
    with db_api.reader(tcontext.get_admin_context()) as session:
        holder = packages_db.holder_of(session, vnfd_id)
    return problem(
        409,
        "Conflict",
        f"vnfdId {vnfd_id} is already used by VNF package {holder}; "
        "a vnfdId identifies one package.",
        VNFD_ID_IN_USE,
    )


def expire_stale(
    context, package_id: str | None = None, conf: cfg.ConfigOpts = cfg.CONF
) -> None:
    """Set ERROR every in-progress package whose lease lapsed (or only
    ``package_id``). Cheap when nothing is stale: one read."""
    timeout = conf.vnf_package.onboarding_timeout
    cutoff = utcnow() - datetime.timedelta(seconds=timeout)
    with db_api.reader(context) as session:
        stale = packages_db.stale_ids(session, cutoff, package_id)
    details = problem(
        500,
        "Onboarding interrupted",
        f"No progress for more than {timeout} s: the process handling the "
        "package stopped (crash or restart) or the request was lost. "
        "Delete the package and upload it again.",
        INTERRUPTED,
    )
    for stale_id in stale:
        for attempt in db_api.retrying():
            with attempt, db_api.writer(context) as session:
                expired = packages_db.fail_stale(
                    session, stale_id, cutoff, details
                )
        if expired:
            LOG.warning("VNF package %s: onboarding interrupted", stale_id)
            store.discard(stale_id)


def periodic_jobs(
    conf: cfg.ConfigOpts = cfg.CONF,
) -> list[periodic.PeriodicJob]:
    """Expire lapsed onboardings, on the leader of the ``packages`` duty."""
    return [
        periodic.PeriodicJob(
            "expire_interrupted_onboardings",
            max(10, conf.vnf_package.onboarding_timeout // 4),
            lambda: expire_stale(tcontext.get_admin_context(), conf=conf),
            leader="packages",
        )
    ]
