"""Every LCM operation walked in process against the fake VIM."""

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.tests import lcm_packages
from tacker_ng.tests.unit.lcm.conftest import V


def _vdus(lcm, inst_id) -> list[str]:
    info = lcm.instance(inst_id)["instantiatedVnfInfo"]
    return sorted(v["vduId"] for v in info["vnfcResourceInfo"])


def _progress(occ_id) -> dict:
    with db_api.reader() as session:
        return session.execute(
            sa.select(models.VnfLcmOpOcc.progress).where(
                models.VnfLcmOpOcc.id == occ_id
            )
        ).scalar_one()


def _instantiated(lcm, **body):
    inst = lcm.create()
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple", **body})
    return inst["id"]


def test_instantiate_runs_hooks_and_places_by_constraints(lcm):
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    hooks = _progress(occ["id"])["driver"]["hooks"]
    assert hooks == ["instantiate_start", "instantiate_end"]
    assert occ["resourceChanges"]["affectedVnfcs"][0]["changeType"] == "ADDED"
    info = lcm.instance(inst["id"])["instantiatedVnfInfo"]
    assert info["flavourId"] == "simple"
    zones = {}
    for v in info["vnfcResourceInfo"]:
        zones.setdefault(v["vduId"], []).append(v["zoneId"])
    # VDU2 anti-affinity at zone scope: distinct zones.
    assert len(set(zones["VDU2"])) == 2
    assert occ["grantId"]
    assert occ["_links"]["grant"]["href"].endswith(occ["grantId"])


def test_instantiation_level(lcm):
    inst_id = _instantiated(lcm, instantiationLevelId="instantiation_level_2")
    assert _vdus(lcm, inst_id) == ["VDU1"] * 3 + ["VDU2"] * 4


def test_scale_out_and_in(lcm):
    inst_id = _instantiated(lcm)
    lcm.run(inst_id, "scale", {"type": "SCALE_OUT", "aspectId": "VDU2_scale"})
    assert _vdus(lcm, inst_id) == ["VDU1", "VDU2", "VDU2", "VDU2"]
    occ = lcm.run(
        inst_id, "scale", {"type": "SCALE_IN", "aspectId": "VDU2_scale"}
    )
    assert _vdus(lcm, inst_id) == ["VDU1", "VDU2", "VDU2"]
    changes = occ["resourceChanges"]["affectedVnfcs"]
    assert [c["changeType"] for c in changes] == ["REMOVED"]


