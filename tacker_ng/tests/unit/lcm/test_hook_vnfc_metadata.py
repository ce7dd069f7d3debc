"""What a MgmtDriver hook says about a VNFC reaches the op occ: the
conductor keeps a hook's ``vnfc_metadata`` with the op occ's progress
and merges it into that VNFC's ``resourceChanges.affectedVnfcs``
metadata when the operation completes (also after a retry: the start
hook is not run again, its note is kept)."""

from tacker_ng.tests.unit.lcm.conftest import V

NOTE = {"nodeDrain": {"node": "vdu1-0", "result": "FORCED"}}


def test_start_hook_note_survives_a_retry_into_resource_changes(lcm):
    inst = lcm.create()
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    vnfcs = lcm.instance(inst["id"])["instantiatedVnfInfo"]["vnfcResourceInfo"]
    healed = vnfcs[0]["id"]
    resp = lcm.task(
        inst["id"],
        "heal",
        {
            "vnfcInstanceId": [healed],
            "additionalParams": {
                "fake": {
                    "vnfc_note": {"heal_start": NOTE},
                    "fail_at": "HEAL",
                    "fail_times": 1,
                }
            },
        },
    )
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    occ = lcm.wait(occ_id, ("FAILED_TEMP",))
    assert "resourceChanges" not in occ
    lcm.app.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry", headers=V)
    occ = lcm.wait(occ_id, ("COMPLETED",))
    affected = {v["id"]: v for v in occ["resourceChanges"]["affectedVnfcs"]}
    assert affected[healed]["changeType"] == "MODIFIED"
    assert affected[healed]["metadata"] == NOTE


def test_no_note_no_metadata(lcm):
    inst = lcm.create()
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    healed = lcm.instance(inst["id"])["instantiatedVnfInfo"][
        "vnfcResourceInfo"
    ][0]["id"]
    occ = lcm.run(inst["id"], "heal", {"vnfcInstanceId": [healed]})
    (item,) = occ["resourceChanges"]["affectedVnfcs"]
    assert "metadata" not in item
