"""Tables of convergence: observed state, FM alarms and subscriptions.

Observed state lives in its own table (``vnfc_observed``), never mixed into
the SOL003 instance body: what the VIM said about each VNFC at the last
observation. Alarms (SOL003 clause 7 ``Alarm``) are rows; an alarm that is
open holds ``open_key`` (instance/VNFC), whose unique index lets the
database, not a read-then-write check, decide that one drift raises one
alarm.
"""

import datetime

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json, _page_indexes
from tacker_ng.db.types import JSONDoc, UTCDateTime


class VnfcObserved(Base):
    """What the VIM last said about one VNFC of a VNF instance."""

    __tablename__ = "vnfc_observed"
    __table_args__ = (sa.Index("vnfc_observed_drift_idx", "drift"),)

    vnf_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), primary_key=True
    )
    vnfc_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), primary_key=True
    )
    vdu_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    vim_connection_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    resource_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    #: The VIM's status (Nova: ACTIVE, ERROR, SHUTOFF ...); NULL: missing.
    status: orm.Mapped[str | None] = orm.mapped_column(sa.String(32))
    host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    host_up: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    zone: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    #: Drift kind (MISSING, ERROR, SHUTOFF, HOST_DOWN); NULL: converged.
    drift: orm.Mapped[str | None] = orm.mapped_column(sa.String(32))
    drift_since: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    observed_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )


class VnfConvergence(Base):
    """Per VNF instance: auto-heal attempts and their back-off."""

    __tablename__ = "vnf_convergence"

    vnf_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), primary_key=True
    )
    #: Auto-heals that ended other than COMPLETED, in a row.
    autoheal_failures: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, nullable=False, default=0
    )
    last_autoheal_op_occ_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(36)
    )
    backoff_until: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    #: Set by ``POST /v1/vnf_instances/{id}/observe``; a conductor's
    #: observer claims it (conditional UPDATE) and observes at once.
    observe_requested_at: orm.Mapped[datetime.datetime | None] = (
        orm.mapped_column(UTCDateTime, index=True)
    )


class VnfAlarm(Base):
    """A SOL003 Alarm (clause 7.5.2.4) raised for a drifted VNFC."""

    __tablename__ = "vnf_alarms"
    __table_args__ = (
        sa.UniqueConstraint("open_key", name="uniq_vnf_alarms0open_key"),
        *_page_indexes("vnf_alarms"),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    managed_object_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False, index=True
    )
    vnfc_instance_ids: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    root_cause_faulty_resource: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    alarm_raised_time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    alarm_changed_time: orm.Mapped[datetime.datetime | None] = (
        orm.mapped_column(UTCDateTime)
    )
    alarm_cleared_time: orm.Mapped[datetime.datetime | None] = (
        orm.mapped_column(UTCDateTime)
    )
    alarm_acknowledged_time: orm.Mapped[datetime.datetime | None] = (
        orm.mapped_column(UTCDateTime)
    )
    ack_state: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    perceived_severity: orm.Mapped[str] = orm.mapped_column(
        sa.String(16), nullable=False
    )
    event_time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    event_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    fault_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    probable_cause: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    is_root_cause: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=True
    )
    fault_details: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: Internal: "<instance>/<vnfc>" while the alarm is open, else NULL.
    open_key: orm.Mapped[str | None] = orm.mapped_column(sa.String(300))
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )


class FmSubscription(Base):
    """A subscription to VNF fault management notifications (SOL003
    FmSubscription, clause 7.5.2.3)."""

    __tablename__ = "fm_subscriptions"
    __table_args__ = _page_indexes("fm_subscriptions")

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
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
