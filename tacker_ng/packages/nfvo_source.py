"""Packages fetched from the NFVO by vnfdId (``package_source = remote``).

``GET {nfvo}/vnfpkgm/v2/onboarded_vnf_packages/{vnfdId}/package_content``
with the NFVO's auth and TLS settings (:func:`tacker_ng.nfvo.remote.
nfvo_session`), verified by :func:`~tacker_ng.packages.csar.extract_csar`
and cached in the store like an uploaded package, with an ONBOARDED row
(no project: visible to admins), so later lookups by vnfdId find it
without asking the NFVO again. The unique vnfdId column decides between
two processes caching the same vnfdId at once; the loser drops its copy.
"""

import threading
import urllib.parse
import uuid
from collections.abc import Mapping
from typing import Any

import requests
import sqlalchemy as sa
from oslo_config import cfg
from oslo_context import context as oslo_context
from oslo_db import exception as db_exc
from oslo_log import log as logging
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_packages as packages_db
from tacker_ng.nfvo import remote
from tacker_ng.objects.package_states import OnboardingState, OperationalState
from tacker_ng.packages import csar, fetch, pkginfo, store
from tacker_ng.packages.limits import CsarLimits

LOG = logging.getLogger(__name__)

#: SOL003 VNF package management API version we ask the NFVO for.
VNFPKGM_API_VERSION = "2.1.0"
#: What failed, in the errors of a package fetched from the NFVO.
DOWNLOAD = "The VNF package download"
_REFILL_LOCK = threading.Lock()


class PackageNotAtNfvo(exceptions.UnprocessableEntity):
    message = (
        "vnfdId '{vnfd_id}' is not onboarded here and the NFVO has no "
        "onboarded VNF package with it."
    )


class WrongPackageFromNfvo(exceptions.UnprocessableEntity):
    message = (
        "The NFVO answered the package of vnfdId '{got}' when asked for "
        "'{vnfd_id}'."
    )


class PackageCachedConcurrently(exceptions.Conflict):
    message = (
        "The VNF package of vnfdId '{vnfd_id}' was just cached by another "
        "request; retry."
    )


def content_url(vnfd_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> str:
    """Where the NFVO serves the package of ``vnfd_id``."""
    if not conf.nfvo.endpoint:
        raise remote.NfvoUnavailable(
            what=DOWNLOAD, reason="the option is not set"
        )
    quoted = urllib.parse.quote(vnfd_id, safe="")
    return (
        f"{conf.nfvo.endpoint.rstrip('/')}/vnfpkgm/v2/onboarded_vnf_packages/"
        f"{quoted}/package_content"
    )


def _fetch(package_id: str, vnfd_id: str, conf: cfg.ConfigOpts) -> dict:
    """Download and extract into the store; the row values to record."""
    url = content_url(vnfd_id, conf)
    try:
        session = remote.nfvo_session(
            conf, VNFPKGM_API_VERSION, "application/zip"
        )
    except requests.RequestException as exc:
        raise remote.failed(
            DOWNLOAD, exc, about=f" (vnfdId {vnfd_id})"
        ) from exc
    part = store.part_file(package_id)
    try:
        with session:
            size, checksum = fetch.download(
                session,
                url,
                part,
                limit=conf.vnf_package.max_archive_size,
                timeout=conf.nfvo.timeout,
                max_duration=conf.vnf_package.upload_from_uri_max_duration,
                source="the NFVO ([nfvo] endpoint)",
            )
        store.complete(package_id)
        contents = csar.extract_csar(
            store.incoming_path(package_id),
            store.package_dir(package_id),
            CsarLimits.from_conf(conf),
        )
        if contents.vnfd.descriptor_id != vnfd_id:
            raise WrongPackageFromNfvo(
                vnfd_id=vnfd_id, got=contents.vnfd.descriptor_id
            )
        store.publish_archive(package_id)
    except fetch.FetchFailed as exc:
        store.discard(package_id)
        if exc.http_status == 404:
            raise PackageNotAtNfvo(vnfd_id=vnfd_id) from None
        raise remote.NfvoUnavailable(
            what=DOWNLOAD, reason=exc.kwargs.get("reason", "see the log")
        ) from None
    except BaseException:
        store.discard(package_id)
        raise
    if contents.warnings:
        LOG.warning(
            "VNF package %s (vnfdId %s) from the NFVO: deviations accepted "
            "at [vnf_package] compatibility = tacker: %s",
            package_id,
            vnfd_id,
            "; ".join(contents.warnings),
        )
    return {
        **pkginfo.describe(contents),
        "package_size": size,
        "checksum": checksum,
    }


def cache(
    session: orm.Session, vnfd_id: str, conf: cfg.ConfigOpts = cfg.CONF
) -> Mapping[str, Any]:
    """Fetch the package of ``vnfd_id`` from the NFVO and record it in
    ``session`` (ONBOARDED, ENABLED); return its row."""
    package_id = str(uuid.uuid4())
    LOG.info("Fetching the VNF package of vnfdId %s from the NFVO", vnfd_id)
    values = _fetch(package_id, vnfd_id, conf)
    try:
        with session.begin_nested():
            packages_db.insert(
                session,
                {
                    "id": package_id,
                    "onboarding_state": OnboardingState.ONBOARDED,
                    "operational_state": OperationalState.ENABLED,
                    "user_defined_data": {},
                    "project_id": None,
                    **values,
                },
            )
    except db_exc.DBDuplicateEntry:
        store.discard(package_id)
        holder = packages_db.holder_of(session, vnfd_id)
        if holder is None:
            raise PackageCachedConcurrently(vnfd_id=vnfd_id) from None
        return packages_db.get(session, holder)
    except BaseException:
        store.discard(package_id)
        raise
    LOG.info("VNF package of vnfdId %s cached as %s", vnfd_id, package_id)
    return packages_db.get(session, package_id)


def refill(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> None:
    """Fetch a cached package again whose files are missing here (e.g. a
    conductor on another host without the shared store).

    Reads in the current request's transaction when there is one (the
    LCM API calls this inside its own writer; a second transaction
    would wait for that one on SQLite).
    """
    with db_api.reader(oslo_context.get_current()) as session:
        vnfd_id = session.execute(
            sa.select(packages_db.PACKAGES.c.vnfd_id).where(
                packages_db.PACKAGES.c.id == package_id
            )
        ).scalar()
    if vnfd_id is None:
        raise packages_db.VnfPackageNotFound(id=package_id)
    with _REFILL_LOCK:
        if not store.package_dir(package_id, conf).is_dir():
            LOG.info(
                "Fetching VNF package %s again (not in the store)", package_id
            )
            _fetch(package_id, vnfd_id, conf)
