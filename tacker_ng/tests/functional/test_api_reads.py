"""GETs of the LCM API on MariaDB and PostgreSQL: one statement each and
no transaction control, conditional GETs, and a read that survives the
server killing the API's database sessions.

The API runs with ``TACKER_NG_COUNT_SQL=1``, so each response says in
``X-Tacker-Ng-Sql`` what its request sent to the database
(tacker_ng.db.statement_counter).
"""

import os
import time

import pytest
import sqlalchemy as sa

from tacker_ng.db import statement_counter
from tacker_ng.tests.functional import lcm_fixtures, services

INSTANCES = "/vnflcm/v2/vnf_instances"
OCCS = "/vnflcm/v2/vnf_lcm_op_occs"


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def dep(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"reads-{request.param}")
    saved = os.environ.get(statement_counter.ENV)
    os.environ[statement_counter.ENV] = "1"
    try:
        with lcm_fixtures.lcm_deployment(
            tmp, request.param, conductors=("cond-a",)
        ) as deployment:
            deployment.backend = request.param
            yield deployment
    finally:
        if saved is None:
            os.environ.pop(statement_counter.ENV, None)
        else:
            os.environ[statement_counter.ENV] = saved


@pytest.fixture(scope="module")
def made(dep):
    client = dep.client()
    inst = lcm_fixtures.create_instance(dep, client)
    occ = client.run(inst, "instantiate", {"flavourId": "simple"})
    return {"instance": inst, "occ": occ["id"]}


def _sql(resp) -> dict[str, int]:
    return statement_counter.parse_header(
        resp.headers[statement_counter.HEADER]
    )


def test_gets_send_one_select_and_no_transaction_control(dep, made):
    client = dep.client()
    # A worker's first read connects and lets SQLAlchemy look at the
    # server (version, modes): once per process, counted too. Let both
    # workers do that first.
    for _ in range(20):
        assert client.get(INSTANCES).status_code == 200
    for path in (
        INSTANCES,
        f"{INSTANCES}?filter=(eq,instantiationState,INSTANTIATED)",
        f"{INSTANCES}/{made['instance']}",
        OCCS,
        f"{OCCS}/{made['occ']}",
        "/vnflcm/v2/subscriptions",
    ):
        for _ in range(3):  # also once the pools are warm
            resp = client.get(path)
            assert resp.status_code == 200, resp.text
            counts = _sql(resp)
            assert counts == {"select": 1, "statements": 1}, (path, counts)


def test_a_write_still_is_a_transaction(dep):
    client = dep.client()
    resp = client.post(INSTANCES, {"vnfdId": dep.package["vnfd_id"]})
    assert resp.status_code == 201, resp.text
    counts = _sql(resp)
    assert counts.get("commit") == 1, counts
    assert counts.get("insert", 0) >= 1, counts


def test_if_none_match_304_then_200_after_a_change(dep, made):
    client = dep.client()
    url = f"{INSTANCES}/{made['instance']}"
    for path in (url, INSTANCES):
        first = client.get(path)
        tag = first.headers["ETag"]
        again = client.get(
            path, headers={"If-None-Match": tag}, validate=False
        )
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["ETag"] == tag
    list_tag = client.get(INSTANCES).headers["ETag"]
    item_tag = client.get(url).headers["ETag"]
    # metadata is not in a list's default representation: the page
    # stays the same (still 304); the instance changes.
    resp = client.call(
        "PATCH",
        url,
        json={"metadata": {"changed": True}},
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert resp.status_code == 202, resp.text
    client.wait(resp.headers["Location"].rsplit("/", 1)[1], ("COMPLETED",))
    resp = client.get(url, headers={"If-None-Match": item_tag})
    assert resp.status_code == 200
    assert resp.headers["ETag"] != item_tag
    assert resp.json()["metadata"] == {"changed": True}
    resp = client.get(
        INSTANCES, headers={"If-None-Match": list_tag}, validate=False
    )
    assert resp.status_code == 304
    # A new instance joins the page.
    lcm_fixtures.create_instance(dep, client)
    resp = client.get(INSTANCES, headers={"If-None-Match": list_tag})
    assert resp.status_code == 200
    assert resp.headers["ETag"] != list_tag


def _kill_sessions(backend: str, database: str) -> int:
    """Kill every session on ``database`` from the server side."""
    admin_url = (
        services.MYSQL_ADMIN_URL
        if backend == "mariadb"
        else services.PG_ADMIN_URL
    )
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if backend == "mariadb":
                ids = conn.execute(
                    sa.text(
                        "SELECT id FROM information_schema.PROCESSLIST "
                        "WHERE db = :db AND id <> CONNECTION_ID()"
                    ),
                    {"db": database},
                ).scalars()
                killed = 0
                for ident in list(ids):
                    conn.exec_driver_sql(f"KILL {int(ident)}")
                    killed += 1
                return killed
            return len(
                conn.execute(
                    sa.text(
                        "SELECT pg_terminate_backend(pid) FROM "
                        "pg_stat_activity WHERE datname = :db "
                        "AND pid <> pg_backend_pid()"
                    ),
                    {"db": database},
                ).all()
            )
    finally:
        admin.dispose()


def test_read_recovers_from_sessions_killed_server_side(dep, made):
    client = dep.client()
    for _ in range(6):  # warm both API workers' read pools
        assert client.get(INSTANCES).status_code == 200
    database = sa.make_url(dep.sql_url).database
    assert _kill_sessions(dep.backend, database) >= 1
    time.sleep(0.3)
    for _ in range(10):
        resp = client.get(f"{INSTANCES}/{made['instance']}")
        assert resp.status_code == 200, resp.text
        resp = client.get(INSTANCES)
        assert resp.status_code == 200, resp.text
