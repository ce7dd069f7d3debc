"""A tacker-ng deployment of real processes for functional tests.

``deploy()`` migrates a database, starts N ``tacker-ng-conductor`` and one
``tacker-ng-api`` (gunicorn, 2 workers) on RabbitMQ, with the test-only
drivers discoverable through a generated distribution on PYTHONPATH, and
yields a :class:`Deployment` with a SOL003 client that checks every
response against the official OpenAPI documents.
"""

import base64
import contextlib
import dataclasses
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import bcrypt
import requests
import sqlalchemy as sa

from tacker_ng.tests.drivers import plugin
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services, sol003_schemas

V = {"Version": "2.0.0"}
#: Op occ states an operation ends in (it leaves none by itself).
FINAL_STATES = frozenset({"COMPLETED", "FAILED_TEMP", "FAILED", "ROLLED_BACK"})


def basic_auth(user: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


class SolClient:
    """requests against /vnflcm/v2 (and /grant/v1) with auth + Version,
    SOL003-checked."""

    def __init__(self, url: str, auth: dict[str, str], **requests_kw) -> None:
        self.url = url
        self.headers = {**auth, **V}
        #: e.g. ``verify`` and ``cert`` for an API that serves mutual TLS
        self.requests_kw = requests_kw

    def call(
        self, method, path, json=None, validate=True, headers=None, **kw
    ) -> requests.Response:
        resp = requests.request(
            method,
            self.url + path,
            json=json,
            timeout=30,
            headers={**self.headers, **(headers or {})},
            allow_redirects=False,
            **{**self.requests_kw, **kw},
        )
        if validate and path.startswith(("/vnflcm/v2", "/grant/v1/")):
            body = resp.json() if resp.content else None
            sol003_schemas.validate(
                path.split("?")[0], method, resp.status_code, body
            )
        return resp

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.call("POST", path, json=json, **kw)

    def occ(self, occ_id: str) -> dict:
        return self.get(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}").json()

    def wait(self, occ_id: str, states, timeout: float = 60) -> dict:
        """The op occ once in one of ``states``, polled every 0.2 s. A
        wait for final states only backs off (half again as long each
        time, at most 1 s): at a fixed 0.2 s, three lanes' waits on
        minute-long operations kept the API workers busy. A wait for a
        passing state (PROCESSING) keeps the short interval."""
        deadline = time.monotonic() + timeout
        occ = None
        interval = 0.2
        cap = 1.0 if set(states) <= FINAL_STATES else interval
        while time.monotonic() < deadline:
            occ = self.occ(occ_id)
            if occ["operationState"] in states:
                return occ
            time.sleep(interval)
            interval = min(interval * 1.5, cap)
        raise AssertionError(f"op occ {occ_id} did not reach {states}: {occ}")

    def start(self, instance_id: str, task: str, body: dict) -> str:
        resp = self.post(
            f"/vnflcm/v2/vnf_instances/{instance_id}/{task}", body
        )
        assert resp.status_code == 202, resp.text
        assert resp.content == b""
        return resp.headers["Location"].rsplit("/", 1)[1]

    def run(self, instance_id, task, body, final=("COMPLETED",)) -> dict:
        return self.wait(self.start(instance_id, task, body), final)


@dataclasses.dataclass
class Deployment:
    url: str
    auth: dict[str, str]
    api: procs.Process
    conductors: dict[str, procs.Process]
    state_path: Path
    sql_url: str
    conf_path: str
    #: Every process started, stopped when the deployment ends.
    started: list[procs.Process] = dataclasses.field(default_factory=list)

    def client(self) -> SolClient:
        return SolClient(self.url, self.auth)

    def revive_conductors(self) -> list[str]:
        """Start again the conductors that died (a test killed them) and
        wait until they serve; returns their names."""
        dead = [
            host
            for host, proc in self.conductors.items()
            if proc.popen.poll() is not None
        ]
        for host in dead:
            old = self.conductors[host]
            lives = sum(p.name == host for p in self.started)
            proc = old.respawn(str(self.state_path / f"{host}.{lives}.log"))
            self.started.append(proc)
            self.conductors[host] = proc
            # Its heartbeat row may still say online from before the
            # kill: wait for this process' own start-up line instead.
            procs.wait_for(
                lambda p=proc: "serving topic" in p.log_text(),
                60,
                f"{host} to serve again",
            )
            proc.assert_running()
        return dead


def wait_serving(
    sql_url: str, conductors: dict[str, procs.Process], timeout=60
) -> None:
    """Wait until every conductor is registered alive, which it does
    once it consumes from its RPC topic: a cast sent before that (the
    API may answer first) would go to no queue and be lost."""
    if not conductors:
        return
    engine = sa.create_engine(sql_url)

    def online() -> set[str]:
        for proc in conductors.values():
            proc.assert_running()
        with engine.connect() as conn:
            return set(
                conn.execute(
                    sa.text("SELECT hostname FROM conductors WHERE online")
                ).scalars()
            )

    try:
        procs.wait_for(
            lambda: set(conductors) <= online(), timeout, "conductors serving"
        )
    finally:
        engine.dispose()


@contextlib.contextmanager
def deploy(
    tmp_path: Path,
    sql_url: str,
    conductors: tuple[str, ...] = ("cond-a", "cond-b"),
    extra: dict[str, dict[str, object]] | None = None,
    api_workers: int = 2,
    http_kw: dict | None = None,
) -> Iterator[Deployment]:
    """Run the deployment for the duration of the ``with`` block.

    ``http_kw`` (requests' ``verify``, ``cert``) lets the start-up probe
    reach an API that serves (mutual) TLS.
    """
    services.require("rabbitmq")
    run_id = uuid.uuid4().hex[:10]
    port = services.free_port()
    tls = bool((extra or {}).get("api", {}).get("ssl_cert_file"))
    scheme = "https" if tls else "http"
    htpasswd = tmp_path / "htpasswd"
    digest = bcrypt.hashpw(b"op-pass", bcrypt.gensalt(rounds=4)).decode()
    htpasswd.write_text(f"operator:{digest}\n")
    sections: dict[str, dict[str, object]] = {
        "DEFAULT": {
            "state_path": tmp_path,
            "transport_url": services.RABBIT_URL,
            "control_exchange": f"tacker_ng_test_{run_id}",
            "debug": True,
            # Test NFVOs (callbacks, package servers) listen on loopback.
            "outbound_deny_networks": "",
        },
        "database": {"connection": sql_url},
        "api": {
            "host_ip": "127.0.0.1",
            "port": port,
            "workers": api_workers,
            "auth_strategy": "http_basic",
            # The tests' operator administers; other users are members.
            "http_basic_admin_users": "operator",
            "public_endpoint": f"{scheme}://127.0.0.1:{port}",
        },
        "oslo_middleware": {"http_basic_auth_user_file": htpasswd},
        "conductor": {
            "topic": f"tacker-ng-conductor-{run_id}",
            "heartbeat_interval": 1,
            "heartbeat_timeout": 5,
            "graceful_shutdown_timeout": 10,
        },
        # Each idle look at the outbox is a write transaction: at 0.1 s it
        # took 4 % of a core in each conductor (py-spy on a lane's
        # conductor), plus the database's share, for every conductor of
        # every deployment alive.
        "notification": {"poll_interval": 0.5, "initial_backoff": 0.2},
    }
    for section, options in (extra or {}).items():
        sections.setdefault(section, {}).update(options)
    common = procs.write_config(str(tmp_path / "tacker.conf"), sections)
    plugins = plugin.write(tmp_path / "plugins")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(plugins), os.environ.get("PYTHONPATH")) if p
        ),
    }
    procs.run(
        [
            procs.script("tacker-ng-db-manage"),
            "--config-file",
            common,
            "upgrade",
        ]
    )
    with procs.processes() as started:
        running = {}
        for host in conductors:
            host_conf = procs.write_config(
                str(tmp_path / f"{host}.conf"), {"DEFAULT": {"host": host}}
            )
            proc = procs.Process(
                host,
                [
                    procs.script("tacker-ng-conductor"),
                    "--config-file",
                    common,
                    "--config-file",
                    host_conf,
                ],
                str(tmp_path / f"{host}.log"),
                env=env,
            )
            started.append(proc)
            running[host] = proc
        api = procs.Process(
            "api",
            [procs.script("tacker-ng-api"), "--config-file", common],
            str(tmp_path / "api.log"),
            env=env,
        )
        started.append(api)
        url = f"{scheme}://127.0.0.1:{port}"
        procs.wait_http(f"{url}/", api, **(http_kw or {}))
        wait_serving(sql_url, running)
        yield Deployment(
            url=url,
            auth=basic_auth("operator", "op-pass"),
            api=api,
            conductors=running,
            state_path=tmp_path,
            sql_url=sql_url,
            conf_path=common,
            started=started,
        )
