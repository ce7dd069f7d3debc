"""An operator onboards VNF packages through real processes.

tacker-ng-api (gunicorn, 2 workers) and two conductors on RabbitMQ with
MariaDB and with PostgreSQL: the samples are uploaded and reach
ONBOARDED, hostile archives end ERROR with their reason and leave
nothing behind, uploads are streamed past the generic body limit,
upload_from_uri fetches from a real HTTP server with basic auth, and an
uploaded package carries a VNF through create + instantiate.
"""

import base64
import concurrent.futures
import io
import os
import random
import signal
import threading
import time
import uuid
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.receiver import Receiver
from tacker_ng.tests.unit.packages import helpers
from tacker_ng.tests.unit.vnfpkgm import malicious

PKGS = lcm_fixtures.PKGM
SAMPLES = ["heat_vdu_affinity", "k8s_cluster", "cnf_deployment"]
MAX_ARCHIVE = 4 * 1024 * 1024
ONBOARDING_TIMEOUT = 10  # the minimum: the frozen-conductor test waits it


class PackageServer:
    """A real HTTP server handing out CSARs by path, behind HTTP basic
    auth or an OAuth2 bearer token (with its own token endpoint)."""

    def __init__(
        self,
        files: dict[str, bytes],
        basic: tuple[str, str] | None = None,
        oauth2: tuple[str, str] | None = None,
    ) -> None:
        self.files = files
        self.hits: list[tuple[str, str]] = []
        self.token = f"tok-{uuid.uuid4().hex}"
        expected = None
        if basic:
            expected = (
                "Basic " + base64.b64encode(":".join(basic).encode()).decode()
            )
        elif oauth2:
            expected = f"Bearer {self.token}"
        client = (
            "Basic " + base64.b64encode(":".join(oauth2).encode()).decode()
            if oauth2
            else None
        )
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code, body=b"", content_type=None):
                self.send_response(code)
                if content_type:
                    self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if self.path != "/token" or client is None:
                    return self._send(404)
                if self.headers.get("Authorization") != client:
                    return self._send(401)
                body = (
                    f'{{"access_token": "{server.token}", '
                    '"token_type": "Bearer", "expires_in": 300}'
                ).encode()
                return self._send(200, body, "application/json")

            def do_GET(self):
                server.hits.append(
                    (self.path, self.headers.get("Version") or "")
                )
                auth = self.headers.get("Authorization")
                if expected is not None and auth != expected:
                    return self._send(401)
                data = server.files.get(self.path)
                if data is None:
                    return self._send(404)
                return self._send(200, data, "application/zip")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self._thread = threading.Thread(
            target=self.server.serve_forever, daemon=True
        )

    def __enter__(self) -> "PackageServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def minimal_files(vnfd_id: str) -> dict[str, bytes]:
    """The files of the minimal single-file package with another vnfdId."""
    files = helpers.minimal_files()
    files["Definitions/vnfd.yaml"] = helpers.MINIMAL_VNFD.replace(
        "11111111-2222-3333-4444-555555555555", vnfd_id
    ).encode()
    return files


def minimal(vnfd_id: str) -> bytes:
    return helpers.make_zip(minimal_files(vnfd_id))


@pytest.fixture(scope="module", params=["mariadb", "postgresql"])
def env(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"pkgm-{request.param}")
    with (
        services.scratch_database(request.param) as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            extra={
                "vnf_package": {
                    "max_archive_size": MAX_ARCHIVE,
                    "onboarding_timeout": ONBOARDING_TIMEOUT,
                }
            },
        ) as dep,
    ):
        yield dep


def _get(dep, path, **kw):
    return requests.get(
        dep.url + path, headers={**dep.auth, **kw.pop("headers", {})}, **kw
    )


def _create(dep) -> str:
    resp = requests.post(dep.url + PKGS, json={}, headers=dep.auth)
    assert resp.status_code == 201, resp.text
    return resp.json()["id"]


def _put(dep, pkg_id, data):
    return requests.put(
        f"{dep.url}{PKGS}/{pkg_id}/package_content",
        data=data,
        headers={**dep.auth, "Content-Type": "application/zip"},
        timeout=60,
    )


