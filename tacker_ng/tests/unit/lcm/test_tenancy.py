"""Two projects: nothing of one is visible or usable through the other.

Every route that takes another resource's id (vnfdId, vnfInstanceId, op
occ, subscription, package, vnfd, lease, reservation) answers project B
exactly as it answers an unknown id: B cannot tell that A's resources
exist, let alone read or change them.
"""

import json
import time
import uuid

import pytest
import webtest

from tacker_ng import context as tcontext
from tacker_ng import crypto
from tacker_ng.api import app as api_app
from tacker_ng.conductor import service as conductor_service
from tacker_ng.tests import lcm_packages
from tacker_ng.tests.functional import receiver
from tacker_ng.tests.unit.lcm.conftest import FAKE_VIM, V

INSTANCES = "/vnflcm/v2/vnf_instances"
OCCS = "/vnflcm/v2/vnf_lcm_op_occs"
SUBS = "/vnflcm/v2/subscriptions"
PKGS = "/vnfpkgm/v1/vnf_packages"
LCM_TASKS = {
    "instantiate": {"flavourId": "simple"},
    "scale": {"type": "SCALE_OUT", "aspectId": "VDU2_scale"},
    "scale_to_level": {"instantiationLevelId": "instantiation_level_1"},
    "heal": {},
    "terminate": {"terminationType": "FORCEFUL"},
    "change_flavour": {"newFlavourId": "simple"},
    "change_ext_conn": {"extVirtualLinks": []},
    "change_vnfpkg": {"vnfdId": str(uuid.uuid4())},
}


class Project:
    def __init__(self, name: str, app: webtest.TestApp) -> None:
        self.name = name
        self.app = app

    def call(self, method: str, path: str, body=None, status=None):
        headers = {} if path.startswith("/vnfpkgm") else V
        if path.startswith("/grant"):
            headers = {"Version": "1.4.0"}
        kwargs = {"headers": headers, "expect_errors": True}
        if body is not None:
            resp = getattr(self.app, f"{method}_json")(path, body, **kwargs)
        else:
            resp = getattr(self.app, method)(path, **kwargs)
        if status is not None:
            assert resp.status_int == status, (method, path, resp.text)
        return resp


@pytest.fixture
def projects(conf, db, test_drivers):
    conf.set_override("test_callback_uri", False, group="notification")
    conf.set_override("poll_interval", 0.05, group="notification")
    conf.set_override("noauth_roles", ["member", "reader"], group="api")
    crypto.forget_keys()
    conductor = conductor_service.ConductorService(conf)
    conductor.start()
    made = {}
    for name in ("proj-a", "proj-b"):
        conf.set_override("http_basic_project_id", name, group="api")
        made[name] = Project(
            name, webtest.TestApp(api_app.build_wsgi_app(conf))
        )
    yield made["proj-a"], made["proj-b"]
    conductor.stop(graceful=False)
    crypto.forget_keys()


def _wait(project: Project, occ_id: str, states) -> dict:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        occ = project.call("get", f"{OCCS}/{occ_id}", status=200).json
        if occ["operationState"] in states:
            return occ
        time.sleep(0.05)
    raise AssertionError(f"op occ {occ_id} stuck: {occ}")


def _same_as_unknown(project: Project, method, path_of, body=None):
    """``method`` on A's id answers B like an unknown id, body included
    (nothing of A's resource in it)."""
    theirs = project.call(method, path_of("THEIRS"), body)
    unknown = project.call(method, path_of(str(uuid.uuid4())), body)
    assert theirs.status_int == unknown.status_int, (method, theirs.text)
    assert theirs.status_int in (404, 422), (method, theirs.text)
    return theirs


