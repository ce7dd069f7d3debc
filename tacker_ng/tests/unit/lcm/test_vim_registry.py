"""A VNF provides a VIM (hook -> conductor -> registry), a CNF uses it by
vimId: the conductor's flow in process (API, conductor, SQLite, fake VIM).

The fake MgmtDriver returns what the Kubernetes-cluster MgmtDriver
returns (tacker_ng.mgmt.kubernetes_cluster.driver): the VIM from
instantiate_end and heal_end, its withdrawal from a whole heal's
heal_start.
"""

import json

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import grants as grants_db
from tacker_ng.db import models_vims
from tacker_ng.tests.drivers import fake
from tacker_ng.tests.unit.lcm.conftest import V

# Sorts before the instance's own "vim1": VIM selection must still
# choose vim1 for VNF-A (it provides the cluster, it does not run on it).
CLUSTER_ID = "a-cluster-of-vnf-a"
SECRET = "cluster-bearer-secret"


def _cluster_vim(endpoint: str, secret: str = SECRET) -> dict:
    return {
        "vimId": CLUSTER_ID,
        "vimType": fake.VIM_TYPE,
        "interfaceInfo": {"endpoint": endpoint},
        "accessInfo": {"bearer_token": secret},
        "extra": {"zones": ["cluster-zone-1", "cluster-zone-2"]},
    }


def _fake(**params) -> dict:
    return {"additionalParams": {"fake": params}}


def _grant_vim_ids(occ_id: str) -> set[str]:
    with db_api.reader() as session:
        grant = grants_db.for_op_occ(session, occ_id)["grant"]
    return {z["vimConnectionId"] for z in grant.get("zones") or []}


def _row() -> dict | None:
    table = models_vims.RegisteredVim.__table__
    with db_api.reader() as session:
        row = session.execute(sa.select(table)).mappings().first()
    return dict(row) if row else None


def _vnf_a(lcm) -> str:
    inst = lcm.create()
    occ = lcm.run(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            **_fake(
                provide_vim={
                    "instantiate_end": _cluster_vim("https://10.0.0.5:6443")
                }
            ),
        },
    )
    assert _grant_vim_ids(occ["id"]) == {"vim1"}
    return inst["id"]


def _vnf_b(lcm, vim_id: str = CLUSTER_ID) -> tuple[str, dict]:
    """A CNF whose vimConnectionInfo names only the cluster's vimId."""
    inst = lcm.create(
        vimConnectionInfo={
            "cluster": {"vimId": vim_id, "vimType": fake.VIM_TYPE}
        }
    )
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    return inst["id"], lcm.wait(occ_id, ("COMPLETED", "FAILED_TEMP"))


def test_provided_vim_is_registered_shown_and_used_by_vim_id(lcm):
    a_id = _vnf_a(lcm)
    shown = lcm.instance(a_id)["vimConnectionInfo"]
    # The NFVO learns the vimId (and endpoint) from VNF-A, never secrets.
    assert shown[CLUSTER_ID]["vimId"] == CLUSTER_ID
    assert shown[CLUSTER_ID]["interfaceInfo"] == {
        "endpoint": "https://10.0.0.5:6443"
    }
    assert "accessInfo" not in shown[CLUSTER_ID]
    assert SECRET not in json.dumps(shown)
    # Sealed at rest.
    row = _row()
    assert row["vim_id"] == CLUSTER_ID
    assert row["provider_vnf_instance_id"] == a_id
    assert SECRET not in json.dumps(row["vim_connection_info"])

    # VNF-B (vimId + vimType only) runs on the registered VIM: its grant
    # names its own vimConnectionInfo entry and the cluster's zones.
    b_id, occ = _vnf_b(lcm)
    assert occ["operationState"] == "COMPLETED", occ.get("error")
    assert _grant_vim_ids(occ["id"]) == {"cluster"}
    zones = {
        v["zoneId"]
        for v in lcm.instance(b_id)["instantiatedVnfInfo"]["vnfcResourceInfo"]
    }
    assert zones <= {"cluster-zone-1", "cluster-zone-2"}
    # VNF-B keeps the reference only (credentials are never copied).
    assert lcm.instance(b_id)["vimConnectionInfo"] == {
        "cluster": {"vimId": CLUSTER_ID, "vimType": fake.VIM_TYPE}
    }

    # VNF-A's own operations still run on vim1 (an explicit choice: the
    # provided entry's key sorts first).
    occ = lcm.run(a_id, "heal", {})
    assert _grant_vim_ids(occ["id"]) == {"vim1"}