def _store_leftovers(dep, pkg_id) -> list[str]:
    store = dep.state_path / "vnf_packages"
    return [str(p) for p in store.rglob(f"*{pkg_id}*")]


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_is_onboarded_and_served(env, name):
    data = helpers.sample_csar(name)
    pkg = lcm_fixtures.onboard_via_api(env, data, userDefinedData={"s": name})
    assert pkg["onboardingState"] == "ONBOARDED", pkg
    assert pkg["operationalState"] == "ENABLED"
    assert pkg["userDefinedData"] == {"s": name}
    vnfd = _get(
        env,
        f"{PKGS}/{pkg['id']}/vnfd",
        headers={"Accept": "application/zip"},
    )
    assert vnfd.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(vnfd.content)).namelist()
    assert "TOSCA-Metadata/TOSCA.meta" in names
    assert any(n.startswith("Definitions/") for n in names)
    assert (
        _get(
            env, f"{PKGS}/{pkg['id']}/vnfd", headers={"Accept": "text/plain"}
        ).status_code
        == 406
    )
    content = _get(env, f"{PKGS}/{pkg['id']}/package_content")
    assert content.content == data
    ranged = _get(
        env,
        f"{PKGS}/{pkg['id']}/package_content",
        headers={"Range": "bytes=0-3"},
    )
    assert (ranged.status_code, ranged.content) == (206, data[:4])
    by_vnfd = _get(env, f"/vnfpkgm/v1/onboarded_vnf_packages/{pkg['vnfdId']}")
    assert by_vnfd.json()["id"] == pkg["id"]


HOSTILE = [case for case in malicious.CASES if not case.overrides]


def test_hostile_archives_end_error_and_leave_nothing(env):
    outside = [
        env.state_path / "evil.txt",
        env.state_path.parent / "evil.txt",
    ]
    for case in HOSTILE:
        pkg = lcm_fixtures.onboard_via_api(env, case.build())
        assert pkg["onboardingState"] == "ERROR", (case.id, pkg)
        details = pkg["onboardingFailureDetails"]
        if case.code:
            assert details["reasonCode"] == case.code, (case.id, details)
        else:
            assert details["file"] == case.vnfd_file, (case.id, details)
        assert _store_leftovers(env, pkg["id"]) == [], case.id
    assert not any(path.exists() for path in outside)
    for proc in (env.api, *env.conductors.values()):
        proc.assert_running()
    listed = _get(
        env, PKGS, params={"filter": "(eq,onboardingState,ERROR)"}
    ).json()
    assert len(listed) >= len(HOSTILE)


def test_concurrent_uploads_one_wins(env):
    pkg_id = _create(env)
    data = minimal(str(uuid.uuid4()))
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        codes = sorted(
            r.status_code
            for r in pool.map(lambda _: _put(env, pkg_id, data), range(4))
        )
    assert codes == [202, 409, 409, 409]
    pkg = lcm_fixtures.wait_onboarding(env, pkg_id)
    assert pkg["onboardingState"] == "ONBOARDED"


def _noise(size):
    return random.Random(size).randbytes(size)


