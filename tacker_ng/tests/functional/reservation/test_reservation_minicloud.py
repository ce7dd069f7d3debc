"""Reservations on a real OpenStack (minicloud): the Blazar CLI unchanged,
an anti-affinity lease whose instances land on distinct hosts, capacity
that other projects cannot use, clean-up at the end, host failures and a
conductor dying mid-event.
"""

from __future__ import annotations

import datetime
import json
import signal

import pytest
from novaclient import client as nova_client
from novaclient import exceptions as nova_exc

from tacker_ng.tests.functional import processes as procs

# Runs in one lane with the other modules of the "keystone-catalog"
# group (tacker_ng/tests/functional/lanes.py).
pytestmark = pytest.mark.minicloud

FUTURE = ("2090-01-01 10:00", "2090-01-02 10:00")


def _iso(delta_s: float) -> str:
    when = datetime.datetime.now(datetime.UTC) + datetime.timedelta(
        seconds=delta_s
    )
    return when.strftime("%Y-%m-%d %H:%M:%S")


def _instance(amount: int, affinity=False) -> dict:
    return {
        "resource_type": "virtual:instance",
        "vcpus": 1,
        "memory_mb": 1024,
        "disk_gb": 10,
        "amount": amount,
        "affinity": affinity,
    }


def _lease(dep, lease_id: str) -> dict:
    resp = dep.call("GET", f"/leases/{lease_id}")
    assert resp.status_code == 200, resp.text
    return resp.json()["lease"]


def _wait_status(dep, lease_id: str, status: str, timeout=90) -> dict:
    last = {}

    def reached():
        nonlocal last
        last = _lease(dep, lease_id)
        return last["status"] == status

    try:
        procs.wait_for(reached, timeout, f"lease {lease_id} {status}")
    except AssertionError:
        raise AssertionError(f"lease stuck: {json.dumps(last)}") from None
    return last


def _nova_for(auth: dict, cloud):
    from keystoneauth1 import session
    from keystoneauth1.identity import v3

    return nova_client.Client(
        "2.79",
        session=session.Session(auth=v3.Password(**auth)),
        region_name=cloud.region_name,
    )


def _json_after_banner(text: str):
    return json.loads(text[text.index("{") :])


def test_blazar_cli_works_unchanged(dep):
    hosts = json.loads(
        dep.cli("reservation", "host", "list", "-f", "json", admin=True).stdout
    )
    assert sorted(h["hypervisor_hostname"] for h in hosts) == sorted(
        dep.freepool
    )
    # The CLI prints "Created a new lease:" before the JSON.
    created = _json_after_banner(
        dep.cli(
            "reservation", "lease", "create",
            "--reservation",
            "resource_type=virtual:instance,vcpus=1,memory_mb=1024,"
            "disk_gb=10,amount=2,affinity=False",
            "--start-date", FUTURE[0], "--end-date", FUTURE[1],
            "cli-lease", "-f", "json",
        ).stdout
    )  # fmt: skip
    assert created["status"] == "PENDING"
    listed = json.loads(
        dep.cli("reservation", "lease", "list", "-f", "json").stdout
    )
    assert [x["name"] for x in listed] == ["cli-lease"]
    shown = json.loads(
        dep.cli(
            "reservation", "lease", "show", "cli-lease", "-f", "json"
        ).stdout
    )
    assert shown["id"] == created["id"]
    res = json.loads(shown["reservations"])
    assert res["resource_type"] == "virtual:instance" and res["amount"] == 2

    dep.cli("reservation", "lease", "set", "--name", "cli-2", "cli-lease")
    dep.cli("reservation", "lease", "set", "--prolong-for", "1d", "cli-2")
    dep.cli(
        "reservation", "lease", "set", "--reservation",
        f"id={res['id']},amount=3", "cli-2",
    )  # fmt: skip
    lease = _lease(dep, created["id"])
    assert lease["name"] == "cli-2"
    assert lease["end_date"] == "2090-01-03T10:00:00.000000"
    assert lease["reservations"][0]["amount"] == 3

    # Five distinct hosts are not there: 409 with Blazar's body, shown
    # by the CLI as its error message.
    too_big = dep.cli(
        "reservation", "lease", "create",
        "--reservation",
        "resource_type=virtual:instance,vcpus=1,memory_mb=1024,"
        "disk_gb=10,amount=5,affinity=False",
        "--start-date", FUTURE[0], "--end-date", FUTURE[1],
        "too-big", check=False,
    )  # fmt: skip
    assert too_big.returncode != 0
    assert "Not enough capacity" in too_big.stderr + too_big.stdout
    raw = dep.call(
        "POST",
        "/leases",
        json={
            "name": "raw",
            "start_date": FUTURE[0],
            "end_date": FUTURE[1],
            "reservations": [_instance(5)],
            "events": [],
        },
    )
    assert raw.status_code == 409
    assert raw.json()["error_code"] == 409

    dep.cli("reservation", "lease", "delete", "cli-2")
    assert (
        json.loads(
            dep.cli("reservation", "lease", "list", "-f", "json").stdout
        )
        == []
    )


