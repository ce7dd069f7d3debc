"""Rollback the driver cannot do is a 409 before any state change.

Each infra driver says which operations its rollback undoes
(``InfraDriver.rollback_operations``); for another one, the API answers
409 ProblemDetails at once and the op occ stays FAILED_TEMP, so that the
NFVO can still retry it or mark it failed (it used to go ROLLING_BACK and
fall back to FAILED_TEMP with "the driver does not support ...").
"""

from tacker_ng.infra import base, registry
from tacker_ng.infra.kubernetes.driver import KubernetesDriver
from tacker_ng.infra.openstack.driver import OpenStackDriver
from tacker_ng.objects import lcm as lcm_objects
from tacker_ng.tests.drivers import fake
from tacker_ng.tests.unit.lcm.conftest import V

Op = lcm_objects.Operation


def _occ_id(resp) -> str:
    return resp.headers["Location"].rsplit("/", 1)[1]


def test_drivers_say_which_rollbacks_they_do():
    k8s, openstack = KubernetesDriver(), OpenStackDriver()
    for op in (Op.INSTANTIATE, Op.SCALE, Op.HEAL, Op.CHANGE_VNFPKG):
        assert k8s.supports_rollback(op), op
    assert not k8s.supports_rollback(Op.TERMINATE)
    for op in (Op.INSTANTIATE, Op.HEAL, Op.CHANGE_FLAVOUR, Op.OPERATE):
        assert openstack.supports_rollback(op), op
    assert not openstack.supports_rollback(Op.TERMINATE)
    # Not a driver operation: nothing of the driver to undo.
    assert k8s.supports_rollback(Op.MODIFY_INFO)
    assert openstack.supports_rollback(Op.MODIFY_INFO)


def test_rollback_of_an_operation_the_driver_cannot_undo_is_409(
    lcm, monkeypatch
):
    inst = lcm.create()
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    resp = lcm.task(
        inst["id"],
        "terminate",
        {
            "terminationType": "FORCEFUL",
            "additionalParams": {"fake": {"fail_at": "TERMINATE"}},
        },
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    driver = registry.get_driver(fake.VIM_TYPE)
    monkeypatch.setattr(
        driver, "rollback_operations", frozenset({Op.INSTANTIATE})
    )
    resp = lcm.app.post_json(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/rollback",
        {},
        headers=V,
        expect_errors=True,
    )
    assert resp.status_int == 409, resp.text
    assert resp.content_type == "application/problem+json"
    assert resp.json["title"] == base.RollbackNotSupported.title
    assert "cannot roll back TERMINATE" in resp.json["detail"]
    occ = lcm.occ(occ_id)
    assert occ["operationState"] == "FAILED_TEMP"  # nothing changed
    # The NFVO's other choices are still open.
    resp = lcm.app.post_json(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/fail", {}, headers=V
    )
    assert resp.json["operationState"] == "FAILED"
    assert lcm.instance(inst["id"])["instantiationState"] == "INSTANTIATED"
