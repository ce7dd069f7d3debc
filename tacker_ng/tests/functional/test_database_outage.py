"""The database goes away mid-operation; the operation still completes.

Two conductors and the API reach MariaDB or PostgreSQL through a TCP
relay (:mod:`.relay`) that the test cuts (every connection dropped, new
ones refused) while the infra driver works, for longer than the
transaction retries last. The run is
interrupted, not failed: the jobboard runs the job again once the
database is back and the op occ ends COMPLETED, with each notification
once and in order.
"""

import time

import pytest

from tacker_ng import context as tcontext
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.receiver import Receiver
from tacker_ng.tests.functional.relay import relayed

OUTAGE = 15


def _wait(client, occ_id: str, states, timeout: float) -> dict:
    """Like SolClient.wait, but the API's 503s (it reads the database
    too) while the database comes back are not an answer."""
    deadline = time.monotonic() + timeout
    occ: dict = {}
    while time.monotonic() < deadline:
        resp = client.get(
            f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}", validate=False
        )
        if resp.status_code == 200:
            occ = resp.json()
            if occ["operationState"] in states:
                return occ
        else:
            assert resp.status_code == 503, resp.text
        time.sleep(0.3)
    raise AssertionError(f"op occ {occ_id} did not reach {states}: {occ}")


@pytest.mark.parametrize("backend", ["mariadb", "postgresql"])
def test_op_completes_across_a_database_outage(tmp_path, backend):
    services.require("redis")
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        services.scratch_database(backend) as direct_url,
        relayed(direct_url) as (url, relay),
        deployment.deploy(
            tmp_path,
            url,
            extra={
                "conductor": {
                    "jobboard_url": "redis://127.0.0.1:6379/0",
                    "claim_timeout": 6,
                }
            },
        ) as dep,
    ):
        with (
            fixtures.config(str(tmp_path)),
            fixtures.database(direct_url, migrate=False),
        ):
            package = lcm_packages.onboard(
                tcontext.get_admin_context(), lcm_packages.build()
            )
        dep.package = package
        client = dep.client()
        lcm_fixtures.subscribe(client, receiver)
        occ_id = client.start(
            lcm_fixtures.create_instance(dep, client),
            "instantiate",
            {
                "flavourId": "simple",
                "additionalParams": {"fake": {"sleep": 4}},
            },
        )
        client.wait(occ_id, ("PROCESSING",), timeout=30)
        time.sleep(1)  # the driver works
        relay.cut()
        time.sleep(OUTAGE)
        relay.restore()
        occ = _wait(client, occ_id, ("COMPLETED", "FAILED_TEMP"), 120)
        assert occ["operationState"] == "COMPLETED", occ
        assert receiver.settled_states(occ_id, timeout=30) == [
            "STARTING",
            "PROCESSING",
            "COMPLETED",
        ]
        logs = "".join(p.log_text() for p in dep.conductors.values())
        assert "interrupted (database unreachable)" in logs