def test_b_can_neither_see_nor_use_what_a_owns(projects, tmp_path):
    a, b = projects
    package = lcm_packages.onboard(
        tcontext.get_admin_context(),
        lcm_packages.build(),
        project_id=a.name,
    )
    vnfd_id = package["vnfd_id"]
    # A: an instance, instantiated; a subscription.
    inst = a.call(
        "post",
        INSTANCES,
        {"vnfdId": vnfd_id, "vimConnectionInfo": FAKE_VIM},
        status=201,
    ).json
    resp = a.call(
        "post",
        f"{INSTANCES}/{inst['id']}/instantiate",
        LCM_TASKS["instantiate"],
        status=202,
    )
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    _wait(a, occ_id, ("COMPLETED",))
    sub = a.call(
        "post", SUBS, {"callbackUri": "http://nfvo.example/cb"}, status=201
    ).json

    # vnfdId: B cannot build from A's package; the answer is the one for
    # an unknown vnfdId, and it names none of the package's attributes.
    theirs = b.call("post", INSTANCES, {"vnfdId": vnfd_id}, status=422).json
    unknown = b.call(
        "post", INSTANCES, {"vnfdId": str(uuid.uuid4())}, status=422
    ).json
    assert theirs["title"] == unknown["title"]
    assert theirs["detail"] == unknown["detail"].replace(
        unknown["detail"].split("'")[1], vnfd_id
    )
    for leaked in ("vnf_provider", "vnf_product_name"):
        assert package[leaked] not in json.dumps(theirs)
    pkg_row = a.call("get", f"{PKGS}/{package['id']}")
    assert pkg_row.status_int == 200
    assert pkg_row.json["usageState"] == "IN_USE"  # A's instance, not B

    # vnfInstanceId: every route.
    def inst_path(x):
        return f"{INSTANCES}/{inst['id'] if x == 'THEIRS' else x}"

    for method in ("get", "delete"):
        _same_as_unknown(b, method, inst_path)
    _same_as_unknown(b, "patch", inst_path, {"vnfInstanceName": "b was here"})
    for task, body in LCM_TASKS.items():
        _same_as_unknown(
            b, "post", lambda x, task=task: f"{inst_path(x)}/{task}", body
        )
    assert b.call("get", INSTANCES, status=200).json == []

    # change_vnfpkg of B's own instance to A's vnfdId: not onboarded.
    own_pkg = lcm_packages.onboard(
        tcontext.get_admin_context(),
        lcm_packages.build(vnfd_id=str(uuid.uuid4())),
        project_id=b.name,
    )
    mine = b.call(
        "post",
        INSTANCES,
        {"vnfdId": own_pkg["vnfd_id"], "vimConnectionInfo": FAKE_VIM},
        status=201,
    ).json
    resp = b.call(
        "post",
        f"{INSTANCES}/{mine['id']}/instantiate",
        LCM_TASKS["instantiate"],
        status=202,
    )
    _wait(b, resp.headers["Location"].rsplit("/", 1)[1], ("COMPLETED",))
    b.call(
        "post",
        f"{INSTANCES}/{mine['id']}/change_vnfpkg",
        {"vnfdId": vnfd_id},
        status=422,
    )

    # Op occs: show and every task.
    def occ_path(x):
        return f"{OCCS}/{occ_id if x == 'THEIRS' else x}"

    _same_as_unknown(b, "get", occ_path)
    # The local NFVO's grant of A's op occ.
    grant_id = a.call("get", occ_path("THEIRS"), status=200).json["grantId"]
    a.call("get", f"/grant/v1/grants/{grant_id}", status=200)
    _same_as_unknown(
        b,
        "get",
        lambda x: f"/grant/v1/grants/{grant_id if x == 'THEIRS' else x}",
    )
    for task in ("retry", "rollback", "fail", "cancel"):
        _same_as_unknown(
            b, "post", lambda x, task=task: f"{occ_path(x)}/{task}", {}
        )
    assert all(
        o["vnfInstanceId"] == mine["id"]
        for o in b.call("get", OCCS, status=200).json
    )

    # Subscriptions.
    def sub_path(x):
        return f"{SUBS}/{sub['id'] if x == 'THEIRS' else x}"

    for method in ("get", "delete"):
        _same_as_unknown(b, method, sub_path)
    assert b.call("get", SUBS, status=200).json == []

    # Packages: the package, its content, VNFD and artifacts.
    def pkg_path(suffix=""):
        def path(x):
            pid = package["id"] if x == "THEIRS" else x
            return f"{PKGS}/{pid}{suffix}"

        return path

    for method in ("get", "delete"):
        _same_as_unknown(b, method, pkg_path())
    _same_as_unknown(b, "patch", pkg_path(), {"operationalState": "DISABLED"})
    for suffix in ("/package_content", "/vnfd", "/artifacts/Scripts/x.py"):
        _same_as_unknown(b, "get", pkg_path(suffix))
    assert [p["id"] for p in b.call("get", PKGS, status=200).json] == [
        own_pkg["id"]
    ]
    b.call(
        "get",
        f"/vnfpkgm/v1/onboarded_vnf_packages/{vnfd_id}",
        status=404,
    )
    # A's things are untouched by all of that.
    got = a.call("get", inst_path("THEIRS"), status=200).json
    assert got.get("vnfInstanceName") != "b was here"
    assert got["instantiationState"] == "INSTANTIATED"
    a.call("get", sub_path("THEIRS"), status=200)


def test_b_subscription_filtered_on_a_instance_gets_nothing(projects, conf):
    """A filter naming another project's instance does not subscribe to
    it: notifications stay within the instance's project."""
    a, b = projects
    package = lcm_packages.onboard(
        tcontext.get_admin_context(),
        lcm_packages.build(),
        project_id=a.name,
    )
    with receiver.Receiver() as nfvo_a, receiver.Receiver() as nfvo_b:
        a.call("post", SUBS, {"callbackUri": nfvo_a.url}, status=201)
        inst = a.call(
            "post",
            INSTANCES,
            {"vnfdId": package["vnfd_id"], "vimConnectionInfo": FAKE_VIM},
            status=201,
        ).json
        b.call(
            "post",
            SUBS,
            {
                "callbackUri": nfvo_b.url,
                "filter": {
                    "vnfInstanceSubscriptionFilter": {
                        "vnfInstanceIds": [inst["id"]]
                    }
                },
            },
            status=201,
        )
        resp = a.call(
            "post",
            f"{INSTANCES}/{inst['id']}/instantiate",
            LCM_TASKS["instantiate"],
            status=202,
        )
        occ_id = resp.headers["Location"].rsplit("/", 1)[1]
        _wait(a, occ_id, ("COMPLETED",))
        deadline = time.monotonic() + 10
        while len(nfvo_a.states(occ_id)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert nfvo_a.states(occ_id) == ["STARTING", "PROCESSING", "COMPLETED"]
        assert nfvo_b.notifications == []
