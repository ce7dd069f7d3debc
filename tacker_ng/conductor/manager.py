"""Server side of the conductor RPC API: the endpoints.

Public methods are the RPC surface; each does little but hand work to the
task helpers of its domain.
"""

import oslo_messaging as messaging
from oslo_log import log as logging

from tacker_ng.conductor import rpcapi
from tacker_ng.conductor.flows.jobs import JobBoard
from tacker_ng.conductor.operations import runner, snapshots
from tacker_ng.db.types import utcnow
from tacker_ng.packages import onboarding

LOG = logging.getLogger(__name__)


class ConductorManager:
    """RPC endpoint object served by every conductor."""

    target = messaging.Target(version=rpcapi.RPC_API_VERSION)

    def __init__(self, host: str, jobs: JobBoard | None = None) -> None:
        self.host = host
        #: The jobboard, when conductors hand operations to each other.
        self.jobs = jobs

    def ping(self, context, payload: str) -> dict:
        """Answer a liveness round trip (API -> bus -> conductor -> API)."""
        LOG.debug("ping %r from request %s", payload, context.request_id)
        return {
            "host": self.host,
            "payload": payload,
            "time": utcnow().isoformat(),
        }

    def run_lcm_op(self, context, op_occ_id: str) -> None:
        """Run an op occ to its end (or FAILED_TEMP): here, or as a job
        that any live conductor claims."""
        if self.jobs is not None:
            self.jobs.post(context, "run", op_occ_id)
        else:
            runner.run(context, op_occ_id, self.host)

    def rollback_lcm_op(self, context, op_occ_id: str) -> None:
        """Roll back an op occ that is ROLLING_BACK (here, or as a job)."""
        if self.jobs is not None:
            self.jobs.post(context, "rollback", op_occ_id)
        else:
            runner.rollback(context, op_occ_id, self.host)

    def upload_vnf_package(self, context, package_id: str) -> None:
        """Onboard an uploaded VNF package (to ONBOARDED or ERROR)."""
        onboarding.process_upload(context, package_id)

    def upload_vnf_package_from_uri(self, context, package_id: str) -> None:
        """Download and onboard a VNF package (to ONBOARDED or ERROR)."""
        onboarding.process_from_uri(context, package_id)

    def delete_vnf_snapshot(self, context, snapshot_id: str) -> None:
        """Delete a snapshot's VIM images, then its VnfSnapshotInfo."""
        snapshots.delete(context, snapshot_id)
