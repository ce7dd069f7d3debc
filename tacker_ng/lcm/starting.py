"""Open an LCM op occ in the caller's transaction: the conditional claim
of the instance, the STARTING row and its notification, together.

The API's request path and the conductor's own operations (convergence's
automatic heals) open op occs the same way; the cast that follows is the
caller's, since each reaches the conductors differently.
"""

from collections.abc import Mapping
from typing import Any

from sqlalchemy import orm

from tacker_ng.db import vnf_lcm
from tacker_ng.nfvo import notify
from tacker_ng.objects import lcm


def open_op_occ(
    session: orm.Session,
    instance_id: str,
    operation: lcm.Operation,
    params: dict[str, Any],
    project_id: str | None = None,
    is_automatic: bool = False,
) -> Mapping[str, Any]:
    """The new STARTING op occ; raises OperationConflict (409) when the
    instance is held by another op or in the wrong state."""
    occ = vnf_lcm.start_operation(
        session, instance_id, operation, params, project_id, is_automatic
    )
    notify.op_occ_changed(
        session, occ, vnf_lcm.get_instance(session, instance_id)
    )
    return occ
