"""``GET /metrics``: who may read it, what the counters and the fleet's
database figures say (SQLite here; MariaDB and PostgreSQL in the
functional tests)."""

import datetime
import re
import uuid

import pytest
import sqlalchemy as sa
import webtest
from prometheus_client.parser import text_string_to_metric_families

from tacker_ng.api import app as api_app
from tacker_ng.db import conductors as conductors_db
from tacker_ng.db import fleet_metrics, models
from tacker_ng.metrics import conductor as conductor_metrics
from tacker_ng.tests.unit.api.test_auth import basic

T0 = datetime.datetime(2026, 11, 1, 12, 0, tzinfo=datetime.UTC)


def samples(text: str) -> dict[tuple, float]:
    """{(sample name, sorted label items): value}"""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(text: str, name: str, **labels: str) -> float | None:
    return samples(text).get((name, tuple(sorted(labels.items()))))


def test_requests_are_counted_by_route_and_status(api):
    before = api.get("/metrics").text
    route = "/vnflcm/v2/vnf_instances/{vnfInstanceId}"
    key = {"method": "GET", "route": route, "status": "404"}
    start = value(before, "tacker_ng_api_requests_total", **key) or 0
    for _ in range(3):
        api.get(
            f"/vnflcm/v2/vnf_instances/{uuid.uuid4()}",
            headers={"Version": "2.0.0"},
            status=404,
        )
    api.get("/no/such/path", status=404)
    text = api.get("/metrics").text
    assert value(text, "tacker_ng_api_requests_total", **key) == start + 3
    assert (
        value(
            text,
            "tacker_ng_api_request_duration_seconds_count",
            method="GET",
            route=route,
        )
        >= 3
    )
    assert value(
        text,
        "tacker_ng_api_requests_total",
        method="GET",
        route="unmatched",
        status="404",
    )
    # No series carries a raw id (templates such as os-hosts/{hostId}
    # have dashes of their own: look for a UUID).
    raw_id = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-")
    assert not [
        k for k in samples(text) if raw_id.search(str(dict(k[1]).get("route")))
    ]


def test_only_admins_read_it(conf, db, tmp_path):
    import bcrypt

    htpasswd = tmp_path / "htpasswd"
    digest = bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)).decode()
    htpasswd.write_text(f"ops:{digest}\nbob:{digest}\n")
    conf.set_override("auth_strategy", "http_basic", group="api")
    conf.set_override("http_basic_admin_users", ["ops"], group="api")
    conf.set_override(
        "http_basic_auth_user_file", str(htpasswd), group="oslo_middleware"
    )
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    app.get("/metrics", status=401)
    denied = app.get("/metrics", headers=basic("bob", "pw"), status=403)
    assert denied.content_type == "application/problem+json"
    ok = app.get("/metrics", headers=basic("ops", "pw"))
    assert ok.content_type.startswith("text/plain")
    assert "# TYPE tacker_ng_api_requests_total counter" in ok.text
    app.post("/metrics", headers=basic("ops", "pw"), status=405)


def test_disabled_serves_nothing(conf, db):
    conf.set_override("enabled", False, group="metrics")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    app.get("/metrics", status=404)


def _op_occ(conn, instance_id, operation, state, seconds, days_ago=0.0):
    """An op occ that took ``seconds`` and ended ``days_ago`` (plus an
    hour) ago."""
    ended = fleet_metrics_now() - datetime.timedelta(days=days_ago, hours=1)
    conn.execute(
        sa.insert(models.VnfLcmOpOcc).values(
            id=str(uuid.uuid4()),
            vnf_instance_id=instance_id,
            operation=operation,
            operation_state=state,
            start_time=ended - datetime.timedelta(seconds=seconds),
            state_entered_time=ended,
            created_at=T0,
        )
    )


