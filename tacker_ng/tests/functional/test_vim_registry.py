"""An operator registers a VIM once with python-tackerclient (``openstack
vim register``, unchanged) and the NFVO instantiates by vimId or on the
project's default VIM; the conductors keep the VIM's status, and one
that stops answering shows UNREACHABLE within one interval.

The VIM is the Kubernetes API simulator, reached through a TCP relay
that the test cuts.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.infra.kubernetes import cnf
from tacker_ng.tests.functional.osc.cli import Cli
from tacker_ng.tests.functional.relay import relayed

INTERVAL = 5


@pytest.fixture(scope="module")
def env(simk8s, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("vim-registry")
    extra = {
        "kubernetes": cnf.KUBERNETES_OPTS,
        "vim": {"status_interval": INTERVAL},
    }
    with (
        relayed(simk8s.endpoint, 443) as (endpoint, relay),
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra, api_workers=1
        ) as dep,
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, builder.build_csar_bytes(cnf.SAMPLE), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        config = tmp / "vim.yaml"
        config.write_text(
            yaml.safe_dump(
                {
                    "auth_url": endpoint,
                    "type": "kubernetes",
                    "project_name": "default",
                    "bearer_token": simk8s.token,
                    "ssl_ca_cert": Path(simk8s.ca_path).read_text(),
                }
            )
        )
        yield dep, Cli(dep.url, "operator", "op-pass"), config, relay, pkg


def _status(cli, name, want, timeout) -> tuple[dict, float]:
    start = time.monotonic()
    shown: dict = {}
    while time.monotonic() - start < timeout:
        shown = cli.json("vim", "show", name)
        if shown["status"] == want:
            return shown, time.monotonic() - start
        time.sleep(0.5)
    raise AssertionError(f"VIM {name} not {want} after {timeout}s: {shown}")


def test_register_use_watch_and_delete_a_vim(env, simk8s):
    dep, cli, config, relay, pkg = env
    out = cli.run(
        "vim",
        "register",
        "--config-file",
        str(config),
        "--is-default",
        "--description",
        "simulated cluster",
        "sim",
        "-f",
        "json",
    ).stdout
    vim = json.loads(out)
    assert (vim["name"], vim["type"], vim["is_default"]) == (
        "sim",
        "kubernetes",
        True,
    )
    listed = cli.json("vim", "list")
    assert [v["Name"] for v in listed] == ["sim"]
    shown, _ = _status(cli, "sim", "REACHABLE", 3 * INTERVAL)
    assert shown["id"] == vim["id"]
    for text in (out, json.dumps(listed), json.dumps(shown)):
        assert simk8s.token not in text

    client = dep.client()
    ref = {"k8s": {"vimId": vim["id"], "vimType": "ETSINFV.KUBERNETES.V_1"}}
    by_id = cnf.Cnf(client, pkg["vnfdId"], simk8s, vim_info=ref)
    by_id.run("instantiate", by_id.instantiate_body("instantiation_level_1"))
    assert by_id.namespace_exists()
    # No vimConnectionInfo at all: the project's default VIM.
    resp = client.post("/vnflcm/v2/vnf_instances", {"vnfdId": pkg["vnfdId"]})
    assert resp.status_code == 201, resp.text
    default = cnf.Cnf.__new__(cnf.Cnf)
    default.client, default.sim, default.bodies = client, simk8s, []
    default.id, default.namespace = resp.json()["id"], "cnf-default-vim"
    default.run(
        "instantiate", default.instantiate_body("instantiation_level_1")
    )
    assert default.namespace_exists()
    for vnf in (by_id, default):
        vnf.run("terminate", {"terminationType": "FORCEFUL"})

    relay.cut()
    shown, waited = _status(cli, "sim", "UNREACHABLE", 2 * INTERVAL + 10)
    assert waited <= INTERVAL + 10, waited
    detail = shown["status_detail"]
    assert "could not be reached" in detail or "TLS" in detail, detail
    assert "127.0.0.1" not in detail
    relay.restore()
    _status(cli, "sim", "REACHABLE", 2 * INTERVAL + 10)

    cli.run("vim", "delete", "sim")
    assert cli.json("vim", "list") == []
    gone = cli.run("vim", "show", vim["id"], check=False)
    assert gone.returncode != 0
