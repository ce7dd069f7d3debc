"""An NFVO scales, heals, changes the package of and terminates a CNF
through the REST API (API + conductor processes, RabbitMQ, MariaDB or
PostgreSQL, the Kubernetes API simulator with 3 nodes in 3 zones).

One VNF per backend walks through the operations in order; vdu2 carries
required podAntiAffinity on kubernetes.io/zone, so a 4th vdu2 pod cannot
be placed and makes an operation fail (then rolled back).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tacker_ng.tests.functional import lcm_fixtures
from tacker_ng.tests.functional.infra.kubernetes import cnf

NEW_ID = "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b13"
BAD_ID = "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b23"


@pytest.fixture(scope="module")
def vnf(nfvo, simk8s):
    """The CNF at instantiation level 1 (1 vdu1 pod, 2 vdu2 pods)."""
    dep, client, vnfd_id = nfvo
    vnf = cnf.Cnf(client, vnfd_id, simk8s)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    return vnf


def counts(vnf) -> Counter:
    return Counter(v["vduId"] for v in vnf.vnfcs())


def ids(vnf, vdu=None) -> set[str]:
    return {v["id"] for v in vnf.vnfcs() if vdu in (None, v["vduId"])}


def changes(occ) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for item in occ["resourceChanges"].get("affectedVnfcs") or []:
        out.setdefault(item["changeType"], set()).add(item["id"])
    return out


def levels(vnf) -> dict[str, int]:
    status = vnf.instance()["instantiatedVnfInfo"]["scaleStatus"]
    return {s["aspectId"]: s["scaleLevel"] for s in status}


def test_scale_out_and_in(vnf):
    before = ids(vnf)
    occ = vnf.run("scale", {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})
    assert counts(vnf) == {"VDU1": 1, "VDU2": 3}
    (added,) = changes(occ)["ADDED"]
    assert ids(vnf) == before | {added} == set(vnf.pods())
    assert cnf.zones_of(vnf.vnfcs(), "VDU2") == ["host-a", "host-b", "host-c"]
    assert levels(vnf)["vdu2_aspect"] == 1

    occ = vnf.run("scale", {"type": "SCALE_IN", "aspectId": "vdu2_aspect"})
    assert counts(vnf) == {"VDU1": 1, "VDU2": 2}
    (removed,) = changes(occ)["REMOVED"]
    assert removed not in vnf.pods()
    assert ids(vnf) == set(vnf.pods())
    assert levels(vnf)["vdu2_aspect"] == 0


def test_scale_to_level(vnf):
    vnf.run(
        "scale_to_level", {"instantiationLevelId": "instantiation_level_2"}
    )
    assert counts(vnf) == {"VDU1": 1, "VDU2": 3}
    vnf.run(
        "scale_to_level",
        {"scaleInfo": [{"aspectId": "vdu2_aspect", "scaleLevel": 0}]},
    )
    assert counts(vnf) == {"VDU1": 1, "VDU2": 2}
    assert ids(vnf) == set(vnf.pods())


def test_scale_out_beyond_the_zones_fails_then_rolls_back(vnf):
    """2 steps -> 4 vdu2 pods on 3 zones: FAILED_TEMP with the scheduler's
    message; rollback restores 2 replicas and the same pods."""
    before = ids(vnf)
    occ = vnf.wait(
        vnf.start(
            "scale",
            {
                "type": "SCALE_OUT",
                "aspectId": "vdu2_aspect",
                "numberOfSteps": 2,
            },
        )
    )
    assert occ["operationState"] == "FAILED_TEMP"
    assert "didn't match pod anti-affinity rules" in occ["error"]["detail"]
    resp = vnf.client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}/rollback")
    assert resp.status_code == 202, resp.text
    occ = vnf.wait(occ["id"], ("ROLLED_BACK", "FAILED_TEMP"))
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert ids(vnf) == before
    apps = cnf.k8s.AppsV1Api(vnf.sim.api_client())
    assert (
        apps.read_namespaced_deployment("vdu2", vnf.namespace).spec.replicas
        == 2
    )
    assert set(vnf.pods()) == before


def test_heal_one_vnfc(vnf):
    """The pod is deleted and replaced; the other pods stay."""
    victim = sorted(ids(vnf, "VDU2"))[0]
    old_uid = vnf.pods()[victim].metadata.uid
    others = ids(vnf) - {victim}
    occ = vnf.run("heal", {"vnfcInstanceId": [victim]})
    got = changes(occ)
    assert got["REMOVED"] == {victim}
    (new,) = got["ADDED"]
    pods = vnf.pods()
    assert victim not in pods
    assert ids(vnf) == others | {new} == set(pods)
    assert old_uid not in {p.metadata.uid for p in pods.values()}
    assert cnf.zones_of(vnf.vnfcs(), "VDU2") != []


def test_heal_all_recreates_every_workload(vnf):
    apps = cnf.k8s.AppsV1Api(vnf.sim.api_client())
    uids = {
        d.metadata.name: d.metadata.uid
        for d in apps.list_namespaced_deployment(vnf.namespace).items
    }
    before = ids(vnf)
    occ = vnf.run("heal", {})
    after = ids(vnf)
    assert not before & after
    assert changes(occ) == {"ADDED": after, "REMOVED": before}
    assert counts(vnf) == {"VDU1": 1, "VDU2": 2}
    again = {
        d.metadata.name: d.metadata.uid
        for d in apps.list_namespaced_deployment(vnf.namespace).items
    }
    assert set(again) == set(uids) and not set(again.values()) & set(
        uids.values()
    )


def images(vnf) -> set[str]:
    return {
        c.image
        for p in vnf.pods().values()
        for c in p.spec.containers
        if p.metadata.labels.get("app") == "web"
    }


def test_change_vnfpkg_then_failed_change_rolls_back(nfvo, vnf, tmp_path):
    """nginx 1.27 -> 1.28 through a new package; then a package whose
    vdu1 asks for a node label no node has: FAILED_TEMP, and rollback
    returns to the 1.28 Deployment."""
    dep, client, _ = nfvo
    for descriptor, extra in (
        (NEW_ID, {"nginx:1.27": "nginx:1.28"}),
        (
            BAD_ID,
            {
                "nginx:1.27": "nginx:1.29",
                "    spec:\n      containers:\n        - name: web": (
                    "    spec:\n      nodeSelector:\n        disk: nvme\n"
                    "      containers:\n        - name: web"
                ),
            },
        ),
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, cnf.variant(tmp_path, descriptor, **extra), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
    assert images(vnf) == {"nginx:1.27"}
    vdu1, vdu2 = ids(vnf, "VDU1"), ids(vnf, "VDU2")
    body = {
        "vnfdId": NEW_ID,
        "additionalParams": {"lcm-kubernetes-def-files": cnf.REQUIRED},
    }
    occ = vnf.run("change_vnfpkg", body)
    assert images(vnf) == {"nginx:1.28"}
    assert vnf.instance()["vnfdId"] == NEW_ID
    assert ids(vnf, "VDU2") == vdu2  # unchanged manifest, same pods
    assert changes(occ) == {"REMOVED": vdu1, "ADDED": ids(vnf, "VDU1")}
    assert counts(vnf) == {"VDU1": 1, "VDU2": 2}

    occ = vnf.wait(vnf.start("change_vnfpkg", {**body, "vnfdId": BAD_ID}))
    assert occ["operationState"] == "FAILED_TEMP"
    assert (
        "node(s) didn't match Pod's node affinity/selector"
        in (occ["error"]["detail"])
    )
    resp = client.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ['id']}/rollback")
    assert resp.status_code == 202, resp.text
    occ = vnf.wait(occ["id"], ("ROLLED_BACK", "FAILED_TEMP"))
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert images(vnf) == {"nginx:1.28"}
    assert vnf.instance()["vnfdId"] == NEW_ID
    assert ids(vnf) == set(vnf.pods())


def test_terminate(vnf):
    before = ids(vnf)
    occ = vnf.run("terminate", {"terminationType": "FORCEFUL"})
    assert changes(occ) == {"REMOVED": before}
    assert not vnf.namespace_exists()
