"""A PM job reports at the end of each reportingPeriod until its
reportingBoundary, without catching up missed periods one by one."""

import datetime

from tacker_ng.pm import schedule

T0 = datetime.datetime(2026, 11, 29, 8, 0, tzinfo=datetime.UTC)
S = datetime.timedelta(seconds=1)


def test_first_report_one_period_after_creation():
    assert schedule.first_due(T0, 300, None) == T0 + 300 * S
    assert schedule.first_due(T0, 300, T0 + 300 * S) == T0 + 300 * S
    assert schedule.first_due(T0, 300, T0 + 299 * S) is None


def test_next_period_end():
    due = T0 + 300 * S
    assert schedule.next_due(due, 300, due, None) == T0 + 600 * S
    assert schedule.next_due(due, 300, due + 10 * S, None) == T0 + 600 * S


def test_a_collector_that_was_down_skips_to_the_next_period_ahead():
    due = T0 + 300 * S
    now = due + 1000 * S
    assert schedule.next_due(due, 300, now, None) == T0 + 1500 * S
    # exactly on a period end: that end is past, the next one is due
    assert schedule.next_due(due, 300, T0 + 1500 * S, None) == T0 + 1800 * S


def test_the_boundary_ends_the_reporting():
    due = T0 + 300 * S
    assert schedule.next_due(due, 300, due, T0 + 600 * S) == T0 + 600 * S
    assert schedule.next_due(due, 300, due, T0 + 599 * S) is None
