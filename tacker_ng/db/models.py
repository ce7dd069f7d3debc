"""SQLAlchemy models of tacker-ng's tables.

Scalar SOL attributes that are filtered, sorted or locked on are columns;
nested SOL structures are JSON documents. Names follow the SOL data types
(snake_case) so the code can be held against the standard.
"""

import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.types import JSONDoc, UTCDateTime, utcnow

Json = dict[str, Any] | list[Any] | None


class Base(orm.DeclarativeBase):
    """Declarative base with created/updated timestamps on every table."""

    created_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False, default=utcnow
    )
    updated_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime, nullable=True, onupdate=utcnow
    )


def _page_indexes(table: str) -> tuple[sa.Index, sa.Index]:
    """Keyset-paging indexes: (created_at, id), per project too."""
    return (
        sa.Index(f"{table}_page_idx", "created_at", "id"),
        sa.Index(
            f"{table}_project_page_idx", "project_id", "created_at", "id"
        ),
    )


def _uuid_pk() -> orm.Mapped[str]:
    return orm.mapped_column(sa.String(36), primary_key=True)


class VnfPackage(Base):
    """An onboarded (or onboarding) VNF package (SOL005 VnfPkgInfo)."""

    __tablename__ = "vnf_packages"
    __table_args__ = (
        sa.UniqueConstraint("vnfd_id", name="uniq_vnf_packages0vnfd_id"),
        *_page_indexes("vnf_packages"),
    )

    id: orm.Mapped[str] = _uuid_pk()
    onboarding_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    operational_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    usage_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    vnfd_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    vnf_provider: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    vnf_product_name: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    vnf_software_version: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    vnfd_version: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    checksum: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    software_images: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    additional_artifacts: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    onboarding_failure_details: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: Deviations accepted at onboarding (VnfPkgInfo onboardingWarnings).
    onboarding_warnings: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    user_defined_data: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    package_size: orm.Mapped[int | None] = orm.mapped_column(sa.BigInteger)
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )


class VnfInstance(Base):
    """A VNF instance (SOL003 VnfInstance)."""

    __tablename__ = "vnf_instances"
    __table_args__ = _page_indexes("vnf_instances")

    id: orm.Mapped[str] = _uuid_pk()
    vnf_instance_name: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    vnf_instance_description: orm.Mapped[str | None] = orm.mapped_column(
        sa.Text
    )
    vnfd_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False, index=True
    )
    vnf_provider: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    vnf_product_name: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    vnf_software_version: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    vnfd_version: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    vnf_configurable_properties: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: Map of VimConnectionInfo; secrets in accessInfo are Fernet tokens.
    vim_connection_info: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    instantiation_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False, index=True
    )
    instantiated_vnf_info: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    vnf_metadata: orm.Mapped[Json] = orm.mapped_column("metadata", JSONDoc)
    extensions: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )
    #: Id of the op occ holding this instance; set and cleared by
    #: conditional UPDATEs so one operation at a time is decided by the DB.
    current_op_occ_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36)
    )
    #: Bumped on every change; the ETag of the resource.
    version: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, nullable=False, default=1
    )


class VnfLcmOpOcc(Base):
    """A VNF LCM operation occurrence (SOL003 VnfLcmOpOcc)."""

    __tablename__ = "vnf_lcm_op_occs"
    __table_args__ = (
        sa.Index(
            "vnf_lcm_op_occs_instance_created_idx",
            "vnf_instance_id",
            "created_at",
        ),
        # /metrics: op occs counted by state and operation from the index
        # alone; the recently finished ones found by when they finished.
        sa.Index(
            "vnf_lcm_op_occs_metrics_idx", "operation_state", "operation"
        ),
        sa.Index("vnf_lcm_op_occs_entered_idx", "state_entered_time"),
        *_page_indexes("vnf_lcm_op_occs"),
    )

    id: orm.Mapped[str] = _uuid_pk()
    operation_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False, index=True
    )
    state_entered_time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    start_time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    vnf_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("vnf_instances.id", ondelete="CASCADE"),
        nullable=False,
    )
    grant_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    #: Where the grant lives: the NFVO's URL (remote NFVO), or a path on
    #: this API (local NFVO); see migration 0010.
    grant_href: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    operation: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    is_automatic_invocation: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    operation_params: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    is_cancel_pending: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    cancel_mode: orm.Mapped[str | None] = orm.mapped_column(sa.String(16))
    error: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    resource_changes: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    changed_info: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    changed_ext_connectivity: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: Internal: steps of the conductor flow already done (for retry).
    progress: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: Internal: conductor currently running this op occ.
    conductor_host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )


