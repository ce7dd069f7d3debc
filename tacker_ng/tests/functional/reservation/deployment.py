"""tacker-ng with the reservation service on minicloud, for the tests.

One tacker-ng-api (2 workers, Keystone auth against minicloud's Keystone)
and two tacker-ng-conductor processes (Nova credentials from config,
leader election on Redis), MariaDB and RabbitMQ; a ``reservation``
service in minicloud's Keystone catalog pointing at the API, and part of
minicloud's hosts registered into the freepool through the API.
"""

from __future__ import annotations

import dataclasses
import os
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import requests
import sqlalchemy as sa

from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional import services
from tacker_ng.tests.functional.osc import forkserver

#: Hosts put in the freepool (as the topology file names them; the lane's
#: real names: ``Deployment.freepool``); the others stay free for
#: ordinary servers.
FREEPOOL = ("az1-cmp1", "az1-cmp2", "az2-cmp1", "az3-cmp1")


@dataclasses.dataclass
class Deployment:
    cloud: object
    url: str
    sql_url: str
    conductors: dict[str, procs.Process]
    outsider_auth: dict[str, str]
    tmp: Path
    #: The lane's real names of the hosts registered in the freepool.
    freepool: tuple[str, ...] = ()

    @property
    def v1(self) -> str:
        return f"{self.url}/reservation/v1"

    def headers(self, admin: bool = False) -> dict[str, str]:
        session = (
            self.cloud.admin_session()
            if admin
            else self.cloud.project_session()
        )
        return {
            "X-Auth-Token": session.get_token(),
            "Content-Type": "application/json",
        }

    def call(self, method: str, path: str, admin=False, **kw):
        return requests.request(
            method,
            self.v1 + path,
            headers=self.headers(admin),
            timeout=60,
            **kw,
        )

    def cli(self, *args: str, admin: bool = False, check: bool = True):
        """``openstack <args>`` as the project user (or admin)."""
        auth = self.cloud.admin_auth if admin else self.cloud.project_auth
        env = {
            **os.environ,
            "OS_AUTH_URL": auth["auth_url"],
            "OS_USERNAME": auth["username"],
            "OS_PASSWORD": auth["password"],
            "OS_PROJECT_NAME": auth["project_name"],
            "OS_USER_DOMAIN_NAME": auth["user_domain_name"],
            "OS_PROJECT_DOMAIN_NAME": auth["project_domain_name"],
            "OS_REGION_NAME": self.cloud.region_name,
            "OS_IDENTITY_API_VERSION": "3",
            "OS_INTERFACE": "public",
        }
        done = forkserver.run(args, env=env, timeout=120)
        if check and done.returncode:
            raise AssertionError(
                f"openstack {' '.join(args)} failed:\n"
                f"{done.stdout}\n{done.stderr}"
            )
        return done

    def sql(self, statement: str, **params):
        engine = sa.create_engine(self.sql_url)
        try:
            with engine.begin() as conn:
                return conn.execute(sa.text(statement), params)
        finally:
            engine.dispose()


def _catalog(cloud, url: str) -> tuple[str, str]:
    identity = cloud.sdk(admin=True).identity
    for svc in identity.services():
        if svc.type == "reservation":
            for ep in identity.endpoints(service_id=svc.id):
                identity.delete_endpoint(ep)
            identity.delete_service(svc)
    svc = identity.create_service(
        type="reservation", name="tacker-ng-reservation", enabled=True
    )
    ep = identity.create_endpoint(
        service_id=svc.id,
        interface="public",
        url=f"{url}/reservation/v1",
        region_id=cloud.region_name,
    )
    return svc.id, ep.id


