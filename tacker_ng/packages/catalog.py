"""Which onboarded package stands behind a vnfdId, and its parsed VNFD.

The package store keeps each onboarded package extracted under
``[vnf_package] vnf_package_csar_path/<package id>/``. Parsed packages are
cached per process (a package's content never changes once onboarded).
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
from tacker_ng.packages import csar

PACKAGES = models.VnfPackage.__table__


class VnfdNotOnboarded(exceptions.UnprocessableEntity):
    message = "No ONBOARDED and ENABLED VNF package has vnfdId '{vnfd_id}'."


def package_dir(package_id: str, conf: cfg.ConfigOpts = cfg.CONF) -> Path:
    """Where the extracted package ``package_id`` lives."""
    return Path(conf.vnf_package.vnf_package_csar_path) / package_id


def find_onboarded(
    session: orm.Session, vnfd_id: str, enabled_only: bool = True
) -> Mapping[str, Any]:
    """The ONBOARDED package row with ``vnfd_id`` (422 when none)."""
    where = [
        PACKAGES.c.vnfd_id == vnfd_id,
        PACKAGES.c.onboarding_state == "ONBOARDED",
    ]
    if enabled_only:
        where.append(PACKAGES.c.operational_state == "ENABLED")
    row = session.execute(sa.select(PACKAGES).where(*where)).mappings().first()
    if row is None:
        raise VnfdNotOnboarded(vnfd_id=vnfd_id)
    return row


@functools.lru_cache(maxsize=64)
def _load(root: str, mtime_ns: int) -> csar.CsarContents:
    return csar.load_csar(root)


def load(package_id: str) -> csar.CsarContents:
    """The parsed package (cached; re-read if its directory changed)."""
    root = package_dir(package_id)
    return _load(str(root), os.stat(root).st_mtime_ns)
