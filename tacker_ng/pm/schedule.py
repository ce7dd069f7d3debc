"""When a PM job reports (SOL003 6.5.3.3 PmJobCriteria).

A job reports at the end of each reportingPeriod, counted from its
creation, until its reportingBoundary (if any): the period that ends at
or before the boundary is the last. A collector that was down does not
catch up period by period: the next report is the first period end still
ahead of it.
"""

import datetime


def first_due(
    created_at: datetime.datetime,
    reporting_period: int,
    boundary: datetime.datetime | None,
) -> datetime.datetime | None:
    """End of the first reporting period (None: the boundary is before)."""
    due = created_at + datetime.timedelta(seconds=reporting_period)
    return None if boundary is not None and due > boundary else due


def next_due(
    due_at: datetime.datetime,
    reporting_period: int,
    now: datetime.datetime,
    boundary: datetime.datetime | None,
) -> datetime.datetime | None:
    """The period end after ``due_at`` still ahead of ``now`` (None: the
    reporting is over)."""
    if reporting_period < 1:
        raise ValueError("reporting_period must be positive")
    step = datetime.timedelta(seconds=reporting_period)
    missed = max(0, (now - due_at) // step)
    due = due_at + step * (missed + 1)
    return None if boundary is not None and due > boundary else due
