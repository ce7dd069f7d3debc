"""Client side of the conductor RPC API (used by the API service).

Casts carry ids only; the conductor reads everything else from the DB.

History:
    1.0 - Initial version: ping.
    1.1 - run_lcm_op, rollback_lcm_op.
    1.2 - upload_vnf_package, upload_vnf_package_from_uri.
    1.3 - delete_vnf_snapshot.
"""

import oslo_messaging as messaging
from kombu import exceptions as kombu_exc
from oslo_config import cfg

from tacker_ng import release_mappings, rpc

RPC_API_VERSION = "1.3"


class ConductorAPI:
    """Versioned client of the conductor's ``ConductorManager``."""

    def __init__(self, conf: cfg.ConfigOpts = cfg.CONF) -> None:
        target = messaging.Target(
            topic=conf.conductor.topic, version=RPC_API_VERSION
        )
        self._cast_retries = conf.conductor.cast_retries
        self._client = messaging.get_rpc_client(
            rpc.get_transport(conf),
            target,
            version_cap=conf.conductor.rpc_version_cap
            or release_mappings.version_cap(release_mappings.CONDUCTOR, conf),
            serializer=rpc.ContextSerializer(),
        )

    def ping(
        self, context, payload: str, timeout: float | None = None
    ) -> dict:
        """Round trip to any conductor; returns who answered and when."""
        cctxt = self._client.prepare(version="1.0", timeout=timeout)
        return cctxt.call(context, "ping", payload=payload)

    def _cast(self, context, version: str, method: str, **kwargs) -> None:
        """Cast with bounded reconnections: with the bus unreachable the
        caller gets a MessagingException within seconds rather than
        waiting out the outage (oslo.messaging's default retries for
        ever). The rabbit driver lets a failed *new* connection's kombu
        error through unwrapped; it is the same failure to the caller."""
        cctxt = self._client.prepare(version=version, retry=self._cast_retries)
        try:
            cctxt.cast(context, method, **kwargs)
        except (kombu_exc.KombuError, OSError) as exc:
            raise messaging.MessageDeliveryFailure(
                f"cast {method}: {exc}"
            ) from exc

    def run_lcm_op(self, context, op_occ_id: str) -> None:
        """Start, or continue after retry, an LCM op occ (cast)."""
        self._cast(context, "1.1", "run_lcm_op", op_occ_id=op_occ_id)

    def rollback_lcm_op(self, context, op_occ_id: str) -> None:
        """Roll back an op occ the API moved to ROLLING_BACK (cast)."""
        self._cast(context, "1.1", "rollback_lcm_op", op_occ_id=op_occ_id)

    def upload_vnf_package(self, context, package_id: str) -> None:
        """Onboard a package whose upload is in the store (cast)."""
        self._cast(context, "1.2", "upload_vnf_package", package_id=package_id)

    def upload_vnf_package_from_uri(self, context, package_id: str) -> None:
        """Download, then onboard, an upload_from_uri package (cast)."""
        self._cast(
            context,
            "1.2",
            "upload_vnf_package_from_uri",
            package_id=package_id,
        )

    def delete_vnf_snapshot(self, context, snapshot_id: str) -> None:
        """Delete a VnfSnapshotInfo marked deleting: its VIM images, then
        its row (cast)."""
        self._client.prepare(version="1.3").cast(
            context, "delete_vnf_snapshot", snapshot_id=snapshot_id
        )


_API: ConductorAPI | None = None


def get_api() -> ConductorAPI:
    """The process-wide client (created on first use, after config)."""
    global _API  # noqa: PLW0603
    if _API is None:
        _API = ConductorAPI()
    return _API


def reset() -> None:
    """Forget the client (tests; after the transport was cleaned up)."""
    global _API  # noqa: PLW0603
    _API = None
