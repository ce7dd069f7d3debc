"""Lanes: the share of minicloud one test session owns.

A lane is a Keystone project for VNFs (with its member user), an admin
user in an admin project of its own, a network of its own (its own
address range, so the SSH test VMs of two lanes never share an address),
and the compute hosts and zones that topology.expand gave it. Capacity
changes, resets and quotas of one lane touch nothing of another, so the
lanes' tests run side by side.

Lane 0 keeps minicloud's historical names (project ``vnf``, user
``vnfuser``, the cloud's ``admin``, network ``vnf-net`` 10.99.0.0/24);
lane N>0 is ``lN-vnf``, ``lN-vnfuser``, ``lN-admin``, ``lN-vnf-net``
10.99.N.0/24. Used by setup_cloud.py (minicloud's venv, openstacksdk);
every step is idempotent.
"""

from __future__ import annotations

import time
from typing import Any

import openstack
from mclib import paths

VNF_ROLES = ("member", "heat_stack_owner")
ADMIN_ROLES = ("admin", "heat_stack_owner")


def names(index: int) -> dict[str, str]:
    """Keystone and Neutron names of lane ``index``."""
    if index == 0:
        return {
            "project": paths.PROJECT,
            "user": paths.PROJECT_USER,
            "admin_project": "admin",
            "admin_user": "admin",
            "network": "vnf-net",
            "subnet": "vnf-subnet",
            "cidr": "10.99.0.0/24",
        }
    p = f"l{index}-"
    return {
        "project": f"{p}vnf",
        "user": f"{p}vnfuser",
        "admin_project": f"{p}admin",
        "admin_user": f"{p}admin",
        "network": f"{p}vnf-net",
        "subnet": f"{p}vnf-subnet",
        "cidr": f"10.99.{index}.0/24",
    }


def credentials(user: str, project: str) -> dict[str, str]:
    """keystoneauth v3.Password arguments."""
    return {
        "auth_url": paths.AUTH_URL,
        "username": user,
        "password": paths.PASSWORD,
        "project_name": project,
        "user_domain_name": "Default",
        "project_domain_name": "Default",
    }


def _identity(conn, n: dict[str, str]) -> tuple[Any, Any]:
    """The lane's two projects and users with their roles."""
    idc = conn.identity
    default = idc.find_domain("default")

    def project(name: str):
        return idc.find_project(name, domain_id=default.id) or (
            idc.create_project(name=name, domain_id=default.id)
        )

    def user(name: str):
        return idc.find_user(name, domain_id=default.id) or idc.create_user(
            name=name, password=paths.PASSWORD, domain_id=default.id
        )

    def grant(proj, usr, roles) -> None:
        for role in roles:
            idc.assign_project_role_to_user(proj, usr, idc.find_role(role))

    vnf, admin_project = project(n["project"]), project(n["admin_project"])
    grant(vnf, user(n["user"]), VNF_ROLES)
    grant(admin_project, user(n["admin_user"]), ADMIN_ROLES)
    return vnf, admin_project


def _network(conn, n: dict[str, str], project_id: str) -> tuple[str, str]:
    """The lane's network and subnet, owned by its VNF project (the
    subnet must belong to the network's project, or the project's ports
    get no fixed IP under Neutron's RBAC defaults)."""
    # Neutron's first request(s) after a start can run before its policy
    # engine is ready and be judged non-admin (empty list, then 403 on
    # create): retry.
    for attempt in range(10):
        try:
            net = conn.network.find_network(n["network"]) or (
                conn.network.create_network(
                    name=n["network"], project_id=project_id
                )
            )
            sub = conn.network.find_subnet(n["subnet"]) or (
                conn.network.create_subnet(
                    name=n["subnet"],
                    network_id=net.id,
                    ip_version=4,
                    cidr=n["cidr"],
                    project_id=project_id,
                )
            )
            return net.id, sub.id
        except openstack.exceptions.ForbiddenException:
            if attempt == 9:
                raise
            time.sleep(0.2 * (attempt + 1))
    raise AssertionError("unreachable")


def build(conn, lane: dict[str, Any], zones: dict[str, Any]) -> dict:
    """Create (or find) lane ``lane`` (from topology.expand); returns its
    state: names, credentials, ids, zones logical -> real, and
    ``topology`` logical zone -> real host -> capacity."""
    index = lane["index"]
    n = names(index)
    vnf, admin_project = _identity(conn, n)
    net_id, subnet_id = _network(conn, n, vnf.id)
    return {
        "index": index,
        #: Prefix of names the lane's tests give what they create (flavors,
        #: aggregates, projects...): its reset deletes those by name.
        "name_prefix": f"l{index}-",
        "zones": dict(lane["zones"]),
        "hosts": dict(lane["hosts"]),
        "topology": {
            logical: zones[real] for logical, real in lane["zones"].items()
        },
        "project_id": vnf.id,
        "admin_project_id": admin_project.id,
        "project_auth": credentials(n["user"], n["project"]),
        "admin_auth": credentials(n["admin_user"], n["admin_project"]),
        "network_name": n["network"],
        "network_id": net_id,
        "subnet_id": subnet_id,
        "cidr": n["cidr"],
    }
