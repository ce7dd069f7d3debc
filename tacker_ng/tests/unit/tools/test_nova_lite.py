"""nova-lite's answers, without sockets: the shapes, codes and texts of
Keystone, Nova (by microversion) and Placement that clients parse, and
the scheduling rules a reservation depends on."""

import json

import pytest

from tools.simcloud.nova_lite import app, seed

URL = "http://sim"
NOVA = "/compute/v2.1"


@pytest.fixture
def sim():
    simulator = app.Simulator(URL)
    seed.populate(
        simulator,
        [
            seed.HostSpec("c1", "za", 4, 8192, 80),
            seed.HostSpec("c2", "za", 4, 8192, 80),
            seed.HostSpec("c3", "zb", 4, 8192, 80),
        ],
        "pw",
        [("default", "default"), ("other", None)],
        [("u", "upw", "default", "member"), ("o", "opw", "other", "member")],
    )
    return simulator


def call(sim, method, path, body=None, token=None, version="2.79", **hdr):
    headers = {"X-OpenStack-Nova-API-Version": version, **hdr}
    if token:
        headers["X-Auth-Token"] = token
    raw = json.dumps(body).encode() if body is not None else b""
    status, out_headers, data = sim.handle(method, path, headers, raw)
    return status, out_headers, json.loads(data) if data else None


def login(sim, user="admin", password="pw", project=None):
    scope = project or {"name": "admin", "domain": {"name": "Default"}}
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": user,
                        "domain": {"name": "Default"},
                        "password": password,
                    }
                },
            },
            "scope": {"project": scope},
        }
    }
    status, headers, out = call(sim, "POST", "/identity/v3/auth/tokens", body)
    return status, headers.get("X-Subject-Token"), out


@pytest.fixture
def admin(sim):
    return login(sim)[1]


@pytest.fixture
def member(sim):
    return login(sim, "u", "upw", {"id": "default"})[1]


def test_keystone_discovery_scopes_and_validation(sim, admin):
    status, headers, body = call(sim, "GET", "/identity")
    assert status == 300
    assert headers["Location"] == f"{URL}/identity/v3/"
    assert body["versions"]["values"][0]["id"] == "v3.14"

    status, token, body = login(sim, project={"id": "default"})
    assert status == 201 and token
    assert body["token"]["project"]["id"] == "default"
    catalog = {e["type"]: e for e in body["token"]["catalog"]}
    urls = {e["url"] for e in catalog["compute"]["endpoints"]}
    assert urls == {f"{URL}/compute/v2.1"}
    assert "placement" in catalog

    unauthenticated = {
        "error": {
            "code": 401,
            "message": "The request you have made requires authentication.",
            "title": "Unauthorized",
        }
    }
    for user, password, project in (
        ("admin", "wrong", None),
        ("admin", "pw", {"id": "nosuch"}),
        ("u", "upw", {"name": "admin", "domain": {"name": "Default"}}),
    ):
        status, token, body = login(sim, user, password, project)
        assert (status, token, body) == (401, None, unauthenticated)

    status, _, body = call(
        sim, "GET", "/identity/v3/auth/tokens", token=admin,
        **{"X-Subject-Token": admin},
    )  # fmt: skip
    assert status == 200 and "admin" in {
        r["name"] for r in body["token"]["roles"]
    }
    status, _, _ = call(
        sim, "DELETE", "/identity/v3/auth/tokens", token=admin,
        **{"X-Subject-Token": admin},
    )  # fmt: skip
    assert status == 204
    status, headers, body = call(sim, "GET", f"{NOVA}/flavors", token=admin)
    assert (status, body) == (401, unauthenticated)
    assert headers["WWW-Authenticate"] == f'Keystone uri="{URL}/identity/v3"'


