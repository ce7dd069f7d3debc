"""Create -> instantiate -> terminate -> delete, in process."""


def test_walk(lcm):
    inst = lcm.create()
    assert inst["instantiationState"] == "NOT_INSTANTIATED"
    assert "password" not in str(inst)
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    assert occ["operation"] == "INSTANTIATE"
    got = lcm.instance(inst["id"])
    assert got["instantiationState"] == "INSTANTIATED"
    vnfcs = got["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert sorted(v["vduId"] for v in vnfcs) == ["VDU1", "VDU2", "VDU2"]
    occ = lcm.run(inst["id"], "terminate", {"terminationType": "FORCEFUL"})
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )
    resp = lcm.app.delete(
        f"/vnflcm/v2/vnf_instances/{inst['id']}", headers={"Version": "2.0.0"}
    )
    assert resp.status_int == 204
