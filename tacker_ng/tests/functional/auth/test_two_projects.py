"""Two NFVO tenants on one tacker-ng with the default http_basic roles:
each user is a member of its own project (``[api]
http_basic_user_projects``) and nothing of the other project can be
listed, read, changed or deleted. With the former default (every user
admin) project B listed and PATCHed project A's instance, read its op
occs and deleted its subscription.
"""

import bcrypt
import pytest

from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional.auth import nfvo
from tacker_ng.tests.functional.receiver import Receiver

MERGE_PATCH = {"Content-Type": "application/merge-patch+json"}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two-projects")
    extra = {"api": {"http_basic_user_projects": "alice:proj-a,bob:proj-b"}}
    with (
        Receiver("nfvo", "cb-pass") as receiver,
        services.scratch_database("postgresql") as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra, api_workers=1
        ) as dep,
    ):
        digest = bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)).decode()
        with open(tmp / "htpasswd", "a") as htpasswd:
            htpasswd.write(f"alice:{digest}\nbob:{digest}\n")
        packages = {p: nfvo.onboard(dep, p) for p in ("proj-a", "proj-b")}
        alice = deployment.SolClient(
            dep.url, deployment.basic_auth("alice", "pw")
        )
        bob = deployment.SolClient(dep.url, deployment.basic_auth("bob", "pw"))
        yield dep, packages, alice, bob, receiver


def test_projects_cannot_see_or_touch_each_other(env):
    dep, packages, alice, bob, receiver = env
    resp = alice.post(
        "/vnflcm/v2/vnf_instances",
        {
            "vnfdId": packages["proj-a"]["vnfd_id"],
            "vimConnectionInfo": lcm_fixtures.fake_vim(),
        },
    )
    assert resp.status_code == 201, resp.text
    inst = resp.json()["id"]
    occ = alice.start(inst, "instantiate", {"flavourId": "simple"})
    assert alice.wait(occ, ("COMPLETED",))["operationState"] == "COMPLETED"
    lcm_fixtures.subscribe(alice, receiver)
    sub = alice.get("/vnflcm/v2/subscriptions").json()[0]["id"]

    # Bob sees none of it, and cannot act on it by id.
    for path in (
        "/vnflcm/v2/vnf_instances",
        "/vnflcm/v2/vnf_lcm_op_occs",
        "/vnflcm/v2/subscriptions",
    ):
        resp = bob.get(path)
        assert (resp.status_code, resp.json()) == (200, []), path
    for method, path in (
        ("GET", f"/vnflcm/v2/vnf_instances/{inst}"),
        ("GET", f"/vnflcm/v2/vnf_lcm_op_occs/{occ}"),
        ("GET", f"/vnflcm/v2/subscriptions/{sub}"),
        ("DELETE", f"/vnflcm/v2/subscriptions/{sub}"),
        ("DELETE", f"/vnflcm/v2/vnf_instances/{inst}"),
    ):
        resp = bob.call(method, path)
        assert resp.status_code == 404, (method, path, resp.text)
    resp = bob.call(
        "PATCH",
        f"/vnflcm/v2/vnf_instances/{inst}",
        json={"vnfInstanceName": "stolen"},
        headers=MERGE_PATCH,
    )
    assert resp.status_code == 404
    resp = bob.post(
        f"/vnflcm/v2/vnf_instances/{inst}/terminate",
        {"terminationType": "FORCEFUL"},
    )
    assert resp.status_code == 404
    # Members, not admins: the fleet is out of reach for both.
    for client in (alice, bob):
        assert client.get("/v1/conductors", validate=False).status_code == 403

    # Alice's things are as she left them; Bob runs his own VNF.
    assert alice.get(f"/vnflcm/v2/subscriptions/{sub}").status_code == 200
    mine = alice.get(f"/vnflcm/v2/vnf_instances/{inst}").json()
    assert mine["instantiationState"] == "INSTANTIATED"
    assert mine.get("vnfInstanceName") != "stolen"
    nfvo.lifecycle(bob, packages["proj-b"]["vnfd_id"])
    assert [i["id"] for i in alice.get("/vnflcm/v2/vnf_instances").json()] == [
        inst
    ]


def test_operator_named_admin_sees_both_projects(env):
    dep, _, alice, _, _ = env
    ids = {i["id"] for i in alice.get("/vnflcm/v2/vnf_instances").json()}
    everyone = dep.client().get("/vnflcm/v2/vnf_instances").json()
    assert ids <= {i["id"] for i in everyone}
    assert (
        dep.client().get("/v1/conductors", validate=False).status_code == 200
    )
