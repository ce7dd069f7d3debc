"""Register minicloud's identity data and baseline resources (openstacksdk).

Runs in minicloud's own venv; every step is idempotent.
usage: setup_cloud.py identity
       setup_cloud.py resources TOPOLOGY.json STATE.json
       setup_cloud.py ready TOPOLOGY.json
       setup_cloud.py reset STATE.json
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import openstack

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline  # noqa: E402
import cleanup  # noqa: E402
from mclib import paths  # noqa: E402

_CINDER = f"http://127.0.0.1:{paths.PORTS['cinder-api']}/v3/%(project_id)s"
SERVICES = {
    # type: (user/service name, endpoint url)
    "compute": ("nova", f"http://127.0.0.1:{paths.PORTS['nova-api']}/v2.1"),
    "placement": ("placement", f"http://127.0.0.1:{paths.PORTS['placement']}"),
    "image": ("glance", f"http://127.0.0.1:{paths.PORTS['glance']}"),
    "network": ("neutron", f"http://127.0.0.1:{paths.PORTS['neutron']}"),
    "orchestration": (
        "heat",
        f"http://127.0.0.1:{paths.PORTS['heat-api']}/v1/%(tenant_id)s",
    ),
    # Cinder under its official type and the one Nova's and Heat's Cinder
    # clients look up.
    "block-storage": ("cinder", _CINDER),
    "volumev3": ("cinder", _CINDER),
}


def credentials(project: bool = False) -> dict[str, str]:
    """keystoneauth v3.Password arguments for admin or the project user."""
    return {
        "auth_url": paths.AUTH_URL,
        "username": paths.PROJECT_USER if project else "admin",
        "password": paths.PASSWORD,
        "project_name": paths.PROJECT if project else "admin",
        "user_domain_name": "Default",
        "project_domain_name": "Default",
    }


def connect(project: bool = False) -> openstack.connection.Connection:
    """An openstacksdk connection for admin or the project user."""
    return openstack.connect(
        region_name=paths.REGION, **credentials(project), load_envvars=False
    )


def identity() -> None:
    """Service users and catalog, the Heat stack domain, project vnf."""
    idc = connect().identity
    default = idc.find_domain("default")

    def role(name: str):
        return idc.find_role(name) or idc.create_role(name=name)

    def project(name: str, domain):
        return idc.find_project(name, domain_id=domain.id) or (
            idc.create_project(name=name, domain_id=domain.id)
        )

    def user(name: str, domain):
        return idc.find_user(name, domain_id=domain.id) or idc.create_user(
            name=name, password=paths.PASSWORD, domain_id=domain.id
        )

    admin, member, service = role("admin"), role("member"), role("service")
    service_project = project("service", default)
    for stype, (name, url) in SERVICES.items():
        u = user(name, default)
        idc.assign_project_role_to_user(service_project, u, admin)
        idc.assign_project_role_to_user(service_project, u, service)
        svc = next(
            (s for s in idc.services() if s.type == stype), None
        ) or idc.create_service(name=name, type=stype)
        have = {e.interface for e in idc.endpoints(service_id=svc.id)}
        for itf in {"public", "internal", "admin"} - have:
            idc.create_endpoint(
                service_id=svc.id,
                interface=itf,
                url=url,
                region_id="RegionOne",
            )
    heat_domain = idc.find_domain("heat") or idc.create_domain(
        name="heat", description="Heat stack projects and users"
    )
    idc.assign_domain_role_to_user(
        heat_domain, user("heat_domain_admin", heat_domain), admin
    )
    owner = role("heat_stack_owner")
    role("heat_stack_user")
    idc.assign_project_role_to_user(
        project("admin", default), idc.find_user("admin"), owner
    )
    vnf_user = user(paths.PROJECT_USER, default)
    vnf = project(paths.PROJECT, default)
    idc.assign_project_role_to_user(vnf, vnf_user, member)
    idc.assign_project_role_to_user(vnf, vnf_user, owner)
    print("identity registered")


def resources(topo_file: str, state_file: str) -> None:
    """Computes, zones, flavors, image, lanes (projects, users,
    networks), quotas; writes state."""
    topo = json.loads(Path(topo_file).read_text())
    conn = connect()
    logs = Path(os.environ.get("MINICLOUD_LOGS", paths.LOGS))
    nova_conf = paths.ETC / "nova" / "nova.conf"
    base = baseline.build(conn, topo, logs, nova_conf)
    vnf = conn.identity.find_project(paths.PROJECT)
    admin_project = conn.identity.find_project("admin")
    state = {
        "auth_url": paths.AUTH_URL,
        "region_name": paths.REGION,
        # Lane 0's (and the whole cloud's) admin, lane 0's project user:
        # minicloud.py env, the demo and the whole-cloud tests use them;
        # a test lane uses its own (state["baseline"]["lanes"]).
        "admin_auth": credentials(),
        "project_auth": credentials(project=True),
        "admin_project_id": admin_project.id,
        "project_id": vnf.id,
        "topology": topo,
        "endpoints": {t: u for t, (_, u) in SERVICES.items()},
        "baseline": base,
        "home": str(paths.HOME),
    }
    tmp = Path(state_file + ".tmp")
    tmp.write_text(json.dumps(state, indent=2))
    tmp.replace(state_file)
    print("resources registered; state in", state_file)


def ready(topo_file: str) -> None:
    """Wait for the services of a cloud whose baseline is in place (a
    restored saved state, or a restart with the same fingerprint)."""
    topo = json.loads(Path(topo_file).read_text())
    logs = Path(os.environ.get("MINICLOUD_LOGS", paths.LOGS))
    baseline.ready(connect(), topo, logs)
    print("cloud ready")


def reset(state_file: str) -> None:
    """Tenant resources back to the baseline."""
    state = json.loads(Path(state_file).read_text())
    owners = [
        openstack.connect(region_name=paths.REGION, load_envvars=False, **a)
        for a in cleanup.lane_auths(state)
    ]
    removed = cleanup.reset(connect(), owners, state)
    print("reset removed:", json.dumps(removed))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    steps = {
        "identity": identity,
        "resources": resources,
        "ready": ready,
        "reset": reset,
    }
    steps[cmd](*args)