def test_scale_to_level_both_ways(lcm):
    inst_id = _instantiated(lcm)
    lcm.run(
        inst_id,
        "scale_to_level",
        {"instantiationLevelId": "instantiation_level_2"},
    )
    assert _vdus(lcm, inst_id) == ["VDU1"] * 3 + ["VDU2"] * 4
    lcm.run(
        inst_id,
        "scale_to_level",
        {"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 0}]},
    )
    assert _vdus(lcm, inst_id) == ["VDU1"] + ["VDU2"] * 4


def test_heal_one_vnfc_keeps_the_others(lcm):
    inst_id = _instantiated(lcm)
    before = lcm.instance(inst_id)["instantiatedVnfInfo"]["vnfcResourceInfo"]
    target = before[0]
    lcm.run(inst_id, "heal", {"vnfcInstanceId": [target["id"]]})
    after = {
        v["id"]: v
        for v in lcm.instance(inst_id)["instantiatedVnfInfo"][
            "vnfcResourceInfo"
        ]
    }
    assert (
        after[target["id"]]["computeResource"]["resourceId"]
        != (target["computeResource"]["resourceId"])
    )
    for other in before[1:]:
        assert (
            after[other["id"]]["computeResource"] == (other["computeResource"])
        )
    assert after[target["id"]]["zoneId"] == target["zoneId"]


def test_heal_whole_vnf(lcm):
    inst_id = _instantiated(lcm)
    occ = lcm.run(inst_id, "heal", {"cause": "test"})
    changes = occ["resourceChanges"]["affectedVnfcs"]
    assert {c["changeType"] for c in changes} == {"MODIFIED"}
    assert len(changes) == 3


def test_change_flavour(lcm):
    inst_id = _instantiated(lcm)
    lcm.run(inst_id, "change_flavour", {"newFlavourId": "internal_vl"})
    info = lcm.instance(inst_id)["instantiatedVnfInfo"]
    assert info["flavourId"] == "internal_vl"


def test_change_ext_conn(lcm):
    inst_id = _instantiated(lcm)
    link = {"id": "ext1", "resourceId": "net-1", "extCps": [{"cpdId": "x"}]}
    occ = lcm.run(inst_id, "change_ext_conn", {"extVirtualLinks": [link]})
    assert occ["changedExtConnectivity"][0]["id"] == "ext1"


def test_change_vnfpkg(lcm):
    from tacker_ng import context

    new_id = "0e5ba1a3-5b4c-4a4a-9b4c-3c2a1f0e9d8c"
    lcm_packages.onboard(
        context.get_admin_context(), lcm_packages.build(new_id)
    )
    inst_id = _instantiated(lcm)
    lcm.run(inst_id, "change_vnfpkg", {"vnfdId": new_id})
    assert lcm.instance(inst_id)["vnfdId"] == new_id


def test_modify_info_with_etag(lcm):
    inst = lcm.create(metadata={"keep": 1, "drop": 2})
    resp = lcm.app.get(f"/vnflcm/v2/vnf_instances/{inst['id']}", headers=V)
    etag = resp.headers["ETag"]
    patch = {
        "vnfInstanceName": "renamed",
        "metadata": {"drop": None, "new": 3},
    }
    resp = lcm.app.patch(
        f"/vnflcm/v2/vnf_instances/{inst['id']}",
        params=__import__("json").dumps(patch),
        headers={
            **V,
            "If-Match": etag,
            "Content-Type": "application/merge-patch+json",
        },
    )
    assert resp.status_int == 202
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    occ = lcm.wait(occ_id, ("COMPLETED",))
    assert occ["operation"] == "MODIFY_INFO"
    got = lcm.instance(inst["id"])
    assert got["vnfInstanceName"] == "renamed"
    assert got["metadata"] == {"keep": 1, "new": 3}
    stale = lcm.app.patch(
        f"/vnflcm/v2/vnf_instances/{inst['id']}",
        params='{"vnfInstanceName": "x"}',
        headers={
            **V,
            "If-Match": etag,
            "Content-Type": "application/merge-patch+json",
        },
        expect_errors=True,
    )
    assert stale.status_int == 412
    assert stale.content_type == "application/problem+json"


def test_terminate_then_delete_notifies_and_frees_package(lcm):
    inst_id = _instantiated(lcm)
    lcm.run(inst_id, "terminate", {"terminationType": "GRACEFUL"})
    with db_api.reader() as session:
        usage = session.execute(
            sa.select(models.VnfPackage.usage_state)
        ).scalar_one()
    assert usage == "IN_USE"
    lcm.app.delete(f"/vnflcm/v2/vnf_instances/{inst_id}", headers=V)
    with db_api.reader() as session:
        usage = session.execute(
            sa.select(models.VnfPackage.usage_state)
        ).scalar_one()
    assert usage == "NOT_IN_USE"


def test_list_filter_selectors_and_paging(lcm, conf):
    conf.set_override("max_page_size", 2, group="api")
    ids = [lcm.create(vnfInstanceName=f"vnf-{i}")["id"] for i in range(5)]
    lcm.run(ids[0], "instantiate", {"flavourId": "simple"})
    seen, url = [], "/vnflcm/v2/vnf_instances"
    while url:
        resp = lcm.app.get(url, headers=V)
        assert len(resp.json) <= 2
        seen += [i["id"] for i in resp.json]
        link = resp.headers.get("Link")
        url = link[link.index("/vnflcm") : link.index(">")] if link else None
    assert seen == ids
    resp = lcm.app.get(
        "/vnflcm/v2/vnf_instances",
        params={"filter": "(eq,instantiationState,INSTANTIATED)"},
        headers=V,
    )
    assert [i["id"] for i in resp.json] == [ids[0]]
    # Complex attributes are left out by default and come with all_fields.
    assert "instantiatedVnfInfo" not in resp.json[0]
    full = lcm.app.get(
        "/vnflcm/v2/vnf_instances",
        params={
            "filter": "(eq,instantiationState,INSTANTIATED)",
            "all_fields": "",
        },
        headers=V,
    ).json
    assert full[0]["instantiatedVnfInfo"]["flavourId"] == "simple"
    bad = lcm.app.get(
        "/vnflcm/v2/vnf_instances",
        params={"filter": "(eq,nope,1)"},
        headers=V,
        expect_errors=True,
    )
    assert bad.status_int == 400
    occs = lcm.app.get(
        "/vnflcm/v2/vnf_lcm_op_occs",
        params={"filter": "(eq,operation,INSTANTIATE)"},
        headers=V,
    ).json
    assert [o["vnfInstanceId"] for o in occs] == [ids[0]]


def test_default_vim_from_config(lcm, conf):
    from tacker_ng.tests.drivers import fake

    conf.set_override("default_vim_type", fake.VIM_TYPE, group="vim")
    conf.set_override("auth_url", "http://keystone.invalid/v3", group="vim")
    conf.set_override("password", "default-vim-secret", group="vim")
    # One zone only: VDU2's anti-affinity can be met only best-effort.
    conf.set_override("fallback_best_effort", True, group="placement")
    resp = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": lcm.package["vnfd_id"]},
        headers=V,
    )
    inst_id = resp.json["id"]
    assert "vimConnectionInfo" not in resp.json
    occ = lcm.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    info = lcm.instance(inst_id)["instantiatedVnfInfo"]
    # The fake VIM of [vim] reports one zone.
    assert {v["zoneId"] for v in info["vnfcResourceInfo"]} == {"zone-a"}


