"""Resume, at start-up, the operations this conductor was running when
it was killed.

Without a jobboard nobody else would: the op occ stays claimed by this
host. Its flow's persisted atoms make the resumed run start at the task
that was interrupted. With a jobboard the expired job claim hands such
operations to any conductor instead (:mod:`tacker_ng.conductor.flows.jobs`).
"""

from oslo_log import log as logging

from tacker_ng import context as tcontext
from tacker_ng.conductor.operations import runner
from tacker_ng.db import api as db_api
from tacker_ng.db import lcm_claims
from tacker_ng.objects import lcm

LOG = logging.getLogger(__name__)


def resume_own(host: str) -> list[str]:
    """Run again every op occ ``host`` claimed and never ended."""
    context = tcontext.get_admin_context()
    try:
        with db_api.reader(context) as session:
            unfinished = lcm_claims.unfinished_of(session, host)
    except Exception:
        LOG.exception("Could not look for interrupted operations")
        return []
    for op_occ_id, op_state in unfinished:
        LOG.warning(
            "Op occ %s was %s when %s stopped; resuming it",
            op_occ_id,
            op_state,
            host,
        )
        try:
            if op_state == lcm.OperationState.ROLLING_BACK:
                runner.rollback(context, op_occ_id, host)
            else:
                runner.run(context, op_occ_id, host)
        except Exception:
            LOG.exception("Resuming op occ %s failed", op_occ_id)
    return [op_occ_id for op_occ_id, _ in unfinished]
