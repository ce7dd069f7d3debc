"""Which onboarded package stands behind a vnfdId, and its parsed VNFD.

The package store keeps each onboarded package extracted under
``[vnf_package] vnf_package_csar_path/<package id>/`` (see
:mod:`tacker_ng.packages.store`). Parsed packages are cached per process
(a package's content never changes once onboarded). With ``[nfvo]
package_source = remote`` a vnfdId that is not onboarded here is fetched
from the NFVO and cached (:mod:`tacker_ng.packages.nfvo_source`).
"""

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from oslo_config import cfg
from sqlalchemy import orm

from tacker_ng import exceptions
from tacker_ng.db import models
from tacker_ng.packages import csar, nfvo_source, store

PACKAGES = models.VnfPackage.__table__


class VnfdNotOnboarded(exceptions.UnprocessableEntity):
    message = "No ONBOARDED and ENABLED VNF package has vnfdId '{vnfd_id}'."


def package_dir(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """Where the extracted package ``package_id`` lives."""
    return store.package_dir(package_id, conf)


def _remote(conf: cfg.ConfigOpts) -> bool:
    return conf.nfvo.package_source == "remote"


@functools.lru_cache(maxsize=16)
def _onboarded_query(
    enabled_only: bool, scoped: bool, remote: bool
) -> sa.Select:
    """The lookup of an onboarded package by vnfdId, built once per shape
    (the vnfdId and the project are bound per call)."""
    where = [
        PACKAGES.c.vnfd_id == sa.bindparam("vnfd_id"),
        PACKAGES.c.onboarding_state == "ONBOARDED",
    ]
    if enabled_only:
        where.append(PACKAGES.c.operational_state == "ENABLED")
    if scoped:
        # A project builds VNFs from its own packages; from the packages
        # fetched from the NFVO (no project) too when the NFVO is the
        # package source (it decides who may use what, in its grants).
        own = PACKAGES.c.project_id == sa.bindparam("project_id")
        where.append(
            sa.or_(own, PACKAGES.c.project_id.is_(None)) if remote else own
        )
    return sa.select(PACKAGES).where(*where)


def find_onboarded(
    session: orm.Session | sa.engine.Connection,
    vnfd_id: str,
    enabled_only: bool = True,
    conf: cfg.ConfigOpts = cfg.CONF,
    project_id: str | None = None,
) -> Mapping[str, Any]:
    """The ONBOARDED package row with ``vnfd_id`` that ``project_id``
    may use (None: any project), else 422 - the same answer as for an
    unknown vnfdId, so another project's packages stay invisible.

    With a remote package source, a vnfdId no package here carries is
    fetched from the NFVO and recorded in ``session``.
    """
    query = _onboarded_query(
        enabled_only, project_id is not None, _remote(conf)
    )
    params = {"vnfd_id": vnfd_id}
    if project_id is not None:
        params["project_id"] = project_id
    row: Any = session.execute(query, params).mappings().first()
    if row is None and _remote(conf):
        held = session.execute(
            sa.select(PACKAGES.c.id).where(PACKAGES.c.vnfd_id == vnfd_id)
        ).first()
        if held is None:
            row = nfvo_source.cache(session, vnfd_id, conf)
    if row is None:
        raise VnfdNotOnboarded(vnfd_id=vnfd_id)
    return row


@functools.lru_cache(maxsize=64)
def _load(root: str, mtime_ns: int) -> csar.CsarContents:
    return csar.load_csar(root)


def load(
    package_id: str, conf: cfg.ConfigOpts = cfg.CONF
) -> csar.CsarContents:
    """The parsed package (cached; re-read if its directory changed).

    With a remote package source, a cached package whose files are not
    in the store (any more) is fetched from the NFVO again.
    """
    root = package_dir(package_id, conf)
    if not root.is_dir() and _remote(conf):
        nfvo_source.refill(package_id, conf)
    return _load(str(root), os.stat(root).st_mtime_ns)
