"""The minicloud harness works: real Nova zones and scheduling, real Heat
stacks pinned to zones, a full zone failing a stack with Nova's own
"No valid host was found.", Cinder volumes attached by Heat with
snapshots and reverts on the file-backed backend, and a reset leaving
nothing behind."""

from __future__ import annotations

import ipaddress
import time
import uuid

import pytest
from novaclient import exceptions as nova_exc

from tacker_ng.infra.openstack import driver as openstack_driver
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.fixtures.minicloud_api import MiniCloud
from tacker_ng.tests.functional.openstack import env

pytestmark = pytest.mark.minicloud

NO_VALID_HOST = "No valid host was found."


def _template() -> dict:
    """A VDU-like stack: N servers (a ResourceGroup, so a nested stack)
    pinned to one zone, on the project's network."""
    server = {
        "type": "OS::Nova::Server",
        "properties": {
            "name": "vdu-%index%",
            "image": {"get_param": "image"},
            "flavor": {"get_param": "flavor"},
            "availability_zone": {"get_param": "zone"},
            "networks": [{"network": {"get_param": "net"}}],
        },
    }
    return {
        "heat_template_version": "2021-04-16",
        "parameters": {
            "zone": {"type": "string"},
            "flavor": {"type": "string", "default": "m1.small"},
            "image": {"type": "string"},
            "net": {"type": "string"},
            "count": {"type": "number", "default": 1},
        },
        "resources": {
            "vdus": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {
                    "count": {"get_param": "count"},
                    "resource_def": server,
                },
            }
        },
    }


def _create_stack(cloud, zone: str, count: int = 1):
    """A stack of ``count`` servers in (logical) ``zone`` of the lane."""
    heat = cloud.heat()
    name = f"harness-{uuid.uuid4().hex[:8]}"
    created = heat.stacks.create(
        stack_name=name,
        template=_template(),
        parameters={
            "zone": cloud.az(zone),
            "image": cloud.image_id,
            "net": cloud.network_id,
            "count": count,
        },
    )
    return cloud.wait_stack(created["stack"]["id"]), name


def test_admin_lists_zones_with_their_hosts(minicloud_clean):
    cloud = minicloud_clean
    zones = {
        z.zoneName: z
        for z in cloud.nova(admin=True).availability_zones.list(detailed=True)
    }
    for zone in cloud.zones():
        assert zones[cloud.az(zone)].zoneState["available"]
        hosts = zones[cloud.az(zone)].hosts or {}
        assert set(hosts) == set(cloud.hosts(zone))
        for host in hosts:
            assert hosts[host]["nova-compute"]["available"]
    # A member sees the zone names only; the detail is admin-only.
    names = {
        z.zoneName
        for z in cloud.nova().availability_zones.list(detailed=False)
    }
    assert set(cloud.real_zones()) <= names
    with pytest.raises(nova_exc.Forbidden):
        cloud.nova().availability_zones.list(detailed=True)


def test_server_boots_into_the_chosen_zone(minicloud_clean):
    cloud = minicloud_clean
    zone = cloud.zones()[2]
    server = cloud.nova().servers.create(
        "harness-vm",
        image=cloud.image_id,
        flavor=cloud.flavors["m1.tiny"],
        nics=[{"net-id": cloud.network_id}],
        availability_zone=cloud.az(zone),
    )
    server = cloud.wait_server(server.id)
    assert server.status == "ACTIVE", getattr(server, "fault", None)
    assert getattr(server, "OS-EXT-AZ:availability_zone") == cloud.az(zone)
    assert getattr(server, "OS-EXT-SRV-ATTR:host") in cloud.hosts(zone)
    # The port bound (anyhost ML2 driver) and got an address of the
    # lane's own network.
    addr = server.addresses[cloud.network_name][0]["addr"]
    assert ipaddress.ip_address(addr) in ipaddress.ip_network(cloud.cidr)