def test_whole_heal_withdraws_then_registers_the_new_cluster(lcm):
    a_id = _vnf_a(lcm)
    created = _row()["created_at"]
    new = _cluster_vim("https://10.0.0.9:6443", secret="rotated-secret")
    # heal_start withdraws (as terminate_end), heal_end registers again.
    resp = lcm.task(
        a_id,
        "heal",
        _fake(
            withdraw_vim={"heal_start": CLUSTER_ID},
            provide_vim={"heal_end": new},
            fail_at="HEAL",
            fail_times=1,
        ),
    )
    occ_id = resp.headers["Location"].rsplit("/", 1)[1]
    # Between the hooks (the driver failed) the VIM is not registered.
    lcm.wait(occ_id, ("FAILED_TEMP",))
    assert _row() is None
    assert CLUSTER_ID not in lcm.instance(a_id)["vimConnectionInfo"]
    _, occ = _vnf_b(lcm)
    assert occ["operationState"] == "FAILED_TEMP"
    # A retry finishes the heal: same vimId, new endpoint and secret.
    lcm.app.post(f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/retry", headers=V)
    lcm.wait(occ_id, ("COMPLETED",))
    row = _row()
    assert row["vim_id"] == CLUSTER_ID
    assert row["created_at"] >= created
    assert "rotated-secret" not in json.dumps(row["vim_connection_info"])
    shown = lcm.instance(a_id)["vimConnectionInfo"][CLUSTER_ID]
    assert shown["interfaceInfo"]["endpoint"] == "https://10.0.0.9:6443"
    _, occ = _vnf_b(lcm)
    assert occ["operationState"] == "COMPLETED", occ.get("error")


def test_unknown_vim_id_fails_temp_in_sol_words(lcm):
    _, occ = _vnf_b(lcm, vim_id="no-such-cluster")
    assert occ["operationState"] == "FAILED_TEMP"
    assert occ["error"]["status"] == 422
    assert "no-such-cluster" in occ["error"]["detail"]
    assert "vimConnectionInfo 'cluster'" in occ["error"]["detail"]


def test_terminate_removes_the_registration(lcm):
    a_id = _vnf_a(lcm)
    lcm.run(a_id, "terminate", {"terminationType": "FORCEFUL"})
    assert _row() is None
    shown = lcm.instance(a_id)["vimConnectionInfo"]
    assert CLUSTER_ID not in shown and "vim1" in shown
    _, occ = _vnf_b(lcm)
    assert occ["operationState"] == "FAILED_TEMP"
    assert CLUSTER_ID in occ["error"]["detail"]


def test_another_vnf_cannot_take_a_registered_vim_id(lcm):
    _vnf_a(lcm)
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            **_fake(
                provide_vim={"instantiate_end": _cluster_vim("https://x:1")}
            ),
        },
    )
    occ = lcm.wait(
        resp.headers["Location"].rsplit("/", 1)[1], ("FAILED_TEMP",)
    )
    assert occ["error"]["status"] == 409
    assert CLUSTER_ID in occ["error"]["detail"]
    kept = _row()["vim_connection_info"]["interfaceInfo"]
    assert kept == {"endpoint": "https://10.0.0.5:6443"}


def test_vim_id_of_another_vim_type_is_unknown(lcm):
    _vnf_a(lcm)
    inst = lcm.create(
        vimConnectionInfo={
            "cluster": {
                "vimId": CLUSTER_ID,
                "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
            }
        }
    )
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    occ = lcm.wait(
        resp.headers["Location"].rsplit("/", 1)[1], ("FAILED_TEMP",)
    )
    assert occ["error"]["status"] == 422
    assert "ETSINFV.OPENSTACK_KEYSTONE.V_3" in occ["error"]["detail"]


def test_provided_vim_type_does_not_limit_the_providers_operations(lcm):
    """VNF-A provides a Kubernetes VIM; the Kubernetes driver has no
    operate, VNF-A's own driver has: operate is accepted and runs."""
    inst = lcm.create()
    cluster = {
        **_cluster_vim("https://10.0.0.5:6443"),
        "vimType": "ETSINFV.KUBERNETES.V_1",
    }
    lcm.run(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            **_fake(provide_vim={"instantiate_end": cluster}),
        },
    )
    assert CLUSTER_ID in lcm.instance(inst["id"])["vimConnectionInfo"]
    occ = lcm.run(inst["id"], "operate", {"changeStateTo": "STOPPED"})
    assert _grant_vim_ids(occ["id"]) <= {"vim1"}
