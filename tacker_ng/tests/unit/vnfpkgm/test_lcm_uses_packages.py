"""The LCM runs on packages onboarded through ``/vnfpkgm/v1``.

Upload the Heat sample (with the fake MgmtDriver hooks) through the API,
then create and instantiate a VNF with the fake infra driver; usageState
follows the instances and guards DELETE; a DISABLED package cannot be
used for new instances.
"""

from tacker_ng.tests import lcm_packages
from tacker_ng.tests.unit.lcm.conftest import Lcm
from tacker_ng.tests.unit.vnfpkgm.conftest import PREFIX, V

LCM_V = {"Version": "2.0.0"}


def test_create_instantiate_terminate_on_uploaded_package(pkgm, test_drivers):
    pkg = pkgm.onboard(lcm_packages.build())
    lcm = Lcm(pkgm.app, {"vnfd_id": pkg["vnfdId"]})
    inst = lcm.create()
    assert inst["vnfdId"] == pkg["vnfdId"]
    assert inst["vnfProductName"] == pkg["vnfProductName"]
    assert pkgm.get(pkg["id"])["usageState"] == "IN_USE"
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    assert occ["operationState"] == "COMPLETED"
    vnfcs = lcm.instance(inst["id"])["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert sorted(v["vduId"] for v in vnfcs) == ["VDU1", "VDU2", "VDU2"]
    # In use: cannot be deleted even once disabled.
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    resp = pkgm.delete(pkg["id"], status=409)
    assert "IN_USE" in resp.json["detail"]
    # Disabled: no new instances.
    resp = pkgm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": pkg["vnfdId"]},
        headers=LCM_V,
        status=422,
    )
    assert pkg["vnfdId"] in resp.json["detail"]
    # (The LCM's dry run needs an ENABLED package for every operation.)
    pkgm.patch(pkg["id"], {"operationalState": "ENABLED"})
    lcm.run(inst["id"], "terminate", {"terminationType": "FORCEFUL"})
    pkgm.app.delete(f"/vnflcm/v2/vnf_instances/{inst['id']}", headers=LCM_V)
    assert pkgm.get(pkg["id"])["usageState"] == "NOT_IN_USE"
    pkgm.patch(pkg["id"], {"operationalState": "DISABLED"})
    pkgm.delete(pkg["id"])
    assert pkgm.app.get(f"{PREFIX}/vnf_packages", headers=V).json == []


def test_package_not_onboarded_yet_is_not_usable(pkgm):
    pkg = pkgm.create()
    resp = pkgm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": lcm_packages.SAMPLE_VNFD_ID},
        headers=LCM_V,
        status=422,
    )
    assert resp.json["status"] == 422
    assert pkgm.get(pkg["id"])["usageState"] == "NOT_IN_USE"