def test_heat_stack_pins_server_to_zone(minicloud_clean):
    cloud = minicloud_clean
    zone = cloud.zones()[1]
    stack, name = _create_stack(cloud, zone, count=2)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    nova = cloud.nova(admin=True)
    servers = nova.servers.list(
        search_opts={
            "all_tenants": True,
            "project_id": cloud.project_id,
            "name": "^vdu-",
        }
    )
    assert len(servers) == 2
    for s in servers:
        assert getattr(s, "OS-EXT-AZ:availability_zone") == cloud.az(zone)
        assert getattr(s, "OS-EXT-SRV-ATTR:host") in cloud.hosts(zone)


def _volume_template() -> dict:
    """A server with a 1 GiB data volume attached, as a VDU with a
    VirtualBlockStorage becomes."""
    return {
        "heat_template_version": "2021-04-16",
        "parameters": {
            "image": {"type": "string"},
            "net": {"type": "string"},
        },
        "resources": {
            "vdu": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": {"get_param": "image"},
                    "flavor": "m1.tiny",
                    "networks": [{"network": {"get_param": "net"}}],
                },
            },
            "disk": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
            "attach": {
                "type": "OS::Cinder::VolumeAttachment",
                "properties": {
                    "instance_uuid": {"get_resource": "vdu"},
                    "volume_id": {"get_resource": "disk"},
                },
            },
        },
        "outputs": {
            "server": {"value": {"get_resource": "vdu"}},
            "volume": {"value": {"get_resource": "disk"}},
        },
    }


