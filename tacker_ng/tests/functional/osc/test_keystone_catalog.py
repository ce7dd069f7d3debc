"""The three CLI plugins find tacker-ng in minicloud's Keystone catalog.

tacker-ng (Keystone auth, reservation service on minicloud's Nova) is
registered as ``nfv-orchestration`` and ``reservation``; with nothing but
the usual ``OS_*`` variables, python-blazarclient manages hosts and
leases, python-tackerclient packages and VNF instances, and tacker-ng's
own plugin lists conductors and shows a VNF's placement.
"""

import json
import time
import uuid

import pytest

from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import services
from tacker_ng.tests.functional.reservation import deployment as rsv

# Runs in one lane with the other modules of the "keystone-catalog"
# group (tacker_ng/tests/functional/lanes.py).
pytestmark = pytest.mark.minicloud

FUTURE = ("2091-01-01 10:00", "2091-01-02 10:00")


@pytest.fixture(scope="module")
def dep(minicloud, tmp_path_factory):
    services.require("rabbitmq")
    services.require("redis")
    with services.scratch_database("mariadb") as sql_url:
        gen = rsv.deploy(minicloud, tmp_path_factory.mktemp("kc"), sql_url)
        deployment = next(gen)
        identity = minicloud.sdk(admin=True).identity
        svc = identity.create_service(
            type="nfv-orchestration", name="tacker-ng-kc", enabled=True
        )
        identity.create_endpoint(
            service_id=svc.id,
            interface="public",
            url=deployment.url,
            region_id=minicloud.region_name,
        )
        try:
            yield deployment
        finally:
            for ep in identity.endpoints(service_id=svc.id):
                identity.delete_endpoint(ep)
            identity.delete_service(svc)
            gen.close()


def _json(done) -> object:
    out = done.stdout
    start = min(i for i in (out.find("{"), out.find("[")) if i >= 0)
    return json.loads(out[start:])


def test_blazarclient_hosts_and_leases_through_the_catalog(dep):
    host = dep.cloud.host("az4-cmp1")
    created = _json(
        dep.cli("reservation", "host", "create", host, "-f", "json",
                admin=True)
    )  # fmt: skip
    assert created["hypervisor_hostname"] == host
    hosts = _json(
        dep.cli("reservation", "host", "list", "-f", "json", admin=True)
    )
    assert host in {h["hypervisor_hostname"] for h in hosts}

    lease = _json(
        dep.cli(
            "reservation", "lease", "create",
            "--reservation", "resource_type=physical:host,min=1,max=1,"
            "hypervisor_properties=,resource_properties=",
            "--start-date", FUTURE[0], "--end-date", FUTURE[1],
            "kc-lease", "-f", "json",
        )
    )  # fmt: skip
    assert lease["name"] == "kc-lease"
    listed = _json(dep.cli("reservation", "lease", "list", "-f", "json"))
    assert [x["id"] for x in listed] == [lease["id"]]
    shown = _json(
        dep.cli("reservation", "lease", "show", lease["id"], "-f", "json")
    )
    assert shown["status"] == "PENDING"
    dep.cli("reservation", "lease", "delete", lease["id"])
    assert _json(dep.cli("reservation", "lease", "list", "-f", "json")) == []
    dep.cli("reservation", "host", "delete", created["id"], admin=True)


def test_tackerclient_and_plugin_through_the_catalog(dep, tmp_path):
    vnfd_id = str(uuid.uuid4())
    csar = tmp_path / "pkg.zip"
    csar.write_bytes(lcm_packages.build(vnfd_id))
    pkg = _json(dep.cli("vnf", "package", "create", "-f", "json"))
    dep.cli("vnf", "package", "upload", "--path", str(csar), pkg["ID"])
    for _ in range(100):
        shown = _json(
            dep.cli("vnf", "package", "show", pkg["ID"], "-f", "json")
        )
        if shown["Onboarding State"] != "PROCESSING":
            break
        time.sleep(0.5)
    assert shown["Onboarding State"] == "ONBOARDED", shown

    v2 = ("--os-tacker-api-version", "2")
    inst = _json(
        dep.cli(*v2, "vnflcm", "create", vnfd_id, "--name", "kc", "-f",
                "json")
    )  # fmt: skip
    assert inst["Instantiation State"] == "NOT_INSTANTIATED"
    listed = _json(dep.cli(*v2, "vnflcm", "list", "-f", "json"))
    assert inst["ID"] in {i["ID"] for i in listed}

    placement = dep.cli("vnflcm", "placement", "show", inst["ID"])
    assert "NOT_INSTANTIATED: no VNFC" in placement.stderr
    conductors = _json(
        dep.cli("tacker-ng", "conductor", "list", "-f", "json", admin=True)
    )
    assert {c["Hostname"] for c in conductors if c["Alive"]} == {
        "cond-a",
        "cond-b",
    }

    dep.cli(*v2, "vnflcm", "delete", inst["ID"])
    dep.cli("vnf", "package", "update", "--operational-state", "DISABLED",
            pkg["ID"])  # fmt: skip
    dep.cli("vnf", "package", "delete", pkg["ID"])
