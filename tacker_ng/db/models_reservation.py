"""Tables of the reservation service (Blazar-compatible leases).

``host_allocations`` is the capacity ledger: one row per (reservation,
host) with the window and the per-instance demand copied in, so that the
capacity of a window is read with one indexed range query and never by
joining leases. Writers of the ledger lock the ``compute_hosts`` rows they
write against (``SELECT ... FOR UPDATE``), which is what keeps concurrent
admissions from over-committing a host.
"""

import datetime

import sqlalchemy as sa
from sqlalchemy import orm

from tacker_ng.db.models import Base, Json
from tacker_ng.db.types import JSONDoc, UTCDateTime


class Lease(Base):
    """A lease: a time window holding one or more reservations."""

    __tablename__ = "leases"
    __table_args__ = (
        sa.UniqueConstraint(
            "project_id", "name", name="uniq_leases0project_id0name"
        ),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    name: orm.Mapped[str] = orm.mapped_column(sa.String(80), nullable=False)
    user_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(64))
    project_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(64), nullable=False, index=True
    )
    start_date: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    end_date: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    status: orm.Mapped[str] = orm.mapped_column(sa.String(16), nullable=False)
    degraded: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    trust_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))


class Reservation(Base):
    """One reservation of a lease; details live in a per-type table."""

    __tablename__ = "reservations"

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    lease_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("leases.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    resource_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    #: Id of the row in instance_reservations or host_reservations.
    resource_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False
    )
    status: orm.Mapped[str] = orm.mapped_column(sa.String(16), nullable=False)
    missing_resources: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )
    resources_changed: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )


class InstanceReservation(Base):
    """``virtual:instance``: amount x (vcpus, memory_mb, disk_gb)."""

    __tablename__ = "instance_reservations"

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    reservation_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("reservations.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    )
    vcpus: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    memory_mb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    disk_gb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    amount: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    #: True: one host; False: amount distinct hosts; None: anywhere.
    affinity: orm.Mapped[bool | None] = orm.mapped_column(sa.Boolean)
    resource_properties: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    flavor_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    server_group_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))
    aggregate_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class HostReservation(Base):
    """``physical:host``: between min and max whole hosts."""

    __tablename__ = "host_reservations"

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    reservation_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("reservations.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    )
    count_range_min: orm.Mapped[int] = orm.mapped_column(
        "min", sa.Integer, nullable=False
    )
    count_range_max: orm.Mapped[int] = orm.mapped_column(
        "max", sa.Integer, nullable=False
    )
    hypervisor_properties: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    resource_properties: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    before_end: orm.Mapped[str | None] = orm.mapped_column(sa.String(16))
    aggregate_id: orm.Mapped[int | None] = orm.mapped_column(sa.Integer)


class ComputeHost(Base):
    """A compute host registered in the freepool (from Nova)."""

    __tablename__ = "compute_hosts"
    __table_args__ = (
        sa.UniqueConstraint(
            "hypervisor_hostname",
            name="uniq_compute_hosts0hypervisor_hostname",
        ),
    )

    id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, primary_key=True, autoincrement=True
    )
    hypervisor_hostname: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    #: The nova-compute service host (used in aggregates).
    service_name: orm.Mapped[str] = orm.mapped_column(
        sa.String(255), nullable=False
    )
    availability_zone: orm.Mapped[str | None] = orm.mapped_column(
        sa.String(255)
    )
    hypervisor_type: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    hypervisor_version: orm.Mapped[int | None] = orm.mapped_column(
        sa.BigInteger
    )
    cpu_info: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
    vcpus: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    memory_mb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    local_gb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    #: False while Nova reports the compute service down or disabled.
    reservable: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=True
    )
    #: Why the host is not reservable (e.g. "down", "disabled").
    status: orm.Mapped[str | None] = orm.mapped_column(sa.String(32))
    extra_capabilities: orm.Mapped[Json] = orm.mapped_column(JSONDoc)
    trust_id: orm.Mapped[str | None] = orm.mapped_column(sa.String(36))


class HostAllocation(Base):
    """Capacity ledger row: ``instances`` slots of a reservation on a host
    during [start_date, end_date); ``exclusive`` for whole-host ones."""

    __tablename__ = "host_allocations"
    __table_args__ = (
        sa.Index("host_allocations_window_idx", "end_date", "start_date"),
        sa.Index("host_allocations_host_end_idx", "host_id", "end_date"),
    )

    id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, primary_key=True, autoincrement=True
    )
    reservation_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("reservations.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    lease_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36), nullable=False, index=True
    )
    host_id: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, sa.ForeignKey("compute_hosts.id"), nullable=False
    )
    start_date: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    end_date: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    instances: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    vcpus: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    memory_mb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    disk_gb: orm.Mapped[int] = orm.mapped_column(sa.Integer, nullable=False)
    exclusive: orm.Mapped[bool] = orm.mapped_column(
        sa.Boolean, nullable=False, default=False
    )


class LeaseEvent(Base):
    """start_lease / before_end_lease / end_lease (and internal work
    items), claimed by one conductor with a conditional UPDATE."""

    __tablename__ = "lease_events"
    __table_args__ = (
        sa.Index("lease_events_status_time_idx", "status", "time"),
    )

    id: orm.Mapped[str] = orm.mapped_column(sa.String(36), primary_key=True)
    lease_id: orm.Mapped[str] = orm.mapped_column(
        sa.String(36),
        sa.ForeignKey("leases.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )
    event_type: orm.Mapped[str] = orm.mapped_column(
        sa.String(32), nullable=False
    )
    time: orm.Mapped[datetime.datetime] = orm.mapped_column(
        UTCDateTime, nullable=False
    )
    status: orm.Mapped[str] = orm.mapped_column(sa.String(16), nullable=False)
    #: Conductor running the event (IN_PROGRESS); taken over when that
    #: conductor's heartbeat is stale.
    conductor_host: orm.Mapped[str | None] = orm.mapped_column(sa.String(255))
    claimed_at: orm.Mapped[datetime.datetime | None] = orm.mapped_column(
        UTCDateTime
    )
    attempts: orm.Mapped[int] = orm.mapped_column(
        sa.Integer, nullable=False, default=0
    )
    error: orm.Mapped[str | None] = orm.mapped_column(sa.Text)
