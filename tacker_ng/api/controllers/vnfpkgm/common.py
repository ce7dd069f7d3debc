"""Helpers shared by the package controllers: load, authorize, states.

Every handler loads the package through :func:`load` (or
:func:`load_onboarded` for the vnfdId-addressed resources), which also
applies a lapsed onboarding lease (the package becomes ERROR) so what the
caller sees is never a package stuck in PROCESSING forever.
"""

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from oslo_config import cfg

from tacker_ng.api.controllers.vnflcm import common as lcm_common
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_packages as packages_db
from tacker_ng.db.types import utcnow
from tacker_ng.objects.package_states import IN_PROGRESS, OnboardingState
from tacker_ng.packages import onboarding

P = "tacker_ng:vnfpkgm"

context = lcm_common.context
scope = lcm_common.scope
base_url = lcm_common.base_url
empty = lcm_common.empty
created = lcm_common.created

#: ``loader(rule)`` -> the package row, authorized for ``rule``.
Loader = Callable[[str], Mapping[str, Any]]


def authorize(rule: str, project_id: str | None = None) -> None:
    """Raise 403 unless the caller may do ``rule`` (on that project)."""
    lcm_common.authorize(f"{P}:{rule}", project_id)


def _lapsed(row: Mapping[str, Any]) -> bool:
    if row["onboarding_state"] not in IN_PROGRESS:
        return False
    timeout = cfg.CONF.vnf_package.onboarding_timeout
    cutoff = utcnow() - datetime.timedelta(seconds=timeout)
    return row["updated_at"] is None or row["updated_at"] < cutoff


def load(package_id: str, rule: str) -> Mapping[str, Any]:
    """The package (404 unless visible), authorized for ``rule``."""
    ctx = context()
    with db_api.reader(ctx) as session:
        row = packages_db.get(session, package_id, scope(ctx))
    if _lapsed(row):
        onboarding.expire_stale(ctx, package_id)
        with db_api.reader(ctx) as session:
            row = packages_db.get(session, package_id, scope(ctx))
    authorize(rule, row["project_id"])
    return row


def load_onboarded(vnfd_id: str, rule: str) -> Mapping[str, Any]:
    """The ONBOARDED package of ``vnfd_id``, authorized for ``rule``."""
    ctx = context()
    with db_api.reader(ctx) as session:
        row = packages_db.get_onboarded(session, vnfd_id, scope(ctx))
    authorize(rule, row["project_id"])
    return row


def require_onboarded(row: Mapping[str, Any], what: str) -> None:
    """409 unless the package is ONBOARDED."""
    if row["onboarding_state"] != OnboardingState.ONBOARDED:
        raise packages_db.VnfPackageConflict(
            f"VNF package {row['id']} is {row['onboarding_state']}; "
            f"its {what} is available once it is ONBOARDED."
        )