def test_nova_microversions_are_negotiated(sim, admin):
    status, headers, body = call(sim, "GET", NOVA, version=None)
    assert status == 200
    assert (body["version"]["min_version"], body["version"]["version"]) == (
        "2.1",
        "2.79",
    )
    status, headers, _ = call(sim, "GET", f"{NOVA}/flavors", token=admin)
    assert headers["OpenStack-API-Version"] == "compute 2.79"
    _, headers, _ = call(
        sim, "GET", f"{NOVA}/flavors", token=admin, version="latest"
    )
    assert headers["X-OpenStack-Nova-API-Version"] == "2.79"
    status, _, body = call(
        sim, "GET", f"{NOVA}/flavors", token=admin, version="2.80"
    )
    assert status == 406
    assert body["computeFault"]["message"] == (
        "Version 2.80 is not supported by the API. Minimum is 2.1 and "
        "maximum is 2.79."
    )
    status, _, body = call(
        sim, "GET", f"{NOVA}/flavors", token=admin, version="two"
    )
    assert status == 400
    assert (
        "API Version String two is of invalid format"
        in (body["badRequest"]["message"])
    )


def test_hypervisors_by_microversion_and_policy(sim, admin, member):
    path = f"{NOVA}/os-hypervisors?hypervisor_hostname_pattern=c1"
    status, _, body = call(sim, "GET", path, token=admin)
    [hyp] = body["hypervisors"]
    assert set(hyp) == {"id", "hypervisor_hostname", "state", "status"}
    _, _, detail = call(
        sim, "GET", f"{NOVA}/os-hypervisors/{hyp['id']}", token=admin
    )
    detail = detail["hypervisor"]
    assert detail["service"]["host"] == "c1"
    assert (detail["vcpus"], detail["memory_mb"], detail["local_gb"]) == (
        4,
        8192,
        80,
    )
    status, _, body = call(
        sim, "GET", f"{NOVA}/os-hypervisors/c2/search", token=admin,
        version="2.52",
    )  # fmt: skip
    assert status == 200 and isinstance(body["hypervisors"][0]["id"], int)
    status, _, body = call(sim, "GET", path.replace("c1", "c9"), token=admin)
    assert (status, body) == (
        404,
        {
            "itemNotFound": {
                "code": 404,
                "message": "No hypervisor matching 'c9' could be found.",
            }
        },
    )
    status, _, body = call(sim, "GET", path, token=member)
    assert status == 403
    assert body["forbidden"]["message"] == (
        "Policy doesn't allow os_compute_api:os-hypervisors:list to be "
        "performed."
    )


def test_placement_inventories(sim, admin, member):
    path = "/placement/resource_providers?name=c3"
    status, headers, body = call(sim, "GET", path, token=admin)
    [rp] = body["resource_providers"]
    assert headers["openstack-api-version"] == "placement 1.0"
    _, _, body = call(
        sim, "GET", f"/placement/resource_providers/{rp['uuid']}/inventories",
        token=admin,
    )  # fmt: skip
    vcpu = body["inventories"]["VCPU"]
    assert (vcpu["total"], vcpu["reserved"], vcpu["allocation_ratio"]) == (
        4,
        0,
        1.0,
    )
    status, _, body = call(
        sim, "GET", "/placement/resource_providers/x/inventories", token=admin
    )
    assert status == 404
    assert (
        "No resource provider with uuid x found"
        in (body["errors"][0]["detail"])
    )
    assert call(sim, "GET", path, token=member)[0] == 403


def aggregate(sim, admin, name, zone=None):
    status, _, body = call(
        sim, "POST", f"{NOVA}/os-aggregates", token=admin,
        body={"aggregate": {"name": name, "availability_zone": zone}},
    )  # fmt: skip
    assert status == 200, body
    assert "hosts" not in body["aggregate"]
    return body["aggregate"]["id"]


def action(sim, admin, agg_id, name, value):
    return call(
        sim, "POST", f"{NOVA}/os-aggregates/{agg_id}/action", token=admin,
        body={name: value},
    )  # fmt: skip