def _wait_volume(bs, volume_id: str, status: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while True:
        volume = bs.get_volume(volume_id)
        if volume.status == status:
            return volume
        assert volume.status not in ("error", "error_restoring"), volume
        assert time.monotonic() < deadline, f"{volume_id}: {volume.status}"
        time.sleep(0.5)


def test_heat_attaches_volume_and_cinder_reverts_it(minicloud_clean):
    cloud = minicloud_clean
    heat = cloud.heat()
    created = heat.stacks.create(
        stack_name=f"harness-vol-{uuid.uuid4().hex[:8]}",
        template=_volume_template(),
        parameters={"image": cloud.image_id, "net": cloud.network_id},
    )
    stack = cloud.wait_stack(created["stack"]["id"])
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    out = {o["output_key"]: o["output_value"] for o in stack.outputs}
    sdk = cloud.sdk(admin=False)
    bs = sdk.block_storage
    volume = _wait_volume(bs, out["volume"], "in-use")
    assert [a["server_id"] for a in volume.attachments] == [out["server"]]
    disk = cloud.volume_disk(volume.id)
    disk.write_text("before")
    snap = bs.create_snapshot(volume_id=volume.id, force=True)
    bs.wait_for_status(snap, "available", failures=["error"], wait=60)
    disk.write_text("after")
    # Cinder reverts a detached volume only (API microversion 3.40).
    sdk.compute.delete_volume_attachment(out["server"], volume.id)
    _wait_volume(bs, volume.id, "available")
    answer = sdk.session.post(
        f"{bs.get_endpoint()}/volumes/{volume.id}/action",
        json={"revert": {"snapshot_id": snap.id}},
        headers={"OpenStack-API-Version": "volume 3.40"},
    )
    assert answer.status_code == 202, answer.text
    _wait_volume(bs, volume.id, "available")
    assert disk.read_text() == "before"
    # Cinder shows the volume available a moment before Nova removes the
    # server's block device mapping, and Nova refuses an attach until then
    # ("already attached to instances"; seen under load): wait for Nova.
    procs.wait_for(
        lambda: all(
            a.volume_id != volume.id
            for a in sdk.compute.volume_attachments(out["server"])
        ),
        60,
        f"Nova to release volume {volume.id}",
        interval=0.5,
    )
    # Nova's attachment id is the volume id, so Heat's attachment holds.
    sdk.compute.create_volume_attachment(out["server"], volume_id=volume.id)
    _wait_volume(bs, volume.id, "in-use")
    removed = cloud.reset()
    assert removed["stacks"] == 1 and removed["volume_snapshots"] == 1
    assert not _lane_volumes(cloud)
    assert not disk.exists()


def test_full_zone_fails_stack_with_no_valid_host(minicloud_clean):
    cloud = minicloud_clean
    full = cloud.zones()[:2]  # "AZ-1 and AZ-2 full"; AZ-1 has two hosts
    assert len(cloud.fill_zones(full)) == len(cloud.hosts(full[0])) + 1
    for zone in full:
        for free in cloud.zone_free_capacity(zone).values():
            assert free == {"vcpus": 0, "ram_mb": 0, "disk_gb": 0}
    stack, name = _create_stack(cloud, full[0])
    assert stack.stack_status == "CREATE_FAILED"
    events = cloud.heat().events.list(f"{name}/{stack.id}", nested_depth=2)
    failed = [
        e.resource_status_reason
        for e in events
        if e.resource_status == "CREATE_FAILED"
    ]
    assert any(NO_VALID_HOST in (r or "") for r in failed), failed
    # The other zones are untouched.
    other = cloud.zones()[2]
    assert cloud.zone_free_capacity(other) == cloud.topology[other]


def test_fill_leaves_room_for_exactly_one_server(minicloud_clean):
    cloud = minicloud_clean
    zone = cloud.zones()[3]
    host = cloud.hosts(zone)[0]
    small = cloud.nova(admin=True).flavors.get(cloud.flavors["m1.small"])
    leave = {"vcpus": small.vcpus, "ram_mb": small.ram, "disk_gb": small.disk}
    assert cloud.fill_host(host, leave=leave)
    assert cloud.free_capacity(host) == leave
    nova = cloud.nova()
    ids = [
        nova.servers.create(
            f"one-{i}",
            image=cloud.image_id,
            flavor=small.id,
            nics="none",
            availability_zone=cloud.az(zone),
        ).id
        for i in range(2)
    ]
    states = sorted(cloud.wait_server(i).status for i in ids)
    assert states == ["ACTIVE", "ERROR"]
    failed = next(
        s
        for s in map(cloud.nova(admin=True).servers.get, ids)
        if s.status == "ERROR"
    )
    assert NO_VALID_HOST in failed.fault["message"]
    assert cloud.free_zone(zone) == 1


def _lane_volumes(cloud) -> list:
    mine = {cloud.project_id, cloud.admin_project_id}
    return [
        v
        for v in cloud.sdk().block_storage.volumes(all_projects=True)
        if v.project_id in mine
    ]


def _lane_servers(cloud, nova) -> list:
    """The lane's servers: its projects' and what runs on its hosts."""
    hosts = set(cloud.hosts())
    mine = {cloud.project_id, cloud.admin_project_id}
    return [
        s
        for s in nova.servers.list(search_opts={"all_tenants": True})
        if s.tenant_id in mine or getattr(s, "OS-EXT-SRV-ATTR:host") in hosts
    ]


def _make_mess(cloud) -> dict:
    """One of everything a lane's tests may leave behind."""
    admin = cloud.nova(admin=True)
    _create_stack(cloud, cloud.zones()[1])
    cloud.fill_zone(cloud.zones()[4])
    cloud.nova().server_groups.create(cloud.name("sg"), "anti-affinity")
    flavor = admin.flavors.create(cloud.name("flavor"), 512, 1, 1)
    agg = admin.aggregates.create(cloud.name("agg"), None)
    admin.aggregates.add_host(agg, cloud.hosts(cloud.zones()[0])[0])
    svc = next(
        s
        for s in admin.services.list(binary="nova-compute")
        if s.host == cloud.hosts(cloud.zones()[2])[0]
    )
    admin.services.disable(svc.id)
    admin.quotas.update(cloud.project_id, cores=1)
    net = cloud.sdk().network.create_network(name=cloud.name("net"))
    return {"flavor": flavor.id, "agg": agg.id, "net": net.id}


def _assert_clean(cloud, mess: dict) -> None:
    admin = cloud.nova(admin=True)
    mine = {cloud.project_id, cloud.admin_project_id}
    assert not _lane_servers(cloud, admin)
    assert not [
        g
        for g in admin.server_groups.list(all_projects=True)
        if g.project_id in mine
    ]
    flavors = {f.id for f in admin.flavors.list(is_public=None)}
    assert mess["flavor"] not in flavors
    assert set(cloud.flavors.values()) <= flavors
    aggs = {a.id: a for a in admin.aggregates.list()}
    assert mess["agg"] not in aggs
    for zone in cloud.zones():
        agg = next(
            a for a in aggs.values() if a.name == f"mc-az-{cloud.az(zone)}"
        )
        assert set(agg.hosts) == set(cloud.hosts(zone))
    assert all(
        s.status == "enabled"
        for s in admin.services.list(binary="nova-compute")
        if s.host in cloud.hosts()
    )
    assert admin.quotas.get(cloud.project_id).cores == -1
    assert cloud.sdk().network.find_network(mess["net"]) is None
    assert not list(cloud.heat().stacks.list())
    for zone in cloud.zones():
        assert cloud.zone_free_capacity(zone) == cloud.topology[zone]


def test_reset_leaves_no_tenant_resources(minicloud):
    cloud = minicloud
    cloud.reset()
    mess = _make_mess(cloud)

    removed = cloud.reset()

    assert removed["stacks"] == 1 and removed["servers"] >= 1, removed
    _assert_clean(cloud, mess)


@pytest.mark.minicloud_whole
def test_lanes_are_isolated_and_the_whole_reset_cleans_every_lane(
    minicloud_whole,
):
    """With every lane held: a lane's reset and capacity changes leave
    the other lanes alone, tacker-ng kept to a lane sees its zones only,
    and ``minicloud.py reset`` (the whole-cloud reset) cleans them all."""
    state = minicloud_whole.state
    lanes = [MiniCloud(state, i) for i in range(MiniCloud.lane_count(state))]
    assert len(lanes) >= 2, "minicloud must have 2 lanes or more"
    first, second = lanes[0], lanes[1]
    # Disjoint hosts, zones, projects and address ranges.
    assert not set(first.hosts()) & set(second.hosts())
    assert not set(first.real_zones()) & set(second.real_zones())
    assert first.project_id != second.project_id
    assert not ipaddress.ip_network(first.cidr).overlaps(
        ipaddress.ip_network(second.cidr)
    )
    messes = [_make_mess(first)]
    # AZ-5 of the first lane is full: the second lane's AZ-5 is not.
    assert first.zone_free_capacity("AZ-5") != first.topology["AZ-5"]
    assert second.zone_free_capacity("AZ-5") == second.topology["AZ-5"]
    messes.append(_make_mess(second))
    # The first lane's reset leaves the second lane's mess alone.
    first.reset()
    _assert_clean(first, messes[0])
    admin = second.nova(admin=True)
    assert _lane_servers(second, admin)
    assert messes[1]["agg"] in {a.id for a in admin.aggregates.list()}
    assert list(second.heat().stacks.list())
    # tacker-ng's zone list, kept to the first lane's zones.
    drv = openstack_driver.OpenStackDriver()
    with env.config([("availability_zones", first.real_zones(), "openstack")]):
        vim = env.vim_connection(first)["vim1"]
        assert drv.list_zones(vim) == sorted(first.real_zones())
    # The whole-cloud reset cleans every lane.
    removed = minicloud_whole.reset_whole_cloud()
    assert removed["stacks"] >= 1, removed
    for lane, mess in zip((first, second), messes, strict=True):
        _assert_clean(lane, mess)
