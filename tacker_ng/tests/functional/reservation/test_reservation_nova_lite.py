"""A newcomer's reservations on the simulated Nova (no OpenStack at all).

tacker-ng (API + conductor, HTTP basic auth as in the embedded default)
gets nova-lite (tools/simcloud/nova_lite, a process) as its
``[reservation_nova]``: hosts register from its hypervisors and
Placement inventories into the freepool, a ``physical:host`` lease and
a ``virtual:instance`` lease start and end, and what the reservation
service builds in Nova (aggregates, a private flavor, a server group)
appears in and disappears from the simulator, seen through
python-novaclient. Servers booted into the reservation land on its
hosts and are deleted at its end; a host forced down stops being
reservable until it is back.
"""

from __future__ import annotations

import datetime

import pytest
import requests
from novaclient import exceptions as nova_exc

from tacker_ng.tests.functional import deployment, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.reservation import nova_lite

#: Three hosts for the freepool in two zones, one left for others.
HOSTS = ("compute-1:zone-a", "compute-2:zone-b", "compute-3:zone-a")
OUTSIDE = "compute-4:zone-b"
FREEPOOL = ("compute-1", "compute-2", "compute-3")
USER = ("vnfuser", "secret", "default")
#: A user of a project without reservations.
OUTSIDER = ("stranger", "secret", "other")


def _iso(delta_s: float) -> str:
    when = datetime.datetime.now(datetime.UTC) + datetime.timedelta(
        seconds=delta_s
    )
    return when.strftime("%Y-%m-%d %H:%M:%S")


class Api:
    """tacker-ng's Blazar-compatible API as the embedded admin."""

    def __init__(self, dep: deployment.Deployment) -> None:
        self.v1 = f"{dep.url}/reservation/v1"
        self.auth = dep.auth

    def __call__(self, method: str, path: str, **kw) -> requests.Response:
        return requests.request(
            method, self.v1 + path, headers=self.auth, timeout=30, **kw
        )

    def lease(self, lease_id: str) -> dict:
        resp = self("GET", f"/leases/{lease_id}")
        assert resp.status_code == 200, resp.text
        return resp.json()["lease"]

    def wait(self, lease_id: str, status: str, timeout=30) -> dict:
        procs.wait_for(
            lambda: self.lease(lease_id)["status"] == status,
            timeout,
            f"lease {lease_id} {status}",
            interval=0.2,
        )
        return self.lease(lease_id)


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    """nova-lite, tacker-ng pointed at it, the freepool registered."""
    services.require("rabbitmq")
    tmp = tmp_path_factory.mktemp("rsv-nova-lite")
    args = [a for h in (*HOSTS, OUTSIDE) for a in ("--host", h)]
    args += ["--project", "default=default", "--project", "other"]
    args += ["--user", ":".join(USER), "--user", ":".join(OUTSIDER)]
    with (
        nova_lite.running(tmp / "sim", *args) as sim,
        services.scratch_database("mariadb") as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            conductors=("cond-a",),
            extra={
                "reservation": {
                    "event_interval": 1,
                    "host_failure_check_interval": 1,
                    "minutes_before_end_lease": 0,
                },
                "reservation_nova": sim.reservation_nova,
            },
        ) as dep,
    ):
        api = Api(dep)
        ids = {}
        for name in FREEPOOL:
            resp = api("POST", "/os-hosts", json={"name": name})
            assert resp.status_code == 201, resp.text
            ids[name] = resp.json()["host"]["id"]
        yield sim, api, ids
    # SIGTERM ends the simulator cleanly and takes its ready file away
    assert sim.returncode == 0, sim.process.log_tail()
    assert not sim.ready_file.exists()


def _freepool(admin):
    [pool] = [a for a in admin.aggregates.list() if a.name == "freepool"]
    return pool


def test_hosts_register_from_hypervisors_and_placement(cloud):
    sim, api, ids = cloud
    host = api("GET", f"/os-hosts/{ids['compute-3']}").json()["host"]
    assert host["hypervisor_hostname"] == "compute-3"
    assert host["service_name"] == "compute-3"
    assert host["availability_zone"] == "zone-a"
    assert (host["vcpus"], host["memory_mb"], host["local_gb"]) == (
        4,
        8192,
        80,
    )
    assert host["reservable"] is True

    admin = sim.nova()
    pool = _freepool(admin)
    assert sorted(pool.hosts) == sorted(FREEPOOL)
    service_project = sim.info["service_project"]["id"]
    assert pool.metadata == {"filter_tenant_id": service_project}

    # Nova's own answers come through in tacker-ng's words
    resp = api("POST", "/os-hosts", json={"name": "compute-9"})
    assert resp.status_code == 400
    assert "no hypervisor named 'compute-9'" in resp.text
    again = api("POST", "/os-hosts", json={"name": "compute-1"})
    assert again.status_code == 409, again.text


