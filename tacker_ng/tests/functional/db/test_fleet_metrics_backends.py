"""The statement behind ``/metrics`` on MariaDB and PostgreSQL: each
dialect's date arithmetic gives the same durations, buckets and ages as
the unit test's SQLite."""

import datetime
import uuid

import pytest
import sqlalchemy as sa

from tacker_ng.db import fleet_metrics, models
from tacker_ng.db.types import utcnow
from tacker_ng.tests import fixtures
from tacker_ng.tests.functional import services


@pytest.fixture(params=["mariadb", "postgresql"])
def engine(request, tmp_path):
    with (
        services.scratch_database(request.param) as url,
        fixtures.config(str(tmp_path)),
        fixtures.database(url) as engine,
    ):
        yield engine


def test_durations_buckets_and_ages(engine):
    # Whole seconds: MariaDB's DATETIME keeps no fraction.
    now = utcnow().replace(microsecond=0)
    inst = str(uuid.uuid4())
    with engine.begin() as conn:
        conn.execute(
            sa.insert(models.VnfInstance).values(
                id=inst, vnfd_id="d", vnf_provider="p", vnf_product_name="n",
                vnf_software_version="1", vnfd_version="1",
                instantiation_state="INSTANTIATED", created_at=now,
            )
        )  # fmt: skip
        for state, took, ended_ago in (
            ("COMPLETED", 5, 60),
            ("COMPLETED", 61, 60),
            ("COMPLETED", 3, 3 * 86400),  # outside the window
            ("FAILED", 3599, 600),
            ("PROCESSING", 10, 0),
        ):
            ended = now - datetime.timedelta(seconds=ended_ago)
            conn.execute(
                sa.insert(models.VnfLcmOpOcc).values(
                    id=str(uuid.uuid4()), vnf_instance_id=inst,
                    operation="SCALE", operation_state=state,
                    start_time=ended - datetime.timedelta(seconds=took),
                    state_entered_time=ended, created_at=now,
                )
            )  # fmt: skip
        conn.execute(
            sa.insert(models.LcmNotification).values(
                subscription_id="s", notification_type="t", payload={},
                next_attempt_at=now, created_at=now
                - datetime.timedelta(seconds=42),
            )
        )  # fmt: skip
        conn.execute(
            sa.insert(models.Conductor).values(
                hostname="c1", online=False, rpc_version="1",
                started_at=now, created_at=now,
                heartbeat_at=now - datetime.timedelta(seconds=7),
                observe_cycle_seconds=0.5, jobboard_jobs=4,
                jobboard_unclaimed=1,
            )
        )  # fmt: skip
    snap = fleet_metrics.snapshot(now, window=86400)
    counts = {(g.operation, g.state): g.count for g in snap.op_occs}
    assert counts == {("SCALE", "COMPLETED"): 3, ("SCALE", "FAILED"): 1,
                      ("SCALE", "PROCESSING"): 1}  # fmt: skip
    took = {d.state: d for d in snap.durations}
    assert set(took) == {"COMPLETED", "FAILED"}
    assert took["COMPLETED"].count == 2
    assert took["COMPLETED"].total == pytest.approx(66)
    # le:  1  5  10 30 60 120 300 600 1800 3600
    assert took["COMPLETED"].buckets == (0, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    assert took["FAILED"].buckets == (0,) * 9 + (1,)
    assert snap.notifications_pending == 1
    assert snap.oldest_notification_age == pytest.approx(42, abs=1)
    [c1] = snap.conductors
    assert (c1.online, c1.observe_cycle_seconds, c1.jobboard_jobs,
            c1.jobboard_unclaimed) == (False, 0.5, 4, 1)  # fmt: skip
    assert c1.heartbeat_age == pytest.approx(7, abs=1)
