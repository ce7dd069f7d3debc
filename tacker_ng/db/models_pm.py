"""Tables of SOL003 VNF performance management (clause 6): PM jobs, their
performance reports and report entries, thresholds and, per threshold
and measured (sub-)object, the last crossing.

A job's and a threshold's ``callback_uri`` and ``authentication`` make
them their own notification subscription (SOL003 v3.3.1 has no PM
subscriptions resource): the outbox row's ``subscription_id`` is the job
or threshold id. ``shard`` (a stable hash of the id) lets a collector
select its share in SQL; ``next_report_at`` / ``next_check_at`` say when
it is due, and conditional UPDATEs on them let the database decide which
collector reports a period.
"""

import datetime

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json, _page_indexes
from tacker_ng.db.types import JSONDoc, UTCDateTime


class PmJob(Base):
    """A PM job (SOL003 PmJob, clause 6.5.2.7)."""

    __tablename__ = "pm_jobs"
    __table_args__ = (
        *_page_indexes("pm_jobs"),
        sa.Index("pm_jobs_due_idx", "next_report_at"),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    object_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    object_instance_ids: orm.Mapped[Json] = orm.mapped_column(
        JSONDoc, nullable=False
    )
    sub_object_instance_ids: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: PmJobCriteria as the NFVO sent it.
    criteria: orm.Mapped[Json] = orm.mapped_column(JSONDoc, nullable=False)
    callback_uri: orm.Mapped[str] = orm.mapped_column(sa.Text, nullable=False)
    #: SubscriptionAuthentication; secrets are Fernet tokens.
    authentication: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )
    shard: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    #: End of the next reporting period; NULL once the boundary passed.
    next_report_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    reporting_boundary: orm.Mapped[datetime.datetime | None] = (
        orm.mapped_column(UTCDateTime)
    )


class PmReport(Base):
    """A performance report of a PM job (SOL003 PerformanceReport)."""

    __tablename__ = "pm_reports"
    __table_args__ = (sa.Index("pm_reports_job_idx", "job_id", "ready_time"),)

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    job_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("pm_jobs.id", ondelete="CASCADE"),
        nullable=False,
    )
    period_start: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    period_end: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    ready_time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    expiry_time: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime, index=True
    )
    project_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(64))


class PmReportEntry(Base):
    """One entry of a performance report: one metric of one (sub-)object
    with its values (SOL003 6.5.2.10 ``entries``)."""

    __tablename__ = "pm_report_entries"

    id: orm.Mapped[int] = orm.mapped_column(
        sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
        primary_key=True,
        autoincrement=True,
    )
    report_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("pm_reports.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    object_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    object_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    sub_object_instance_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    performance_metric: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    #: [{timeStamp, value, context?}] as SOL represents them.
    performance_values: orm.Mapped[Json] = orm.mapped_column(
        JSONDoc, nullable=False
    )


class PmThreshold(Base):
    """A threshold (SOL003 Threshold, clause 6.5.2.9)."""

    __tablename__ = "pm_thresholds"
    __table_args__ = (
        *_page_indexes("pm_thresholds"),
        sa.Index("pm_thresholds_due_idx", "next_check_at"),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    object_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    object_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False, index=True
    )
    sub_object_instance_ids: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    #: ThresholdCriteria as the NFVO sent it.
    criteria: orm.Mapped[Json] = orm.mapped_column(JSONDoc, nullable=False)
    callback_uri: orm.Mapped[str] = orm.mapped_column(sa.Text, nullable=False)
    authentication: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    project_id: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(64), index=True
    )
    shard: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    next_check_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )


class PmThresholdState(Base):
    """The last crossing of a threshold for one measured object and
    sub-object (``''`` when the threshold has none): UP while the value
    is above the band, DOWN below it. The hysteresis needs it; changes
    are conditional UPDATEs, so one crossing notifies once."""

    __tablename__ = "pm_threshold_states"

    threshold_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("pm_thresholds.id", ondelete="CASCADE"),
        primary_key=True,
    )
    object_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), primary_key=True
    )
    sub_object_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), primary_key=True
    )
    crossing_direction: orm.Mapped[str] = orm.mapped_column(
        sa.String(8), nullable=False
    )
    #: The value that made the last change of direction.
    performance_value: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    crossed_at: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )


class VnfAutoscale(Base):
    """Per VNF instance: its automatic scales' failures and back-off.

    Written in the transaction that starts an automatic SCALE or moves
    one to FAILED/ROLLING_BACK, so that a crash leaves the count, the
    next-attempt time and the alarm all done or all to do.
    """

    __tablename__ = "vnf_autoscale"

    vnf_instance_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), primary_key=True
    )
    #: Automatic scales that ended other than COMPLETED, in a row.
    failures: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, nullable=False, default=0
    )
    #: The automatic SCALE started and not accounted yet (None once it is).
    last_op_occ_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    backoff_until: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
