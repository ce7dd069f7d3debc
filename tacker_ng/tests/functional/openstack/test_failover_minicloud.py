"""A conductor killed during a real Heat stack create: no second stack.

tacker-ng-api and two conductors (RabbitMQ, MariaDB, Redis jobboard),
the spec's package and minicloud's real Heat and Nova. The conductor
running an instantiate is killed (SIGKILL) right after it asked Heat for
the stack; the other conductor claims the job once the claim expires,
finds the stack Heat is building, waits for it and completes the op
occ. Heat then holds one stack for the VNF and Nova one server per VNFC.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
import sqlalchemy as sa

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE
from tacker_ng.tests.functional.openstack.test_e2e_rest import (
    TIMEOUT,
    progress,
    run,
)

pytestmark = pytest.mark.minicloud
CLAIM_TIMEOUT = 8


@pytest.fixture(scope="module")
def fleet(cloud, tmp_path_factory):
    """(deployment, client, vnfdId): two conductors on the jobboard."""
    services.require("redis")
    tmp = tmp_path_factory.mktemp("failover")
    src = env.spec_package_source(tmp / "src", IMAGE)
    extra = {
        "conductor": {
            "jobboard_url": "redis://127.0.0.1:6379/0",
            "claim_timeout": CLAIM_TIMEOUT,
        },
    }
    with (
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(tmp, sql_url, extra=cloud.tacker_conf(extra)) as dep,
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, builder.build_csar_bytes(src), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        yield dep, dep.client(), pkg["vnfdId"]


def test_kill_during_stack_create_completes_with_one_stack(
    cloud, fleet, capacity
):
    dep, client, vnfd_id = fleet
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": env.vim_connection(cloud)},
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    before = _servers(cloud)
    occ_id = client.start(
        inst_id,
        "instantiate",
        {"flavourId": "simple", "extVirtualLinks": env.ext_links(cloud)},
    )
    procs.wait_for(
        lambda: (
            (progress(dep, occ_id) or {}).get("driver", {}).get("stack_id")
        ),
        TIMEOUT,
        "the stack create request",
        interval=0.05,
    )
    owner = _owner(dep, occ_id)
    os.killpg(dep.conductors[owner].popen.pid, signal.SIGKILL)
    killed = time.monotonic()
    survivor = next(h for h in dep.conductors if h != owner)
    procs.wait_for(
        lambda: _owner(dep, occ_id) == survivor,
        CLAIM_TIMEOUT + 10,
        "the take-over",
        interval=0.1,
    )
    assert time.monotonic() - killed <= CLAIM_TIMEOUT + 3
    occ = client.wait(occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=TIMEOUT)
    assert occ["operationState"] == "COMPLETED", occ.get("error")

    stacks = cloud.live_stacks(f"vnf-{inst_id}")
    assert len(stacks) == 1
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    servers = {
        v["computeResource"]["resourceId"]
        for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }
    # Every server Nova gained is one of the VNF's VNFCs: none twice.
    assert _servers(cloud) - before == servers
    run(client, inst_id, "terminate", {"terminationType": "FORCEFUL"})
    assert not cloud.live_stacks(f"vnf-{inst_id}")


def _servers(cloud) -> set[str]:
    """The lane's servers (other lanes boot and delete theirs)."""
    return {s.id for s in cloud.servers()}


def _owner(dep, occ_id: str) -> str | None:
    engine = sa.create_engine(dep.sql_url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                sa.text(
                    "SELECT conductor_host FROM vnf_lcm_op_occs WHERE id = :i"
                ),
                {"i": occ_id},
            ).scalar_one()
    finally:
        engine.dispose()
