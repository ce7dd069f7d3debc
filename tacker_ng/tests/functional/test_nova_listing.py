"""The observer's Nova listing over HTTP (nova-lite on loopback): pages
of ``servers/detail`` parsed into observed servers, one call per page."""

import uuid

from oslo_config import cfg

from tacker_ng.convergence import nova
from tacker_ng.tests import fixtures
from tools.simcloud.nova_lite import NovaLite


def _vim(sim: NovaLite) -> dict:
    return {
        "vimId": "vim1",
        "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
        "interfaceInfo": {"endpoint": sim.auth_url},
        "accessInfo": {
            "username": "bench",
            "password": "bench-secret",
            "project": "bench",
            "region": "RegionOne",
        },
    }


def test_every_server_listed_in_pages(tmp_path):
    with (
        fixtures.config(str(tmp_path), convergence__page_size=100),
        NovaLite() as sim,
    ):
        ids = [str(uuid.uuid4()) for _ in range(250)]
        for n, server_id in enumerate(ids):
            sim.add_server(server_id, f"host-{n % 7}", f"AZ-{n % 3}")
        sim.set_status(ids[5], "ERROR")
        sim.reset_calls()
        listing = nova.NovaLister(_vim(sim), cfg.CONF).listing()
        calls = sim.reset_calls()
    assert set(listing.servers) == set(ids)
    assert calls["servers/detail"] == 3  # 100 + 100 + 50
    assert listing.calls == 4  # the pages and os-services
    server = listing.servers[ids[12]]
    assert (server.host, server.zone, server.status) == (
        "host-5",
        "AZ-0",
        "ACTIVE",
    )
    assert listing.servers[ids[5]].status == "ERROR"
    assert listing.hosts_up == {f"host-{n}": True for n in range(7)}
