"""A real Prometheus scrapes tacker-ng's own ``/metrics``.

A deployment of real processes (tacker-ng-api with two gunicorn workers,
two conductors on a Redis jobboard, MariaDB or PostgreSQL) is scraped
every second: through the API as its admin (HTTP basic, as Prometheus's
``basic_auth``), and without login on the ``[metrics] listen_port`` that
tacker-ng-api's master serves. The request counter moves by exactly the
requests made, whichever worker served them; the op occs, their
durations, the conductors' observation cycles and the jobboard come from
the database, computed by each backend's SQL.
"""

from __future__ import annotations

import time

import pytest

from tacker_ng.tests.functional import lcm_fixtures, services

pytestmark = pytest.mark.timeout(300)
ROUTE = "/vnflcm/v2/vnf_instances"


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def scraped(request, tmp_path_factory, prometheus):
    services.require("redis")
    tmp_path = tmp_path_factory.mktemp(f"metrics-{request.param}")
    open_port = services.free_port()
    with lcm_fixtures.lcm_deployment(
        tmp_path,
        request.param,
        extra={
            "conductor": {"jobboard_url": "redis://127.0.0.1:6379/0"},
            "metrics": {"listen_port": open_port},
        },
    ) as dep:
        api = dep.url.split("://", 1)[1]
        job = f"tacker-ng-{request.param}"
        prometheus.add_job(
            job, basic_auth={"username": "operator", "password": "op-pass"}
        )
        prometheus.write_targets("api", [{"targets": [api]}], job=job)
        prometheus.add_job(f"{job}-open")
        prometheus.write_targets(
            "api",
            [{"targets": [f"127.0.0.1:{open_port}"]}],
            job=f"{job}-open",
        )
        prometheus.wait_targets(1, job=job)
        prometheus.wait_targets(1, job=f"{job}-open")
        yield dep, job
        prometheus.remove_targets("api", job=job)
        prometheus.remove_targets("api", job=f"{job}-open")


def _counter(prometheus, job: str, status: str) -> float:
    found = prometheus.value(
        f'sum(tacker_ng_api_requests_total{{job="{job}",method="POST",'
        f'route="{ROUTE}",status="{status}"}})'
    )
    return found or 0.0


def test_counters_move_with_api_calls(prometheus, scraped):
    dep, job = scraped
    client = dep.client()
    created = _counter(prometheus, job, "201")
    refused = _counter(prometheus, job, "400")
    ids = [lcm_fixtures.create_instance(dep, client) for _ in range(3)]
    bad = client.post(ROUTE, {"vnfdId": 42}, validate=False)
    assert bad.status_code == 400
    client.run(ids[0], "instantiate", {"flavourId": "simple"})
    since = time.time()
    for name in (job, f"{job}-open"):
        prometheus.wait_scraped(since, job=name)
        # Both workers' requests, whichever one this scrape reached.
        assert _counter(prometheus, name, "201") == created + 3
        assert _counter(prometheus, name, "400") == refused + 1
    # The route is a template: no series names an instance.
    routes = prometheus.values(
        f'count by (route) (tacker_ng_api_requests_total{{job="{job}"}})',
        ("route",),
    )
    assert not [r for (r,) in routes if ids[0] in r]
    assert (ROUTE + "/{vnfInstanceId}/instantiate",) in routes


def test_fleet_figures_from_the_database(prometheus, scraped):
    dep, job = scraped
    client = dep.client()
    inst = lcm_fixtures.create_instance(dep, client)
    client.run(inst, "instantiate", {"flavourId": "simple"})
    since = time.time()
    prometheus.wait_scraped(since, job=job)
    sel = f'job="{job}",operation="INSTANTIATE",state="COMPLETED"'
    done = prometheus.value(f"tacker_ng_vnf_lcm_op_occs{{{sel}}}")
    assert done and done >= 1
    took = prometheus.value(
        f"tacker_ng_vnf_lcm_op_occ_duration_seconds_count{{{sel}}}"
    )
    assert took == done
    total = prometheus.value(
        f"tacker_ng_vnf_lcm_op_occ_duration_seconds_sum{{{sel}}}"
    )
    # MariaDB keeps whole seconds: a quick operation may take 0 s.
    assert 0 <= total < 60 * done
    # A quantile over the buckets counted in SQL.
    median = prometheus.value(
        "histogram_quantile(0.5, sum by (le) (tacker_ng_vnf_lcm_op_occ_"
        f"duration_seconds_bucket{{{sel}}}))"
    )
    assert 0 < median <= 60  # within the first bucket (<= 1 s): 0.5 s
    assert prometheus.value(f'tacker_ng_database_up{{job="{job}"}}') == 1
    # Each conductor's first observation cycle, with its heartbeat.
    cycles = prometheus.wait_value(
        f'count(tacker_ng_observer_cycle_seconds{{job="{job}"}})',
        lambda v: v == len(dep.conductors),
    )
    assert cycles == 2
    online = prometheus.values(
        f'tacker_ng_conductor_online{{job="{job}"}}', ("conductor",)
    )
    assert online == {(host,): 1.0 for host in dep.conductors}
    # The Redis jobboard as the conductors see it: nothing waits now.
    # Each conductor counts it with its heartbeat, so the figure scraped
    # first may be one counted while the instantiate still waited; the
    # next counts must say 0 (a job left on the board would keep it up).
    assert (
        prometheus.wait_value(
            f'tacker_ng_jobboard_jobs{{job="{job}",state="unclaimed"}}',
            lambda v: v == 0,
            timeout=60,
        )
        == 0
    )
    assert (
        prometheus.value(f'tacker_ng_notifications_pending{{job="{job}"}}')
        is not None
    )
