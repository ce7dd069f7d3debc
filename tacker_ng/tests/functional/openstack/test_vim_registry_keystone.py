"""OpenStack VIMs of the registry checked against minicloud's real
Keystone: good credentials are REACHABLE, a wrong password and a dead
endpoint are UNREACHABLE, each with a reason in tacker-ng's words."""

import time

import pytest
import requests

from tacker_ng.tests.functional import deployment, services

pytestmark = pytest.mark.minicloud


def _vim(minicloud, name, password=None, auth_url=None):
    auth = minicloud.project_auth
    return {
        "vim": {
            "name": name,
            "type": "openstack",
            "auth_url": auth_url or auth["auth_url"],
            "vim_project": {
                "name": auth["project_name"],
                "project_domain_name": auth["project_domain_name"],
            },
            "auth_cred": {
                "username": auth["username"],
                "password": password or auth["password"],
                "user_domain_name": auth["user_domain_name"],
                "cert_verify": "True",
            },
        }
    }


def test_keystone_vims_reachable_or_not_and_why(minicloud, tmp_path):
    extra = minicloud.tacker_conf({"vim": {"status_interval": 5}})
    dead = f"http://127.0.0.1:{services.free_port()}/v3"
    with (
        services.scratch_database("postgresql") as sql_url,
        deployment.deploy(
            tmp_path,
            sql_url,
            conductors=("cond-a",),
            extra=extra,
            api_workers=1,
        ) as dep,
    ):
        url = f"{dep.url}/v1.0/vims"
        ids = {}
        for name, kw in (
            ("good", {}),
            ("wrong-password", {"password": "not-the-password"}),
            ("dead", {"auth_url": dead}),
        ):
            resp = requests.post(
                url,
                json=_vim(minicloud, name, **kw),
                headers=dep.auth,
                timeout=30,
            )
            assert resp.status_code == 201, resp.text
            ids[name] = resp.json()["vim"]["id"]

        def statuses():
            vims = requests.get(url, headers=dep.auth, timeout=30).json()
            return {v["name"]: v for v in vims["vims"]}

        deadline = time.monotonic() + 40
        seen = statuses()
        while time.monotonic() < deadline and any(
            v["status"] == "PENDING" for v in seen.values()
        ):
            time.sleep(0.5)
            seen = statuses()
        assert seen["good"]["status"] == "REACHABLE", seen["good"]
        assert seen["good"]["status_detail"] is None
        wrong = seen["wrong-password"]
        assert wrong["status"] == "UNREACHABLE"
        assert "refused the credentials" in wrong["status_detail"]
        gone = seen["dead"]
        assert gone["status"] == "UNREACHABLE"
        assert "127.0.0.1" not in gone["status_detail"]
        assert "not-the-password" not in str(seen)