def test_aggregate_rules(sim, admin):
    agg = aggregate(sim, admin, "pool")
    status, _, body = call(
        sim, "POST", f"{NOVA}/os-aggregates", token=admin,
        body={"aggregate": {"name": "pool"}},
    )  # fmt: skip
    assert (status, body["conflictingRequest"]["message"]) == (
        409,
        "Aggregate pool already exists.",
    )
    assert action(sim, admin, agg, "add_host", {"host": "c1"})[0] == 200
    status, _, body = action(sim, admin, agg, "add_host", {"host": "c1"})
    assert (status, body["conflictingRequest"]["message"]) == (
        409,
        f"Aggregate {agg} already has host c1.",
    )
    status, _, body = action(sim, admin, agg, "add_host", {"host": "c9"})
    assert (status, body["itemNotFound"]["message"]) == (
        404,
        "Compute host c9 could not be found.",
    )
    zone_b = aggregate(sim, admin, "other-zone", "zb")
    status, _, body = action(sim, admin, zone_b, "add_host", {"host": "c1"})
    assert status == 409
    assert (
        "One or more hosts already in availability zone(s) ['za']"
        in (body["conflictingRequest"]["message"])
    )
    meta = {"metadata": {"a": "1", "b": "2"}}
    action(sim, admin, agg, "set_metadata", meta)
    _, _, body = action(
        sim, admin, agg, "set_metadata", {"metadata": {"a": None}}
    )
    assert body["aggregate"]["metadata"] == {"b": "2"}
    status, _, body = call(
        sim, "DELETE", f"{NOVA}/os-aggregates/{agg}", token=admin
    )
    assert (status, body["badRequest"]["message"]) == (
        400,
        f"Cannot remove host from aggregate {agg}. Reason: Host aggregate "
        "is not empty.",
    )
    assert action(sim, admin, agg, "remove_host", {"host": "c1"})[0] == 200
    assert action(sim, admin, agg, "remove_host", {"host": "c1"})[0] == 404
    status, _, body = call(
        sim, "DELETE", f"{NOVA}/os-aggregates/{agg}", token=admin
    )
    assert (status, body) == (200, None)


def test_private_flavor_access(sim, admin, member):
    flavor = {"name": "private", "ram": 512, "vcpus": 1, "disk": 1}
    flavor["id"] = "p1"
    flavor["os-flavor-access:is_public"] = False
    status, _, _ = call(
        sim, "POST", f"{NOVA}/flavors", token=admin, body={"flavor": flavor}
    )
    assert status == 200
    assert call(sim, "GET", f"{NOVA}/flavors/p1", token=member)[0] == 404
    grant = {"addTenantAccess": {"tenant": "default"}}
    path = f"{NOVA}/flavors/p1/action"
    status, _, body = call(sim, "POST", path, token=admin, body=grant)
    assert body == {
        "flavor_access": [{"flavor_id": "p1", "tenant_id": "default"}]
    }
    assert call(sim, "POST", path, token=admin, body=grant)[0] == 409
    assert call(sim, "GET", f"{NOVA}/flavors/p1", token=member)[0] == 200
    status, _, body = call(
        sim, "POST", f"{NOVA}/flavors/1/action", token=admin, body=grant
    )
    assert (status, body["conflictingRequest"]["message"]) == (
        409,
        "Can not add access to a public flavor.",
    )
    specs = {"extra_specs": {"aggregate_instance_extra_specs:k": "v"}}
    call(
        sim, "POST", f"{NOVA}/flavors/p1/os-extra_specs", token=admin,
        body=specs,
    )  # fmt: skip
    _, _, body = call(sim, "GET", f"{NOVA}/flavors/p1", token=admin)
    assert body["flavor"]["extra_specs"] == specs["extra_specs"]


