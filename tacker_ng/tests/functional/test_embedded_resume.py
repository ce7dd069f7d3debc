"""tacker-ng-all killed mid-operation finishes it when started again.

The embedded default (SQLite, in-process bus, no jobboard): the process is
killed (SIGKILL) while the infra driver works on an instantiate. Started
again, it resumes the op occ it owned from the interrupted task; the
op occ ends COMPLETED and the start hook did not run twice.
"""

import json
import os
import signal
import sqlite3

import requests

from tacker_ng import context as tcontext
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.drivers import plugin
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs


def _progress(db_path, occ_id: str) -> dict:
    db = sqlite3.connect(db_path)
    try:
        row = db.execute(
            "SELECT progress FROM vnf_lcm_op_occs WHERE id = ?", (occ_id,)
        ).fetchone()
    finally:
        db.close()
    return json.loads(row[0]) if row and row[0] else {}


def test_killed_embedded_process_resumes_its_operation(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    port = services.free_port()
    conf_path = procs.write_config(
        str(tmp_path / "tacker.conf"),
        {"DEFAULT": {"state_path": state}, "api": {"port": port}},
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            p
            for p in (
                str(plugin.write(tmp_path / "plugins")),
                os.environ.get("PYTHONPATH"),
            )
            if p
        ),
    }
    argv = [procs.script("tacker-ng-all"), "--config-file", conf_path]
    url = f"http://127.0.0.1:{port}"
    db_path = state / "tacker-ng.sqlite"
    with procs.processes() as started:
        first = procs.Process("all-1", argv, str(tmp_path / "1.log"), env=env)
        started.append(first)
        procs.wait_http(f"{url}/", first)
        password = (state / "admin-password").read_text().strip()
        with (
            fixtures.config(str(state)),
            fixtures.database(f"sqlite:///{db_path}", migrate=False),
        ):
            package = lcm_packages.onboard(
                tcontext.get_admin_context(), lcm_packages.build()
            )
        client = deployment.SolClient(
            url, deployment.basic_auth("admin", password)
        )
        resp = client.post(
            "/vnflcm/v2/vnf_instances",
            {
                "vnfdId": package["vnfd_id"],
                "vimConnectionInfo": lcm_fixtures.fake_vim(),
            },
        )
        assert resp.status_code == 201, resp.text
        occ_id = client.start(
            resp.json()["id"],
            "instantiate",
            {
                "flavourId": "simple",
                "additionalParams": {"fake": {"sleep": 4}},
            },
        )
        procs.wait_for(
            lambda: (
                "hook:instantiate_start"
                in _progress(db_path, occ_id).get("steps", [])
            ),
            30,
            "the driver step to start",
            interval=0.05,
        )
        os.killpg(first.popen.pid, signal.SIGKILL)
        first.popen.wait(10)
        with_kill = _progress(db_path, occ_id)
        assert "driver" not in with_kill["steps"]

        second = procs.Process("all-2", argv, str(tmp_path / "2.log"), env=env)
        started.append(second)
        procs.wait_http(f"{url}/", second)
        occ = client.wait(occ_id, ("COMPLETED", "FAILED_TEMP"), timeout=60)
        assert occ["operationState"] == "COMPLETED", occ
        hooks = _progress(db_path, occ_id)["driver"]["hooks"]
        assert hooks == ["instantiate_start", "instantiate_end"]
        assert "resuming it" in second.log_text()
        assert requests.get(f"{url}/", timeout=10).status_code < 500