def _outsider(cloud, run_id: str) -> dict[str, str]:
    """A project with no reservation, and a member user in it."""
    identity = cloud.sdk(admin=True).identity
    domain = identity.find_domain("default")
    project = identity.create_project(
        name=cloud.name(f"rsv-outsider-{run_id}"), domain_id=domain.id
    )
    user = identity.create_user(
        name=cloud.name(f"rsv-outsider-{run_id}"),
        password="secret",
        domain_id=domain.id,
        default_project_id=project.id,
    )
    member = identity.find_role("member")
    identity.assign_project_role_to_user(project, user, member)
    cloud.admit_project(project.id)
    return {
        **cloud.project_auth,
        "username": user.name,
        "project_name": project.name,
    }


def deploy(
    cloud, tmp: Path, sql_url: str, freepool: Sequence[str] = FREEPOOL
) -> Iterator[Deployment]:
    """Start everything (``freepool``: the hosts registered); stop and
    clean up afterwards."""
    run_id = uuid.uuid4().hex[:8]
    port = services.free_port()
    url = f"http://127.0.0.1:{port}"
    admin = cloud.admin_auth
    auth = {
        "auth_type": "password",
        "auth_url": admin["auth_url"],
        "username": admin["username"],
        "password": admin["password"],
        "project_name": admin["project_name"],
        "user_domain_name": admin["user_domain_name"],
        "project_domain_name": admin["project_domain_name"],
    }
    sections = cloud.tacker_conf(
        {
            "DEFAULT": {
                "state_path": tmp,
                "transport_url": services.RABBIT_URL,
                "control_exchange": f"tacker_ng_rsv_{run_id}",
                "debug": True,
            },
            "database": {"connection": sql_url},
            "api": {
                "host_ip": "127.0.0.1",
                "port": port,
                "workers": 2,
                "auth_strategy": "keystone",
            },
            "keystone_authtoken": {
                **auth,
                "www_authenticate_uri": admin["auth_url"],
                "region_name": cloud.region_name,
            },
            "conductor": {
                "topic": f"tacker-ng-conductor-rsv-{run_id}",
                "heartbeat_interval": 1,
                "heartbeat_timeout": 5,
                "graceful_shutdown_timeout": 5,
            },
            "coordination": {
                "backend_url": "redis://127.0.0.1:6379?timeout=3&lock_timeout=3"
                f"&namespace=tacker_ng_rsv_{run_id}",
            },
            "reservation": {
                "event_interval": 1,
                "host_failure_check_interval": 2,
                "minutes_before_end_lease": 0,
            },
            "reservation_nova": {
                **auth,
                "region_name": cloud.region_name,
                "api_microversion": "2.79",
            },
        }
    )
    common = procs.write_config(str(tmp / "tacker.conf"), sections)
    procs.run(
        [
            procs.script("tacker-ng-db-manage"),
            "--config-file",
            common,
            "upgrade",
        ]
    )
    service_id = None
    with procs.processes() as started:
        conductors = {}
        for host in ("cond-a", "cond-b"):
            host_conf = procs.write_config(
                str(tmp / f"{host}.conf"), {"DEFAULT": {"host": host}}
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
                str(tmp / f"{host}.log"),
            )
            started.append(proc)
            conductors[host] = proc
        api = procs.Process(
            "api",
            [procs.script("tacker-ng-api"), "--config-file", common],
            str(tmp / "api.log"),
        )
        started.append(api)
        procs.wait_http(f"{url}/", api)
        service_id, _ = _catalog(cloud, url)
        cloud.grant_admin_member_role()
        dep = Deployment(
            cloud,
            url,
            sql_url,
            conductors,
            _outsider(cloud, run_id),
            tmp,
            tuple(cloud.host(name) for name in freepool),
        )
        for name in dep.freepool:
            resp = dep.call(
                "POST", "/os-hosts", admin=True, json={"name": name}
            )
            assert resp.status_code == 201, resp.text
        cloud.lend_to_freepool(list(dep.freepool))
        try:
            yield dep
        finally:
            identity = cloud.sdk(admin=True).identity
            for ep in identity.endpoints(service_id=service_id):
                identity.delete_endpoint(ep)
            identity.delete_service(service_id)
    cloud.reset()
