"""What an NFVO does once it holds credentials: the sample package
onboarded into its project, then create, instantiate and terminate a VNF
on the fake VIM, every call with the caller's own authorization."""

from __future__ import annotations

import uuid

from tacker_ng import context as tcontext
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.functional import deployment, lcm_fixtures


def onboard(dep: deployment.Deployment, project_id: str) -> dict:
    """The sample package, onboarded into ``project_id`` (a vnfdId of its
    own: vnfdIds are unique across projects)."""
    with (
        fixtures.config(str(dep.state_path)),
        fixtures.database(dep.sql_url, migrate=False),
    ):
        return lcm_packages.onboard(
            tcontext.get_admin_context(),
            lcm_packages.build(str(uuid.uuid4())),
            project_id=project_id,
        )


def lifecycle(client: deployment.SolClient, vnfd_id: str) -> str:
    """Create, instantiate, terminate and delete one VNF; returns its id."""
    resp = client.post(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": vnfd_id, "vimConnectionInfo": lcm_fixtures.fake_vim()},
    )
    assert resp.status_code == 201, resp.text
    inst_id = resp.json()["id"]
    occ = client.run(inst_id, "instantiate", {"flavourId": "simple"})
    assert (occ["operation"], occ["operationState"]) == (
        "INSTANTIATE",
        "COMPLETED",
    )
    inst = client.get(f"/vnflcm/v2/vnf_instances/{inst_id}").json()
    assert inst["instantiationState"] == "INSTANTIATED"
    client.run(inst_id, "terminate", {"terminationType": "FORCEFUL"})
    resp = client.call("DELETE", f"/vnflcm/v2/vnf_instances/{inst_id}")
    assert resp.status_code == 204, resp.text
    return inst_id
