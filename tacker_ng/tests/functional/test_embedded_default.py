"""An operator runs tacker-ng-all with no configuration at all.

It must create its state (SQLite, admin login), migrate, print the URL and
how to log in, serve the API with its conductor in the same process, and
stop cleanly on SIGTERM. HOME points at a scratch directory so the default
state path is used, exactly as on a fresh machine.
"""

import os
import re
import sqlite3

import requests

from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services


def test_tacker_ng_all_with_no_config(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    port = services.free_port()
    env_conf = procs.write_config(
        str(tmp_path / "port.conf"), {"api": {"port": port}}
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("XDG_STATE_HOME", None)
    log = tmp_path / "all.log"
    argv = [procs.script("tacker-ng-all"), "--config-file", env_conf]
    with procs.processes() as started:
        proc = procs.Process("tacker-ng-all", argv, str(log), env=env)
        started.append(proc)
        url = f"http://127.0.0.1:{port}"
        procs.wait_http(f"{url}/", proc)

        state = home / ".local" / "state" / "tacker-ng"
        banner = procs.wait_for(
            lambda: "login:" in log.read_text() and log.read_text(),
            30,
            "the start-up banner",
        )
        assert f"tacker-ng is serving {url}/" in banner
        assert f"password in {state}/admin-password" in banner
        password = (state / "admin-password").read_text().strip()

        resp = requests.get(
            f"{url}/vnflcm/v2/api_versions",
            auth=("admin", password),
            timeout=10,
        )
        assert resp.status_code == 200
        assert resp.headers["Version"] == "2.0.0"
        denied = requests.get(f"{url}/vnflcm/v2/api_versions", timeout=10)
        assert denied.status_code == 401

        pong = requests.post(
            f"{url}/v1/ping",
            json={"payload": "embedded"},
            auth=("admin", password),
            timeout=20,
        )
        assert pong.status_code == 200, pong.text
        assert pong.json()["payload"] == "embedded"

        db = sqlite3.connect(state / "tacker-ng.sqlite")
        tables = {
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'"
            )
        }
        db.close()
        assert {"vnf_instances", "conductors", "alembic_version"} <= tables

        assert proc.stop() == 0
        assert re.search(r"Conductor \S+ stopped", log.read_text())
