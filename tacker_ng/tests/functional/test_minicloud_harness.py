"""The minicloud harness works: real Nova zones and scheduling, real Heat
stacks pinned to zones, a full zone failing a stack with Nova's own
"No valid host was found.", Cinder volumes attached by Heat with
snapshots and reverts on the file-backed backend, and a reset leaving
nothing behind."""

from __future__ import annotations

import time
import uuid

import pytest
from novaclient import exceptions as nova_exc

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
    heat = cloud.heat()
    name = f"harness-{uuid.uuid4().hex[:8]}"
    created = heat.stacks.create(
        stack_name=name,
        template=_template(),
        parameters={
            "zone": zone,
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
        assert zones[zone].zoneState["available"]
        hosts = zones[zone].hosts or {}
        assert set(hosts) == set(cloud.hosts(zone))
        for host in hosts:
            assert hosts[host]["nova-compute"]["available"]
    # A member sees the zone names only; the detail is admin-only.
    names = {
        z.zoneName
        for z in cloud.nova().availability_zones.list(detailed=False)
    }
    assert set(cloud.zones()) <= names
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
        availability_zone=zone,
    )
    server = cloud.wait_server(server.id)
    assert server.status == "ACTIVE", getattr(server, "fault", None)
    assert getattr(server, "OS-EXT-AZ:availability_zone") == zone
    assert getattr(server, "OS-EXT-SRV-ATTR:host") in cloud.hosts(zone)
    # The port bound (anyhost ML2 driver) and got an address.
    assert server.addresses["vnf-net"][0]["addr"].startswith("10.99.0.")


def test_heat_stack_pins_server_to_zone(minicloud_clean):
    cloud = minicloud_clean
    zone = cloud.zones()[1]
    stack, name = _create_stack(cloud, zone, count=2)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    nova = cloud.nova(admin=True)
    servers = nova.servers.list(
        search_opts={"all_tenants": True, "name": "^vdu-"}
    )
    assert len(servers) == 2
    for s in servers:
        assert getattr(s, "OS-EXT-AZ:availability_zone") == zone
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
    # Nova's attachment id is the volume id, so Heat's attachment holds.
    sdk.compute.create_volume_attachment(out["server"], volume_id=volume.id)
    _wait_volume(bs, volume.id, "in-use")
    removed = cloud.reset()
    assert removed["stacks"] == 1 and removed["volume_snapshots"] == 1
    assert not list(cloud.sdk().block_storage.volumes(all_projects=True))
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
            availability_zone=zone,
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


def test_reset_leaves_no_tenant_resources(minicloud):
    cloud = minicloud
    cloud.reset()
    admin = cloud.nova(admin=True)
    _create_stack(cloud, cloud.zones()[1])
    cloud.fill_zone(cloud.zones()[4])
    cloud.nova().server_groups.create("harness-sg", "anti-affinity")
    flavor = admin.flavors.create("harness-flavor", 512, 1, 1)
    agg = admin.aggregates.create("harness-agg", None)
    admin.aggregates.add_host(agg, cloud.hosts(cloud.zones()[0])[0])
    svc = next(
        s
        for s in admin.services.list(binary="nova-compute")
        if s.host == cloud.hosts(cloud.zones()[2])[0]
    )
    admin.services.disable(svc.id)
    admin.quotas.update(cloud.project_id, cores=1)
    net = cloud.sdk().network.create_network(name="harness-net")

    removed = cloud.reset()

    assert removed["stacks"] == 1 and removed["servers"] >= 1, removed
    assert not admin.servers.list(search_opts={"all_tenants": True})
    assert not admin.server_groups.list(all_projects=True)
    assert flavor.id not in {f.id for f in admin.flavors.list(is_public=None)}
    assert set(cloud.flavors.values()) <= {
        f.id for f in admin.flavors.list(is_public=None)
    }
    aggs = {a.name: a for a in admin.aggregates.list()}
    assert "harness-agg" not in aggs
    assert len(aggs) == len(cloud.zones())
    assert all(
        s.status == "enabled"
        for s in admin.services.list(binary="nova-compute")
    )
    assert admin.quotas.get(cloud.project_id).cores == -1
    assert cloud.sdk().network.find_network(net.id) is None
    assert not list(cloud.heat().stacks.list())
    for zone in cloud.zones():
        assert cloud.zone_free_capacity(zone) == cloud.topology[zone]