def test_no_vim_at_all_fails_the_operation_cleanly(lcm):
    resp = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": lcm.package["vnfd_id"]},
        headers=V,
    )
    resp = lcm.task(resp.json["id"], "instantiate", {"flavourId": "simple"})
    occ = lcm.wait(
        resp.headers["Location"].rsplit("/", 1)[1], ("FAILED_TEMP",)
    )
    assert occ["error"]["status"] == 422
    assert "[vim] auth_url" in occ["error"]["detail"]


def test_disabled_package_blocks_only_new_instantiations(lcm):
    inst_id = _instantiated(lcm)
    other = lcm.create()
    with db_api.writer() as session:
        session.execute(
            sa.update(models.VnfPackage).values(operational_state="DISABLED")
        )
    lcm.run(inst_id, "scale", {"type": "SCALE_OUT", "aspectId": "VDU2_scale"})
    lcm.run(inst_id, "terminate", {"terminationType": "FORCEFUL"})
    resp = lcm.task(
        other["id"], "instantiate", {"flavourId": "simple"}, status=422
    )
    assert "ENABLED" in resp.json["detail"]
    resp = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": lcm.package["vnfd_id"]},
        headers=V,
        expect_errors=True,
    )
    assert resp.status_int == 422


def test_op_occ_list_filter_with_two_terms(lcm):
    """Both terms apply when ';' is sent as is (it once dropped the
    second term: the INSTANTIATE op occ was listed too)."""
    inst_id = _instantiated(lcm)
    lcm.run(inst_id, "heal", {})
    occs = lcm.app.get(
        "/vnflcm/v2/vnf_lcm_op_occs?filter="
        f"(eq,vnfInstanceId,{inst_id});(eq,operation,HEAL)",
        headers=V,
    ).json
    assert [o["operation"] for o in occs] == ["HEAL"]
