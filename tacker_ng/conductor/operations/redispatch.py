"""Re-send LCM operations whose start was lost on the way to a conductor.

The API commits an op occ (STARTING) and then casts it; if the API dies in
between or the broker drops the message, nobody would ever run it. A
periodic task in every conductor re-casts STARTING op occs that no
conductor claimed within ``[conductor] lost_operation_timeout``; the claim
in the runner makes a duplicate harmless.
"""

import datetime

from oslo_config import cfg
from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng import periodic
from tacker_ng.conductor import rpcapi
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm
from tacker_ng.db.types import utcnow

LOG = logging.getLogger(__name__)


def redispatch_lost(conf: cfg.ConfigOpts = cfg.CONF) -> list[str]:
    """Cast every lost STARTING op occ again; return their ids."""
    context = tcontext.get_admin_context()
    older_than = utcnow() - datetime.timedelta(
        seconds=conf.conductor.lost_operation_timeout
    )
    with db_api.reader(context) as session:
        lost = vnf_lcm.lost_starting(session, older_than)
    for op_occ_id in lost:
        LOG.warning(
            "Op occ %s has been STARTING for more than %ss without a "
            "conductor; dispatching it again",
            op_occ_id,
            conf.conductor.lost_operation_timeout,
        )
        rpcapi.get_api().run_lcm_op(context, op_occ_id)
    return lost


def periodic_jobs(
    conf: cfg.ConfigOpts = cfg.CONF,
) -> list[periodic.PeriodicJob]:
    """Re-dispatch lost operations, on the leader of the ``lcm`` duty."""
    return [
        periodic.PeriodicJob(
            "redispatch_lost_operations",
            max(1, conf.conductor.lost_operation_timeout // 2),
            lambda: redispatch_lost(conf),
            leader="lcm",
        )
    ]