def test_host_and_instance_leases_start_and_end_in_nova(cloud):
    sim, api, _ = cloud
    admin = sim.nova()
    user = sim.nova(*USER)
    body = {
        "start_date": "now",
        "end_date": "2090-01-01 10:00",
        "events": [],
    }
    physical = api(
        "POST",
        "/leases",
        json={
            **body,
            "name": "whole-host",
            "reservations": [
                {
                    "resource_type": "physical:host",
                    "min": 1,
                    "max": 1,
                    "hypervisor_properties": "",
                    "resource_properties": "",
                }
            ],
        },
    )
    assert physical.status_code == 201, physical.text
    instances = api(
        "POST",
        "/leases",
        json={
            **body,
            "name": "two-slots",
            "reservations": [
                {
                    "resource_type": "virtual:instance",
                    "vcpus": 1,
                    "memory_mb": 1024,
                    "disk_gb": 10,
                    "amount": 2,
                    "affinity": False,
                }
            ],
        },
    )
    assert instances.status_code == 201, instances.text
    host_lease = api.wait(physical.json()["lease"]["id"], "ACTIVE")
    slot_lease = api.wait(instances.json()["lease"]["id"], "ACTIVE")

    # physical:host -> an aggregate named after the reservation, one host
    hres = host_lease["reservations"][0]
    agg = admin.aggregates.get(hres["aggregate_id"])
    assert agg.name == hres["id"]
    assert agg.metadata == {
        "reservation": hres["id"],
        "filter_tenant_id": "default",
    }
    assert len(agg.hosts) == 1 and agg.hosts[0] in FREEPOOL

    # virtual:instance -> group, private flavor, aggregate of its hosts
    ires = slot_lease["reservations"][0]
    rid, flavor_id, group_id = (
        ires["id"],
        ires["flavor_id"],
        ires["server_group_id"],
    )
    assert ires["status"] == "active" and flavor_id == rid and group_id
    group = admin.server_groups.get(group_id)
    assert group.policy == "anti-affinity"
    assert group.project_id == "default"
    flavor = admin.flavors.get(flavor_id)
    assert not flavor.is_public
    assert (flavor.vcpus, flavor.ram, flavor.disk) == (1, 1024, 10)
    assert flavor.get_keys() == {
        "aggregate_instance_extra_specs:reservation": rid,
        "affinity_id": group_id,
    }
    access = admin.flavor_access.list(flavor=flavor_id)
    assert [a.tenant_id for a in access] == ["default"]
    slots = admin.aggregates.get(ires["aggregate_id"])
    assert len(slots.hosts) == 2
    assert set(slots.hosts) <= set(FREEPOOL) - set(agg.hosts)

    # The project boots into its reservation: distinct reserved hosts,
    # no third slot. Another project can neither use the flavor nor
    # land on the freepool.
    booted = [
        user.servers.create(
            f"slot-{i}", "cirros", flavor_id, nics="none",
            scheduler_hints={"group": group_id},
        )
        for i in range(3)
    ]  # fmt: skip
    shown = [admin.servers.get(s.id) for s in booted]
    assert [s.status for s in shown] == ["ACTIVE", "ACTIVE", "ERROR"]
    assert shown[2].fault["message"].startswith("No valid host was found.")
    hosts = [getattr(s, "OS-EXT-SRV-ATTR:host") for s in shown[:2]]
    assert len(set(hosts)) == 2 and set(hosts) <= set(slots.hosts)
    outsider = sim.nova(*OUTSIDER)
    with pytest.raises(nova_exc.NotFound):
        outsider.flavors.get(flavor_id)
    ordinary = outsider.servers.create("plain", "cirros", "1", nics="none")
    ordinary = admin.servers.get(ordinary.id)
    assert getattr(ordinary, "OS-EXT-SRV-ATTR:host") == "compute-4"

    # Both leases end now: everything they made in Nova goes away.
    for lease in (host_lease, slot_lease):
        moved = api(
            "PUT", f"/leases/{lease['id']}", json={"end_date": _iso(1)}
        )
        assert moved.status_code == 200, moved.text
    for lease in (host_lease, slot_lease):
        api.wait(lease["id"], "TERMINATED")
    left = admin.servers.list(
        search_opts={"all_tenants": True, "flavor": flavor_id}
    )
    assert left == []
    everyone = admin.servers.list(search_opts={"all_tenants": True})
    assert [s.id for s in everyone] == [ordinary.id]
    with pytest.raises(nova_exc.NotFound):
        admin.flavors.get(flavor_id)
    assert group_id not in {
        g.id for g in admin.server_groups.list(all_projects=True)
    }
    names = {a.name for a in admin.aggregates.list()}
    assert hres["id"] not in names and rid not in names
    assert sorted(_freepool(admin).hosts) == sorted(FREEPOOL)
    outsider.servers.delete(ordinary.id)


def test_forced_down_host_stops_being_reservable(cloud):
    sim, api, ids = cloud
    admin = sim.nova()
    [service] = admin.services.list(host="compute-2", binary="nova-compute")

    def reservable() -> bool:
        host = api("GET", f"/os-hosts/{ids['compute-2']}").json()["host"]
        return host["reservable"]

    admin.services.force_down(service.id, True)
    try:
        procs.wait_for(lambda: not reservable(), 20, "compute-2 down")
        host = api("GET", f"/os-hosts/{ids['compute-2']}").json()["host"]
        assert host["status"] == "down"
    finally:
        admin.services.force_down(service.id, False)
    procs.wait_for(reservable, 20, "compute-2 reservable again")


def test_unregistered_host_leaves_the_freepool(cloud):
    sim, api, ids = cloud
    resp = api("DELETE", f"/os-hosts/{ids['compute-3']}")
    assert resp.status_code == 204, resp.text
    assert sorted(_freepool(sim.nova()).hosts) == ["compute-1", "compute-2"]