class LccnSubscription(Base):
    """A subscription to LCM notifications (SOL003 LccnSubscription)."""

    __tablename__ = "lccn_subscriptions"
    __table_args__ = _page_indexes("lccn_subscriptions")

    id: orm.Mapped[str] = _uuid_pk()
    callback_uri: orm.Mapped[str] = orm.mapped_column(sa.Text, nullable=False)
    filter: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    verbosity: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False, default="FULL"
    )
    #: SubscriptionAuthentication; secrets are Fernet tokens.
    authentication: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: sha256 of (callbackUri, filter) to detect duplicates (303).
    fingerprint: orm.Mapped[str] = orm.mapped_column(
        sa.String(64), nullable=False, index=True
    )
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )


class Grant(Base):
    """A grant request sent to the NFVO and the grant it answered."""

    __tablename__ = "grants"

    id: orm.Mapped[str] = _uuid_pk()
    vnf_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False, index=True
    )
    vnf_lcm_op_occ_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False, index=True
    )
    grant_request: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    grant: orm.Mapped[Json] = orm.mapped_column(JSONDoc)


class Conductor(Base):
    """A conductor process and its last heartbeat (``updated_at``)."""

    __tablename__ = "conductors"
    __table_args__ = (
        sa.UniqueConstraint("hostname", name="uniq_conductors0hostname"),
    )

    id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, primary_key=True, autoincrement=True
    )
    hostname: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    online: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=True
    )
    rpc_version: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    started_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    heartbeat_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False, index=True
    )
    #: Reported with the heartbeat (tacker_ng.metrics.conductor): the
    #: last observation cycle's duration and end, the jobboard's jobs
    #: (all, unclaimed) as this conductor last saw them; NULL: not known.
    observe_cycle_seconds: orm.Mapped[float | None] = orm.mapped_column(
        sa.Float
    )
    observe_cycle_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    jobboard_jobs: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)
    jobboard_unclaimed: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class PkgmSubscription(Base):
    """A subscription to VNF package management notifications (SOL005
    PkgmSubscription): onboarding, operational state change, deletion."""

    __tablename__ = "pkgm_subscriptions"
    __table_args__ = _page_indexes("pkgm_subscriptions")

    id: orm.Mapped[str] = _uuid_pk()
    callback_uri: orm.Mapped[str] = orm.mapped_column(sa.Text, nullable=False)
    filter: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: SubscriptionAuthentication; secrets are Fernet tokens.
    authentication: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: sha256 of (callbackUri, filter) to detect duplicates (303).
    fingerprint: orm.Mapped[str] = orm.mapped_column(
        sa.String(64), nullable=False, index=True
    )
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )


class LcmNotification(Base):
    """Outbox of notifications to deliver, one row per subscription.

    Written in the same transaction as the state change it reports, so a
    crash loses none; the conductor delivers them per subscription in id
    order, with retries and backoff.
    """

    __tablename__ = "lcm_notifications"
    __table_args__ = (
        sa.Index(
            "lcm_notifications_pending_idx",
            "delivered_at",
            "subscription_id",
            "id",
        ),
    )

    id: orm.Mapped[int] = orm.mapped_column(
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        primary_key=True,
        autoincrement=True,
    )
    subscription_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False
    )
    notification_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(64), nullable=False
    )
    payload: orm.Mapped[Json] = orm.mapped_column(JSONDoc, nullable=False)
    attempts: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, nullable=False, default=0
    )
    next_attempt_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    claimed_by: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    claimed_until: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    delivered_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    given_up: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    last_error: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