def boot(sim, token, name, flavor="1", group=None, zone=None):
    body = {
        "server": {
            "name": name,
            "flavorRef": flavor,
            "imageRef": "img",
            "networks": "none",
        }
    }
    if zone:
        body["server"]["availability_zone"] = zone
    if group:
        body["os:scheduler_hints"] = {"group": group}
    status, _, out = call(
        sim, "POST", f"{NOVA}/servers", token=token, body=body
    )
    assert status == 202, out
    server_id = out["server"]["id"]
    admin = login(sim)[1]
    return call(sim, "GET", f"{NOVA}/servers/{server_id}", token=admin)[2][
        "server"
    ]


def test_servers_list_newest_first_in_pages(sim, member):
    ids = [boot(sim, member, f"s{i}")["id"] for i in range(5)]
    path = f"{NOVA}/servers/detail?limit=2"
    _, _, page = call(sim, "GET", path, token=member)
    assert [s["id"] for s in page["servers"]] == ids[::-1][:2]
    nxt = page["servers_links"][0]["href"]
    assert nxt.startswith(f"{URL}{NOVA}/servers/detail?")
    _, _, page = call(sim, "GET", nxt[len(URL) :], token=member)
    assert [s["id"] for s in page["servers"]] == ids[::-1][2:4]
    status, _, body = call(
        sim, "GET", f"{NOVA}/servers/detail?all_tenants=True", token=member
    )
    assert (status, body["forbidden"]["message"]) == (
        403,
        "Policy doesn't allow os_compute_api:servers:detail:get_all_tenants "
        "to be performed.",
    )
    other = login(
        sim, "o", "opw", {"name": "other", "domain": {"id": "default"}}
    )
    assert call(sim, "GET", f"{NOVA}/servers", token=other[1])[2] == {
        "servers": []
    }


def test_scheduler_honours_aggregates_tenants_and_groups(sim, admin, member):
    pool = aggregate(sim, admin, "pool")
    for host in ("c1", "c2"):
        action(sim, admin, pool, "add_host", {"host": host})
    action(
        sim, admin, pool, "set_metadata",
        {"metadata": {"filter_tenant_id": "default", "reservation": "r1"}},
    )  # fmt: skip
    flavor = {"name": "r1", "ram": 4096, "vcpus": 2, "disk": 10, "id": "r1"}
    call(sim, "POST", f"{NOVA}/flavors", token=admin, body={"flavor": flavor})
    call(
        sim, "POST", f"{NOVA}/flavors/r1/os-extra_specs", token=admin,
        body={"extra_specs": {
            "aggregate_instance_extra_specs:reservation": "r1"}},
    )  # fmt: skip
    _, _, group = call(
        sim, "POST", f"{NOVA}/os-server-groups", token=member,
        body={"server_group": {"name": "g", "policy": "anti-affinity"}},
    )  # fmt: skip
    group = group["server_group"]
    assert group["project_id"] == "default"

    placed = [boot(sim, member, f"r{i}", "r1", group["id"]) for i in range(3)]
    hosts = [s["OS-EXT-SRV-ATTR:host"] for s in placed]
    assert sorted(hosts[:2]) == ["c1", "c2"]
    assert placed[2]["status"] == "ERROR"
    assert placed[2]["fault"]["message"] == (
        "No valid host was found. There are not enough hosts available."
    )
    # the other project is kept off the tenant-isolated hosts
    other = login(
        sim, "o", "opw", {"name": "other", "domain": {"id": "default"}}
    )
    stranger = boot(sim, other[1], "x", zone="za")
    assert stranger["status"] == "ERROR"
    assert boot(sim, other[1], "y")["OS-EXT-SRV-ATTR:host"] == "c3"
    # a deleted server frees its host for the group
    call(sim, "DELETE", f"{NOVA}/servers/{placed[0]['id']}", token=member)
    again = boot(sim, member, "r3", "r1", group["id"])
    assert again["OS-EXT-SRV-ATTR:host"] == hosts[0]
