"""Helpers shared by the ``/vnfpm/v2`` controllers."""

from collections.abc import Iterable, Mapping
from typing import Any

from oslo_config import cfg

from tacker_ng.api.controllers.vnflcm import common
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.pm import measurements

P = "tacker_ng:vnfpm"


def instances(ids: Iterable[str]) -> dict[str, Mapping[str, Any]]:
    """The VNF instances among ``ids`` that the caller sees, by id: a
    missing one and another project's look the same (absent)."""
    ctx = common.context()
    found: dict[str, Mapping[str, Any]] = {}
    with db_api.reader(ctx) as session:
        for instance_id in dict.fromkeys(ids):
            try:
                found[instance_id] = vnf_lcm.get_instance(
                    session, instance_id, common.scope(ctx)
                )
            except vnf_lcm.VnfInstanceNotFound:
                continue
    return found


def table() -> Mapping[str, measurements.Measurement]:
    """The measurement table in force."""
    return measurements.table(cfg.CONF)