def test_anti_affinity_lease_lands_on_distinct_hosts_and_is_cleaned(dep):
    cloud = dep.cloud
    amount = 3
    resp = dep.call(
        "POST",
        "/leases",
        json={
            "name": "aa",
            "start_date": "now",
            "end_date": _iso(3600),
            "reservations": [_instance(amount)],
            "events": [],
        },
    )
    assert resp.status_code == 201, resp.text
    lease = _wait_status(dep, resp.json()["lease"]["id"], "ACTIVE")
    res = lease["reservations"][0]
    rid, flavor_id, group_id = (
        res["id"],
        res["flavor_id"],
        res["server_group_id"],
    )
    assert res["status"] == "active" and flavor_id == rid and group_id

    admin = cloud.nova(admin=True)
    agg = admin.aggregates.get(res["aggregate_id"])
    assert agg.metadata["reservation"] == rid
    assert agg.metadata["filter_tenant_id"] == cloud.project_id
    assert len(agg.hosts) == amount
    assert set(agg.hosts) <= set(dep.freepool)
    flavor = admin.flavors.get(flavor_id)
    assert flavor.get_keys() == {
        "aggregate_instance_extra_specs:reservation": rid,
        "affinity_id": group_id,
    }
    assert not flavor.is_public

    user = cloud.nova()
    servers = [
        user.servers.create(
            f"rsv-{i}", cloud.image_id, flavor_id, nics="none",
            scheduler_hints={"group": group_id},
        )
        for i in range(amount)
    ]  # fmt: skip
    hosts = []
    for server in servers:
        done = cloud.wait_server(server.id)
        assert done.status == "ACTIVE", getattr(done, "fault", None)
        hosts.append(getattr(done, "OS-EXT-SRV-ATTR:host"))
    assert len(set(hosts)) == amount
    assert set(hosts) <= set(agg.hosts)

    # The reservation holds exactly `amount` slots on distinct hosts.
    extra = user.servers.create(
        "rsv-extra", cloud.image_id, flavor_id, nics="none",
        scheduler_hints={"group": group_id},
    )  # fmt: skip
    assert cloud.wait_server(extra.id).status == "ERROR"

    # Another project can neither use the flavor nor the freepool.
    outsider = _nova_for(dep.outsider_auth, cloud)
    with pytest.raises(nova_exc.NotFound):
        outsider.flavors.get(flavor_id)
    tiny = cloud.flavors["m1.tiny"]
    stranger = outsider.servers.create(
        "stranger", cloud.image_id, tiny, nics="none"
    )
    done = cloud.wait_server(stranger.id)
    assert done.status == "ACTIVE"
    assert getattr(done, "OS-EXT-SRV-ATTR:host") not in dep.freepool

    # End the lease a few seconds from now: servers, flavor, group and
    # aggregate go away and the capacity is free again.
    moved = dep.call(
        "PUT", f"/leases/{lease['id']}", json={"end_date": _iso(5)}
    )
    assert moved.status_code == 200, moved.text
    _wait_status(dep, lease["id"], "TERMINATED", timeout=180)
    left = admin.servers.list(
        search_opts={"all_tenants": True, "flavor": flavor_id}
    )
    assert left == []
    with pytest.raises(nova_exc.NotFound):
        admin.flavors.get(flavor_id)
    groups = admin.server_groups.list(all_projects=True)
    assert group_id not in {g.id for g in groups}
    assert res["aggregate_id"] not in {a.id for a in admin.aggregates.list()}
    allocs = dep.call(
        "GET", f"/os-hosts/allocations?lease_id={lease['id']}", admin=True
    ).json()["allocations"]
    assert allocs == []
    stranger.delete()


