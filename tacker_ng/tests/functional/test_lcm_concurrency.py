"""Two NFVO requests race for one VNF instance: exactly one wins.

1,000 trials per backend, each on a fresh instance: two threads send
``instantiate`` at the same instant through tacker-ng-api (2 workers) to
MariaDB / PostgreSQL. The database decides (conditional UPDATE of the
instance's hold), so every trial must yield exactly one 202 and one 409.
No conductor runs, so the accepted operations just stay STARTING.
"""

import threading
import uuid

import pytest
import requests
import sqlalchemy as sa

from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.tests.functional import deployment, lcm_fixtures

TRIALS = 1000


@pytest.mark.parametrize("backend", ["mariadb", "postgresql"])
def test_exactly_one_of_two_concurrent_requests_wins(backend, tmp_path):
    with lcm_fixtures.lcm_deployment(tmp_path, backend, conductors=()) as dep:
        ids = [str(uuid.uuid4()) for _ in range(TRIALS)]
        pkg = dep.package
        engine = sa.create_engine(dep.sql_url)
        now = utcnow()
        with engine.begin() as conn:
            conn.execute(
                sa.insert(models.VnfInstance.__table__),
                [
                    {
                        "id": i,
                        "vnfd_id": pkg["vnfd_id"],
                        "vnf_provider": pkg["vnf_provider"],
                        "vnf_product_name": pkg["vnf_product_name"],
                        "vnf_software_version": pkg["vnf_software_version"],
                        "vnfd_version": pkg["vnfd_version"],
                        "instantiation_state": "NOT_INSTANTIATED",
                        "vim_connection_info": None,
                        "project_id": "default",
                        "version": 1,
                        "created_at": now,
                    }
                    for i in ids
                ],
            )
        engine.dispose()
        headers = {**dep.auth, **deployment.V}
        body = {
            "flavourId": "simple",
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        }
        outcomes: dict[tuple[int, ...], int] = {}
        sessions = [requests.Session(), requests.Session()]
        for instance_id in ids:
            barrier = threading.Barrier(2)
            codes: list[int] = []

            def fire(
                session, instance_id=instance_id, barrier=barrier, codes=codes
            ):
                barrier.wait()
                resp = session.post(
                    f"{dep.url}/vnflcm/v2/vnf_instances/{instance_id}/"
                    "instantiate",
                    json=body,
                    headers=headers,
                    timeout=30,
                )
                codes.append(resp.status_code)

            threads = [
                threading.Thread(target=fire, args=(s,)) for s in sessions
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            key = tuple(sorted(codes))
            outcomes[key] = outcomes.get(key, 0) + 1
        assert outcomes == {(202, 409): TRIALS}, outcomes
        engine = sa.create_engine(dep.sql_url)
        with engine.connect() as conn:
            occs = conn.execute(
                sa.select(sa.func.count()).select_from(
                    models.VnfLcmOpOcc.__table__
                )
            ).scalar_one()
            held = conn.execute(
                sa.select(sa.func.count())
                .select_from(models.VnfInstance.__table__)
                .where(models.VnfInstance.current_op_occ_id.is_not(None))
            ).scalar_one()
        engine.dispose()
        assert occs == TRIALS
        assert held == TRIALS


def test_cancel_while_starting_rolls_back(tmp_path):
    """With no conductor to take it, an op occ stays STARTING; cancel
    then ends it ROLLED_BACK at once and frees the instance."""
    with lcm_fixtures.lcm_deployment(
        tmp_path, "postgresql", conductors=()
    ) as dep:
        client = dep.client()
        inst = client.post(
            "/vnflcm/v2/vnf_instances",
            {
                "vnfdId": dep.package["vnfd_id"],
                "vimConnectionInfo": lcm_fixtures.fake_vim(),
            },
        ).json()
        occ_id = client.start(
            inst["id"], "instantiate", {"flavourId": "simple"}
        )
        assert client.occ(occ_id)["operationState"] == "STARTING"
        resp = client.post(
            f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/cancel",
            {"cancelMode": "GRACEFUL"},
        )
        assert resp.status_code == 202
        occ = client.occ(occ_id)
        assert occ["operationState"] == "ROLLED_BACK"
        assert occ["cancelMode"] == "GRACEFUL"
        again = client.post(
            f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/cancel",
            {"cancelMode": "GRACEFUL"},
        )
        assert again.status_code == 409
        second = client.start(
            inst["id"], "instantiate", {"flavourId": "simple"}
        )
        assert second != occ_id
