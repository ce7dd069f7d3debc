"""A VIM that accepts TCP and never answers cannot hold an operation.

An operator's OpenStack VIM hangs (its Keystone accepts connections and
never replies). The instantiate fails the step that called it within
``[openstack] read_timeout`` (FAILED_TEMP, a ProblemDetails that says the
VIM is unreachable, in our words) and the VNF instance is free for the
NFVO's next decision (here: fail the op occ).
"""

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

from tacker_ng.tests.functional import lcm_fixtures

READ_TIMEOUT = 3


@contextlib.contextmanager
def silent_listener() -> Iterator[int]:
    """A TCP port that accepts every connection and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                accepted.append(server.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()


def test_instantiate_on_a_silent_vim_fails_in_time(tmp_path):
    with (
        silent_listener() as port,
        lcm_fixtures.lcm_deployment(
            tmp_path,
            "mariadb",
            conductors=("cond-a",),
            extra={"openstack": {"read_timeout": READ_TIMEOUT}},
        ) as dep,
    ):
        client = dep.client()
        vim = {
            "vim1": {
                "vimId": "vim1",
                "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
                "interfaceInfo": {"endpoint": f"http://127.0.0.1:{port}/v3"},
                "accessInfo": {
                    "username": "vnf",
                    "password": "vim-secret",
                    "project": "vnf",
                },
            }
        }
        resp = client.post(
            "/vnflcm/v2/vnf_instances",
            {
                "vnfdId": dep.package["vnfd_id"],
                "vimConnectionInfo": vim,
            },
        )
        assert resp.status_code == 201, resp.text
        instance_id = resp.json()["id"]
        started = time.monotonic()
        occ_id = client.start(
            instance_id, "instantiate", {"flavourId": "simple"}
        )
        occ = client.wait(occ_id, ("FAILED_TEMP",), timeout=60)
        elapsed = time.monotonic() - started
        assert elapsed < READ_TIMEOUT + 10, elapsed
        error = occ["error"]
        assert error["status"] == 504
        assert error["title"] == "VIM Unreachable"
        assert error["detail"].startswith(
            "VIM vim1 is unreachable: Keystone gave no answer within"
        )
        assert "read_timeout" in error["detail"]
        # Named by its vimId: neither its address nor keystoneauth's text.
        for leak in ("127.0.0.1", str(port), "http", "timed out"):
            assert leak not in error["detail"], error
        assert "vim-secret" not in resp.text + str(occ)
        # The instance is not held: the NFVO can decide (fail it).
        resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/fail")
        assert resp.status_code == 200, resp.text
        assert resp.json()["operationState"] == "FAILED"