def test_failed_host_moves_pending_reservation(dep):
    cloud = dep.cloud
    resp = dep.call(
        "POST",
        "/leases",
        json={
            "name": "moving",
            "start_date": FUTURE[0],
            "end_date": FUTURE[1],
            "reservations": [_instance(1)],
            "events": [],
        },
    )
    assert resp.status_code == 201, resp.text
    lease_id = resp.json()["lease"]["id"]

    def holder():
        allocs = dep.call(
            "GET", f"/os-hosts/allocations?lease_id={lease_id}", admin=True
        ).json()["allocations"]
        return [a["resource_id"] for a in allocs if a["reservations"]]

    [before] = holder()
    name = dep.call("GET", f"/os-hosts/{before}", admin=True).json()["host"][
        "service_name"
    ]
    admin = cloud.nova(admin=True)
    service = admin.services.list(host=name, binary="nova-compute")[0]
    admin.services.disable_log_reason(service.id, "reservation test")
    try:
        procs.wait_for(
            lambda: holder() and holder() != [before], 60, "reservation moved"
        )
        host = dep.call("GET", f"/os-hosts/{before}", admin=True).json()[
            "host"
        ]
        assert host["reservable"] is False and host["status"] == "disabled"
        res = _lease(dep, lease_id)["reservations"][0]
        assert res["resources_changed"] is True
        assert res["missing_resources"] is False
    finally:
        admin.services.enable(service.id)
    procs.wait_for(
        lambda: dep.call("GET", f"/os-hosts/{before}", admin=True).json()[
            "host"
        ]["reservable"],
        60,
        "host reservable again",
    )
    assert dep.call("DELETE", f"/leases/{lease_id}").status_code == 204


def test_event_of_a_killed_conductor_is_resumed_once(dep):
    """SIGKILL the conductor that leads; the other takes over both the
    leadership and an event the dead one had claimed."""
    last = dep.sql(
        "SELECT conductor_host FROM lease_events WHERE status = 'DONE' "
        "ORDER BY updated_at DESC LIMIT 1"
    ).scalar()
    victim = last if last in dep.conductors else "cond-a"
    survivor = ({"cond-a", "cond-b"} - {victim}).pop()
    dep.conductors[victim].stop(sig=signal.SIGKILL, timeout=10)

    resp = dep.call(
        "POST",
        "/leases",
        json={
            "name": "orphan",
            "start_date": FUTURE[0],
            "end_date": FUTURE[1],
            "reservations": [_instance(2)],
            "events": [],
        },
    )
    assert resp.status_code == 201, resp.text
    lease = resp.json()["lease"]
    rid = lease["reservations"][0]["id"]
    # The dead conductor had claimed the start and made the server group
    # before it died.
    admin = dep.cloud.nova(admin=True)
    admin.server_groups.create(
        name=f"reservation:{rid}", policy="anti-affinity"
    )
    dep.sql(
        "UPDATE lease_events SET status = 'IN_PROGRESS', conductor_host = "
        ":victim, attempts = 1, time = :now WHERE lease_id = :lid AND "
        "event_type = 'start_lease'",
        victim=victim,
        now=datetime.datetime.now(datetime.UTC).replace(tzinfo=None),
        lid=lease["id"],
    )
    dep.sql(
        "UPDATE leases SET status = 'STARTING' WHERE id = :lid",
        lid=lease["id"],
    )
    started = _wait_status(dep, lease["id"], "ACTIVE", timeout=120)
    owner, attempts = dep.sql(
        "SELECT conductor_host, attempts FROM lease_events WHERE "
        "lease_id = :lid AND event_type = 'start_lease'",
        lid=lease["id"],
    ).one()
    assert (owner, attempts) == (survivor, 2)
    groups = [
        g
        for g in admin.server_groups.list(all_projects=True)
        if g.name == f"reservation:{rid}"
    ]
    assert len(groups) == 1
    assert started["reservations"][0]["server_group_id"] == groups[0].id
    assert dep.call("DELETE", f"/leases/{lease['id']}").status_code == 204
    procs.wait_for(
        lambda: dep.call("GET", f"/leases/{lease['id']}").status_code == 404,
        120,
        "lease deleted by the surviving conductor",
    )
    assert not [
        g
        for g in admin.server_groups.list(all_projects=True)
        if g.name == f"reservation:{rid}"
    ]