def test_upload_streamed_past_the_generic_body_limit(env):
    files = {
        **minimal_files(str(uuid.uuid4())),
        "Files/blob": _noise(MAX_ARCHIVE // 2),
    }
    data = helpers.make_zip(files)
    assert len(data) > 1024 * 1024  # far above max_request_body_size
    pkg = lcm_fixtures.onboard_via_api(env, data)
    assert pkg["onboardingState"] == "ONBOARDED", pkg


def test_upload_over_max_archive_size_is_cut_off(env):
    pkg_id = _create(env)
    big = _noise(MAX_ARCHIVE + 1024 * 1024)

    def chunks():  # no Content-Length: chunked, checked while streaming
        for i in range(0, len(big), 256 * 1024):
            yield big[i : i + 256 * 1024]

    resp = _put(env, pkg_id, chunks())
    assert resp.status_code == 413, resp.text
    assert resp.headers["Content-Type"] == "application/problem+json"
    pkg = _get(env, f"{PKGS}/{pkg_id}").json()
    assert pkg["onboardingState"] == "CREATED"
    assert _store_leftovers(env, pkg_id) == []
    resp = _put(env, pkg_id, big)  # with Content-Length: refused at once
    assert resp.status_code == 413


def test_upload_from_uri_with_basic_auth(env):
    good = minimal(str(uuid.uuid4()))
    with PackageServer({"/pkgs/good.zip": good}, basic=("repo", "pw")) as srv:
        ok_id, missing_id, denied_id = (_create(env) for _ in range(3))
        for pkg_id, path, password in (
            (ok_id, "/pkgs/good.zip", "pw"),
            (missing_id, "/pkgs/missing.zip", "pw"),
            (denied_id, "/pkgs/good.zip", "wrong"),
        ):
            resp = requests.post(
                f"{env.url}{PKGS}/{pkg_id}/package_content/upload_from_uri",
                json={
                    "addressInformation": srv.url + path,
                    "userName": "repo",
                    "password": password,
                },
                headers=env.auth,
            )
            assert resp.status_code == 202, resp.text
        ok = lcm_fixtures.wait_onboarding(env, ok_id)
        assert ok["onboardingState"] == "ONBOARDED", ok
        assert _get(env, f"{PKGS}/{ok_id}/package_content").content == good
        missing = lcm_fixtures.wait_onboarding(env, missing_id)
        assert "answered 404" in missing["onboardingFailureDetails"]["detail"]
        denied = lcm_fixtures.wait_onboarding(env, denied_id)
        detail = denied["onboardingFailureDetails"]["detail"]
        assert "answered 401" in detail and "wrong" not in detail


def test_lcm_create_and_instantiate_on_an_uploaded_package(env):
    vnfd_id = str(uuid.uuid4())
    pkg = lcm_fixtures.onboard_via_api(env, lcm_packages.build(vnfd_id))
    assert pkg["onboardingState"] == "ONBOARDED", pkg
    client = env.client()
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": lcm_fixtures.fake_vim()},
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    vdus = sorted(
        v["vduId"] for v in inst["instantiatedVnfInfo"]["vnfcResourceInfo"]
    )
    assert vdus == ["VDU1", "VDU2", "VDU2"]
    assert _get(env, f"{PKGS}/{pkg['id']}").json()["usageState"] == "IN_USE"
    resp = requests.delete(f"{env.url}{PKGS}/{pkg['id']}", headers=env.auth)
    assert resp.status_code == 409


def test_frozen_conductors_never_leave_a_package_stuck(env):
    """Both conductors hang (SIGSTOP) with the cast in their hands: the
    package is ERROR once its lease lapses, can be deleted, and the
    conductors, woken up, lose the claim and write nothing."""
    pids = [proc.popen.pid for proc in env.conductors.values()]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        pkg_id = _create(env)
        resp = _put(env, pkg_id, minimal(str(uuid.uuid4())))
        assert resp.status_code == 202, resp.text
        pkg = _get(env, f"{PKGS}/{pkg_id}").json()
        assert pkg["onboardingState"] == "UPLOADING"
        assert (
            requests.delete(
                f"{env.url}{PKGS}/{pkg_id}", headers=env.auth
            ).status_code
            == 409
        )
        time.sleep(ONBOARDING_TIMEOUT + 1)
        pkg = _get(env, f"{PKGS}/{pkg_id}").json()
        assert pkg["onboardingState"] == "ERROR", pkg
        details = pkg["onboardingFailureDetails"]
        assert details["reasonCode"] == "onboarding_interrupted"
        assert _store_leftovers(env, pkg_id) == []
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    # The woken conductor that had the cast loses the claim and says so.
    procs.wait_for(
        lambda: any(
            f"VNF package {pkg_id} is no longer UPLOADING; skipped"
            in proc.log_text()
            for proc in env.conductors.values()
        ),
        timeout=60,
        what="a woken conductor to skip the expired package",
    )
    assert _get(env, f"{PKGS}/{pkg_id}").json()["onboardingState"] == "ERROR"
    assert _store_leftovers(env, pkg_id) == []
    resp = requests.delete(f"{env.url}{PKGS}/{pkg_id}", headers=env.auth)
    assert resp.status_code == 204
    again = lcm_fixtures.onboard_via_api(env, minimal(str(uuid.uuid4())))
    assert again["onboardingState"] == "ONBOARDED"


def _wait_notifications(receiver, count: int, timeout: float = 60) -> list:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with receiver._lock:
            got = list(receiver.notifications)
        if len(got) >= count:
            return got
        time.sleep(0.1)
    raise AssertionError(f"{count} notifications expected, got {got}")


def test_package_subscription_hears_onboarding_change_and_deletion(env):
    """An NFVO subscribes under /vnfpkgm/v2 (SOL013 URI, Version header)
    with basic auth; the conductors deliver VnfPackageOnboardingNotification
    and VnfPackageChangeNotification (OP_STATE_CHANGE, PKG_DELETE) to a
    real HTTP receiver, in order, retrying one refused delivery."""
    v2 = {**env.auth, "Version": "2.1.0"}
    subs = f"{env.url}/vnfpkgm/v2/subscriptions"
    with Receiver("nfvo", "pkgm-pass") as receiver:
        vnfd_id = str(uuid.uuid4())
        resp = requests.post(
            subs,
            json={
                "callbackUri": receiver.url,
                "filter": {"vnfdId": [vnfd_id]},
                "authentication": {
                    "authType": ["BASIC"],
                    "paramsBasic": {
                        "userName": "nfvo",
                        "password": "pkgm-pass",
                    },
                },
            },
            headers=v2,
            timeout=30,
        )
        assert resp.status_code == 201, resp.text
        sub = resp.json()
        assert "pkgm-pass" not in resp.text
        receiver.fail_next = 1
        created = requests.post(
            f"{env.url}/vnfpkgm/v2/vnf_packages",
            json={},
            headers=v2,
            timeout=30,
        )
        assert created.status_code == 201, created.text
        pkg_id = created.json()["id"]
        put = requests.put(
            f"{env.url}/vnfpkgm/v2/vnf_packages/{pkg_id}/package_content",
            data=minimal(vnfd_id),
            headers={**v2, "Content-Type": "application/zip"},
            timeout=60,
        )
        assert put.status_code == 202, put.text
        assert "Content-Type" not in put.headers
        pkg = lcm_fixtures.wait_onboarding(env, pkg_id)
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        first = _wait_notifications(receiver, 1)[0]
        assert receiver.rejected == 1
        assert first["notificationType"] == "VnfPackageOnboardingNotification"
        assert (first["vnfPkgId"], first["vnfdId"]) == (pkg_id, vnfd_id)
        assert first["subscriptionId"] == sub["id"]
        patched = requests.patch(
            f"{env.url}/vnfpkgm/v2/vnf_packages/{pkg_id}",
            json={"operationalState": "DISABLED"},
            headers={**v2, "Content-Type": "application/merge-patch+json"},
            timeout=30,
        )
        assert patched.status_code == 200, patched.text
        deleted = requests.delete(
            f"{env.url}/vnfpkgm/v2/vnf_packages/{pkg_id}",
            headers=v2,
            timeout=30,
        )
        assert deleted.status_code == 204, deleted.text
        got = _wait_notifications(receiver, 3)
        assert [(n["notificationType"], n.get("changeType")) for n in got] == [
            ("VnfPackageOnboardingNotification", None),
            ("VnfPackageChangeNotification", "OP_STATE_CHANGE"),
            ("VnfPackageChangeNotification", "PKG_DELETE"),
        ]
        assert got[1]["operationalState"] == "DISABLED"
        # Another package's events do not reach this subscription.
        other = lcm_fixtures.onboard_via_api(env, minimal(str(uuid.uuid4())))
        assert other["onboardingState"] == "ONBOARDED"
        time.sleep(2)
        assert len(receiver.notifications) == 3
        gone = requests.delete(f"{subs}/{sub['id']}", headers=v2, timeout=30)
        assert gone.status_code == 204
