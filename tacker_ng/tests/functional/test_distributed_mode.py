"""An operator runs 1 API (2 workers) and 2 conductors on RabbitMQ + SQL.

Real processes from the console scripts, a real RabbitMQ and a real
MariaDB or PostgreSQL: RPC round trips reach both conductors through the
broker, request ids cross the bus, the fleet is visible to the operator
and a conductor stopped with SIGTERM leaves cleanly.
"""

import configparser
import shutil
import subprocess

import pytest
import requests

from tacker_ng.tests.functional import deployment as dep_mod
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def deployment(request, tmp_path_factory):
    """tacker-ng-api (2 workers) + two tacker-ng-conductor processes.

    One deployment per backend serves every test of this module; the test
    that stops a conductor runs last.
    """
    with (
        services.scratch_database(request.param) as sql_url,
        dep_mod.deploy(tmp_path_factory.mktemp(request.param), sql_url) as dep,
    ):
        topic = _topic(dep.conf_path)
        yield {
            "url": dep.url,
            "auth": dep.auth,
            "api": dep.api,
            "conductors": dep.conductors,
            "topic": topic,
        }


def _topic(conf_path: str) -> str:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(conf_path)
    return parser["conductor"]["topic"]


def _auth(user: str, password: str) -> dict:
    return dep_mod.basic_auth(user, password)


def _fleet(dep) -> dict:
    resp = requests.get(
        f"{dep['url']}/v1/conductors", headers=dep["auth"], timeout=10
    )
    assert resp.status_code == 200, resp.text
    return {c["hostname"]: c for c in resp.json()["conductors"]}


def _wait_alive(dep, hosts: set[str], timeout: float = 20) -> None:
    fleet: dict = {}

    def alive() -> bool:
        nonlocal fleet
        fleet = _fleet(dep)
        return {name for name, c in fleet.items() if c["alive"]} == hosts

    try:
        procs.wait_for(alive, timeout, f"conductors {sorted(hosts)} alive")
    except AssertionError as exc:
        raise AssertionError(f"{exc}; fleet: {fleet}") from None


def _ping(dep, payload: str) -> requests.Response:
    return requests.post(
        f"{dep['url']}/v1/ping",
        json={"payload": payload, "timeout": 10},
        headers=dep["auth"],
        timeout=20,
    )


def test_rpc_round_trips_reach_both_conductors_via_rabbitmq(deployment):
    dep = deployment
    _wait_alive(dep, {"cond-a", "cond-b"})
    answered = set()
    request_ids = []
    for i in range(12):
        resp = _ping(dep, f"round-trip-{i}")
        assert resp.status_code == 200, resp.text
        assert resp.json()["payload"] == f"round-trip-{i}"
        answered.add(resp.json()["host"])
        request_ids.append(resp.headers["x-openstack-request-id"])
    assert answered == {"cond-a", "cond-b"}

    # The request id of the API call is in the answering conductor's log.
    logs = "".join(p.log_tail(100000) for p in dep["conductors"].values())
    assert all(rid in logs for rid in request_ids)

    # The conductors really consume from RabbitMQ: two consumers on the
    # topic queue.
    rabbitmqctl = shutil.which("rabbitmqctl")
    assert rabbitmqctl, "rabbitmqctl is needed to inspect the broker"
    queues = subprocess.run(
        [rabbitmqctl, "-q", "list_queues", "name", "consumers"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    consumers = {
        line.split()[0]: int(line.split()[1])
        for line in queues.splitlines()
        if len(line.split()) == 2 and line.split()[1].isdigit()
    }
    assert consumers.get(dep["topic"]) == 2, queues


def test_api_errors_are_problem_details(deployment):
    url = deployment["url"]
    auth = deployment["auth"]
    cases = [
        ("get", "/vnflcm/v2/api_versions", {}, None, 401),
        (
            "get",
            "/vnflcm/v2/api_versions",
            _auth("operator", "bad"),
            None,
            401,
        ),
        ("get", "/vnflcm/v2/vnf_instances", auth, None, 400),
        (
            "get",
            "/vnflcm/v2/vnf_instances",
            {**auth, "Version": "9.9.9"},
            None,
            406,
        ),
        ("get", "/no/such/path", auth, None, 404),
        ("delete", "/vnflcm/v2/api_versions", auth, None, 405),
        (
            "post",
            "/v1/ping",
            {**auth, "Content-Type": "application/json"},
            "{oops",
            400,
        ),
        ("post", "/v1/ping", {**auth, "Content-Type": "text/plain"}, "x", 415),
    ]
    for method, path, headers, data, status in cases:
        resp = requests.request(
            method, url + path, headers=headers, data=data, timeout=10
        )
        assert resp.status_code == status, (path, resp.text)
        assert resp.headers["Content-Type"] == "application/problem+json"
        body = resp.json()
        assert body["status"] == status
        assert "Traceback" not in resp.text
    ok = requests.get(
        f"{url}/vnflcm/v2/api_versions", headers=auth, timeout=10
    )
    assert ok.status_code == 200
    assert ok.headers["Version"] == "2.0.0"


def test_sigterm_stops_a_conductor_cleanly(deployment):
    dep = deployment
    _wait_alive(dep, {"cond-a", "cond-b"})
    assert dep["conductors"]["cond-a"].stop() == 0
    fleet = _fleet(dep)
    assert fleet["cond-a"]["online"] is False
    assert fleet["cond-a"]["alive"] is False
    assert fleet["cond-b"]["alive"] is True
    for i in range(4):
        resp = _ping(dep, f"after-stop-{i}")
        assert resp.status_code == 200, resp.text
        assert resp.json()["host"] == "cond-b"
