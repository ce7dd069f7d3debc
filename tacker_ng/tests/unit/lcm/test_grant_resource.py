"""The op occ's ``_links.grant`` resolves: ``GET /grant/v1/grants/{id}``
serves the local NFVO's grant (SOL003 Grant), read-only."""

import json
from pathlib import Path

import jsonschema

from tacker_ng.tests.unit.lcm.conftest import V

GRANT_V = {"Version": "1.4.0"}
GRANT_DOC = (
    Path(__file__).resolve().parents[2]
    / "functional"
    / "sol003"
    / "SOL003-VNFLifecycleOperationGranting-API.json"
)


def _grant_schema() -> dict:
    doc = json.loads(GRANT_DOC.read_text())
    response = doc["components"]["responses"]["IndividualGrant.Get.200"]
    return response["content"]["application/json"]["schema"]


def _path(href: str) -> str:
    return "/" + href.split("/", 3)[3]


def test_op_occ_grant_link_serves_the_stored_grant(lcm):
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    href = occ["_links"]["grant"]["href"]
    assert href.startswith("http")
    assert href.endswith(f"/grant/v1/grants/{occ['grantId']}")
    grant = lcm.app.get(_path(href), headers=GRANT_V).json
    jsonschema.Draft4Validator(_grant_schema()).validate(grant)
    assert grant["id"] == occ["grantId"]
    assert grant["vnfLcmOpOccId"] == occ["id"]
    assert grant["vnfInstanceId"] == inst["id"]
    assert grant["_links"]["self"]["href"] == href
    assert (
        grant["_links"]["vnfLcmOpOcc"]["href"] == occ["_links"]["self"]["href"]
    )
    assert grant["_links"]["vnfInstance"]["href"].startswith("http")
    # The zones the local NFVO granted for the new VNFCs.
    zones = {z["id"]: z["zoneId"] for z in grant["zones"]}
    vnfcs = lcm.instance(inst["id"])["instantiatedVnfInfo"]["vnfcResourceInfo"]
    granted = {
        r["resourceDefinitionId"]: zones[r["zoneId"]]
        for r in grant["addResources"]
        if r.get("zoneId")
    }
    assert {v["id"]: v["zoneId"] for v in vnfcs} == granted
    # The op occ list shows the same link.
    listed = lcm.app.get("/vnflcm/v2/vnf_lcm_op_occs", headers=V).json
    assert [o["_links"]["grant"]["href"] for o in listed] == [href]


def test_grant_errors_are_problem_details(lcm, conf):
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    path = _path(occ["_links"]["grant"]["href"])
    missing = lcm.app.get(
        "/grant/v1/grants/nope", headers=GRANT_V, expect_errors=True
    )
    assert missing.status_int == 404
    assert missing.content_type == "application/problem+json"
    assert missing.json["detail"] == "Grant nope does not exist."
    # SOL013: the Version header is required.
    assert lcm.app.get(path, expect_errors=True).status_int == 400
    # Read-only: the conductors grant internally.
    post = lcm.app.post_json(
        "/grant/v1/grants", {}, headers=GRANT_V, expect_errors=True
    )
    assert post.status_int == 405
    assert post.content_type == "application/problem+json"
    put = lcm.app.put_json(path, {}, headers=GRANT_V, expect_errors=True)
    assert put.status_int == 405
    assert put.headers["Allow"] == "GET"
    versions = lcm.app.get("/grant/v1/api_versions").json
    assert versions["apiVersions"] == [
        {"version": "1.4.0", "isDeprecated": False}
    ]
    # With a remote NFVO the grants are the NFVO's, none is served here.
    conf.set_override("mode", "remote", group="nfvo")
    remote = lcm.app.get(path, headers=GRANT_V, expect_errors=True)
    assert remote.status_int == 404
    assert "[nfvo] mode = remote" in remote.json["detail"]