def test_fleet_figures_come_from_the_database(api, db):
    instance_id = str(uuid.uuid4())
    with db.begin() as conn:
        conn.execute(
            sa.insert(models.VnfInstance).values(
                id=instance_id,
                vnfd_id="d",
                vnf_provider="p",
                vnf_product_name="n",
                vnf_software_version="1",
                vnfd_version="1",
                instantiation_state="INSTANTIATED",
                created_at=T0,
            )
        )
        for op, state, took in (
            ("INSTANTIATE", "COMPLETED", 4.5),
            ("INSTANTIATE", "COMPLETED", 42),
            ("SCALE", "FAILED", 700),
            ("SCALE", "PROCESSING", 3),
            ("HEAL", "FAILED_TEMP", 8),
        ):
            _op_occ(conn, instance_id, op, state, took)
        # Finished two days ago: counted, but outside the durations'
        # window ([metrics] duration_window, one day).
        _op_occ(conn, instance_id, "INSTANTIATE", "COMPLETED", 1, days_ago=2)
        for delivered in (None, None, T0):
            conn.execute(
                sa.insert(models.LcmNotification).values(
                    subscription_id="s",
                    notification_type="VnfLcmOperationOccurrenceNotification",
                    payload={},
                    next_attempt_at=T0,
                    delivered_at=delivered,
                    created_at=fleet_metrics_now()
                    - datetime.timedelta(seconds=30),
                )
            )
    conductors_db.register("cond-x", "1.0")
    conductors_db.heartbeat(
        "cond-x",
        {
            "observe_cycle_seconds": 0.25,
            "jobboard_jobs": 5,
            "jobboard_unclaimed": 2,
        },
    )
    text = api.get("/metrics").text
    occs = "tacker_ng_vnf_lcm_op_occs"
    assert value(text, occs, operation="INSTANTIATE", state="COMPLETED") == 3
    assert value(text, occs, operation="SCALE", state="PROCESSING") == 1
    took = "tacker_ng_vnf_lcm_op_occ_duration_seconds"
    done = {"operation": "INSTANTIATE", "state": "COMPLETED"}
    assert value(text, f"{took}_count", **done) == 2
    assert value(text, f"{took}_sum", **done) == pytest.approx(46.5)
    assert value(text, f"{took}_bucket", le="5.0", **done) == 1
    assert value(text, f"{took}_bucket", le="60.0", **done) == 2
    failed = {"operation": "SCALE", "state": "FAILED"}
    assert value(text, f"{took}_bucket", le="600.0", **failed) == 0
    assert value(text, f"{took}_bucket", le="1800.0", **failed) == 1
    # Unfinished op occs have no duration.
    assert (
        value(text, f"{took}_count", operation="HEAL", state="FAILED_TEMP")
        is None
    )
    assert value(text, "tacker_ng_notifications_pending") == 2
    age = value(text, "tacker_ng_notifications_oldest_pending_age_seconds")
    assert 29 < age < 120
    assert (
        value(text, "tacker_ng_observer_cycle_seconds", conductor="cond-x")
        == 0.25
    )
    assert value(text, "tacker_ng_conductor_online", conductor="cond-x") == 1
    assert value(text, "tacker_ng_jobboard_jobs", state="unclaimed") == 2
    assert value(text, "tacker_ng_jobboard_jobs", state="claimed") == 3
    assert value(text, "tacker_ng_database_up") == 1
    # A restarted conductor reports nothing of its last life.
    conductors_db.register("cond-x", "1.0")
    text = api.get("/metrics").text
    assert (
        value(text, "tacker_ng_observer_cycle_seconds", conductor="cond-x")
        is None
    )
    assert value(text, "tacker_ng_jobboard_jobs", state="unclaimed") is None


def fleet_metrics_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def test_an_unreachable_database_is_a_figure_not_an_error(api, monkeypatch):
    def down(now):
        raise sa.exc.OperationalError("SELECT", {}, Exception("gone"))

    monkeypatch.setattr(fleet_metrics, "snapshot", down)
    text = api.get("/metrics").text
    assert value(text, "tacker_ng_database_up") == 0
    assert "tacker_ng_vnf_lcm_op_occs" not in text
    assert "tacker_ng_api_requests_total" in text


def test_timed_cycle_records_only_finished_cycles():
    figures = conductor_metrics.ConductorFigures()
    assert conductor_metrics.timed_cycle(lambda: "r", figures)() == "r"
    first = figures.columns()
    assert first["observe_cycle_seconds"] >= 0
    assert first["observe_cycle_at"].tzinfo is not None

    def boom():
        raise RuntimeError("VIM gone")

    with pytest.raises(RuntimeError):
        conductor_metrics.timed_cycle(boom, figures)()
    assert figures.columns() == first
    figures.jobboard(4, 1)
    assert figures.columns()["jobboard_jobs"] == 4
