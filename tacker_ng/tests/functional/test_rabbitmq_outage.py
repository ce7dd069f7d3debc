"""RabbitMQ goes away mid-operation; the operation and later ones work.

The shared RabbitMQ is never restarted (other tests use it): the API and
two conductors reach it through a TCP relay (:mod:`.relay`) that the test
cuts for 15 s while an instantiate runs (every AMQP connection dropped,
new ones refused). The running operation does not need the broker (its
job is on the Redis jobboard, its notifications go over HTTP) and
completes; once the relay is back, oslo.messaging reconnects in every
process and the next operation cast by the API is run.
"""

import time

from tacker_ng.tests.functional import lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.receiver import Receiver
from tacker_ng.tests.functional.relay import relayed

OUTAGE = 15
RECONNECTED = "Reconnected to AMQP server"


def _vnfc(client, inst_id: str) -> str:
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    return inst["instantiatedVnfInfo"]["vnfcResourceInfo"][0]["id"]


def test_op_completes_across_a_rabbitmq_outage(tmp_path):
    services.require("redis")
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        relayed(services.RABBIT_URL, 5672) as (url, relay),
        lcm_fixtures.lcm_deployment(
            tmp_path,
            "mariadb",
            extra={
                "DEFAULT": {"transport_url": url},
                "conductor": {
                    "jobboard_url": "redis://127.0.0.1:6379/0",
                    "claim_timeout": 4,
                },
            },
        ) as dep,
    ):
        client = dep.client()
        lcm_fixtures.subscribe(client, receiver)
        inst_id = lcm_fixtures.create_instance(dep, client)
        occ_id = client.start(
            inst_id,
            "instantiate",
            {
                "flavourId": "simple",
                "additionalParams": {"fake": {"sleep": 4}},
            },
        )
        client.wait(occ_id, ("PROCESSING",), timeout=30)
        relay.cut()
        cut = time.monotonic()

        # An operation requested now cannot be cast: a prompt 503 (not an
        # API worker held for the outage) and a FAILED_TEMP op occ.
        unsent_inst = lcm_fixtures.create_instance(dep, client)
        sent = time.monotonic()
        resp = client.post(
            f"/vnflcm/v2/vnf_instances/{unsent_inst}/instantiate",
            {"flavourId": "simple"},
        )
        assert resp.status_code == 503, resp.text
        assert time.monotonic() - sent < 10
        (occ,) = client.get(
            f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{unsent_inst})"
        ).json()
        unsent = occ["id"]
        occ = client.occ(unsent)
        assert occ["operationState"] == "FAILED_TEMP", occ
        assert occ["error"]["status"] == 503

        # The running one needs no broker (jobboard on Redis,
        # notifications over HTTP): it finishes during the outage.
        occ = client.wait(occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=30)
        assert occ["operationState"] == "COMPLETED", occ
        assert time.monotonic() - cut < OUTAGE
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - cut)))
        relay.restore()

        # Both conductors' RPC servers reconnect and consume again; the
        # API's next casts go out on new connections and are run.
        for proc in dep.conductors.values():
            procs.wait_for(
                lambda p=proc: RECONNECTED in p.log_text(),
                30,
                f"{proc.name} to reconnect to RabbitMQ",
            )
        resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{unsent}/retry")
        assert resp.status_code == 202, resp.text
        after = client.start(
            inst_id, "heal", {"vnfcInstanceId": [_vnfc(client, inst_id)]}
        )
        for op_occ in (unsent, after):
            done = client.wait(op_occ, ("COMPLETED", "FAILED_TEMP"), 30)
            assert done["operationState"] == "COMPLETED", done
        ok = ["STARTING", "PROCESSING", "COMPLETED"]
        assert receiver.settled_states(occ_id) == ok
        assert receiver.settled_states(after) == ok
        assert receiver.settled_states(unsent) == [
            "STARTING",
            "FAILED_TEMP",
            "PROCESSING",
            "COMPLETED",
        ]
