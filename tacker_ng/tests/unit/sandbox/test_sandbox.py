"""The sandbox's pieces that need no simulator: the response header,
the conductor flag, the banner's walkthrough and a child that fails."""

import json
import sys

import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.cmd import all as all_cmd
from tacker_ng.sandbox import children, cloud, walkthrough


def test_no_sandbox_no_header(api):
    resp = api.get("/")
    assert api_app.SANDBOX_HEADER not in resp.headers
    assert "sandbox" not in api.get("/v1/conductors").text


def test_sandbox_says_so_on_every_response(conf, db):
    conf.set_override("enabled", True, group="sandbox")
    app = webtest.TestApp(api_app.build_wsgi_app(conf))
    for path, status in (("/", 200), ("/nowhere", 404), ("/v1.0/vims", 200)):
        resp = app.get(path, status=status)
        assert resp.headers[api_app.SANDBOX_HEADER] == "true", path


def test_banner_prints_the_walkthrough(conf, tmp_path):
    conf.set_override("enabled", True, group="sandbox")
    sandbox = cloud.Sandbox(tmp_path, {}, None, [])
    text = all_cmd.banner(conf, str(tmp_path / "pw"), sandbox)
    assert "SANDBOX" in text
    assert "zone-a, zone-b, zone-c" in text
    steps = text.split("A first VNF (paste in order):\n")[1].splitlines()
    assert steps[0].strip().startswith("export OS_AUTH_TYPE=http_basic")
    assert "OS_TACKER_API_VERSION=2" in steps[0]
    joined = "\n".join(steps)
    for word in ("onboard", "instantiate", "scale", "heal", "terminate"):
        assert f" {word} " in joined, word
    assert "reservation lease create" in joined
    request = json.loads((tmp_path / "instantiate.json").read_text())
    assert request["flavourId"] == "simple"
    assert walkthrough.CNF.is_dir()


def test_a_child_that_never_gets_ready_fails_with_its_log(tmp_path):
    child = children.Child(
        "mute",
        [sys.executable, "-c", "import sys; print('oops', file=sys.stderr)"],
        tmp_path / "mute.log",
    )
    with pytest.raises(children.ChildFailed) as err:
        child.ready("READY", 10)
    assert "exited before it was ready" in str(err.value)
    assert "oops" in str(err.value)


def test_a_child_reports_its_ready_line(tmp_path):
    code = "print('READY {\"x\": 1}', flush=True); import time; time.sleep(30)"
    child = children.Child("ok", [sys.executable, "-c", code], tmp_path / "l")
    try:
        assert child.ready("READY", 10) == {"x": 1}
    finally:
        child.stop()
    assert child.proc.returncode is not None
