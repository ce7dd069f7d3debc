"""A cast the message bus cannot take: 503 and FAILED_TEMP, never stuck.

Start, retry and rollback each cast the op occ to a conductor after
committing its new state; when the cast fails the op occ goes back to
FAILED_TEMP with a 503 ProblemDetails (the NFVO retries once the bus is
back) instead of staying STARTING/PROCESSING/ROLLING_BACK with nobody
running it.
"""

from unittest import mock

import oslo_messaging as messaging
import pytest
from kombu import exceptions as kombu_exc

from tacker_ng.conductor import rpcapi
from tacker_ng.tests.unit.lcm.conftest import V


def _refuse(self, context, op_occ_id):
    raise messaging.MessageDeliveryFailure("bus down")


def _occ_of(lcm, inst_id: str) -> dict:
    resp = lcm.app.get(
        f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{inst_id})",
        headers=V,
    )
    (occ,) = resp.json
    return lcm.occ(occ["id"])


def _task(lcm, occ_id: str, task: str, status: int):
    resp = lcm.app.post_json(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/{task}",
        {},
        headers=V,
        expect_errors=status >= 400,
    )
    assert resp.status_int == status, resp.text
    return resp


def _unsent_instantiate(lcm, monkeypatch) -> dict:
    inst = lcm.create()
    monkeypatch.setattr(rpcapi.ConductorAPI, "run_lcm_op", _refuse)
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"}, 503)
    assert resp.json["status"] == 503
    assert "no conductor could be reached" in resp.json["detail"]
    occ = _occ_of(lcm, inst["id"])
    assert occ["operationState"] == "FAILED_TEMP"
    assert occ["error"]["status"] == 503
    return occ


def test_unsent_start_is_failed_temp_then_retry_completes(lcm, monkeypatch):
    occ = _unsent_instantiate(lcm, monkeypatch)
    # The bus is still down: the retry fails the same way, not stuck.
    resp = _task(lcm, occ["id"], "retry", 503)
    assert resp.json["status"] == 503
    assert lcm.occ(occ["id"])["operationState"] == "FAILED_TEMP"
    monkeypatch.undo()
    _task(lcm, occ["id"], "retry", 202)
    assert lcm.wait(occ["id"], ("COMPLETED",))["operationState"] == (
        "COMPLETED"
    )


def test_unsent_rollback_is_failed_temp(lcm, monkeypatch):
    occ = _unsent_instantiate(lcm, monkeypatch)
    monkeypatch.setattr(rpcapi.ConductorAPI, "rollback_lcm_op", _refuse)
    _task(lcm, occ["id"], "rollback", 503)
    assert lcm.occ(occ["id"])["operationState"] == "FAILED_TEMP"
    monkeypatch.undo()
    _task(lcm, occ["id"], "rollback", 202)
    assert lcm.wait(occ["id"], ("ROLLED_BACK",))["operationState"] == (
        "ROLLED_BACK"
    )


@pytest.mark.parametrize(
    "error",
    [
        kombu_exc.OperationalError("[Errno 104] Connection reset by peer"),
        ConnectionRefusedError(111, "Connection refused"),
    ],
)
def test_a_cast_that_cannot_connect_is_a_delivery_failure(conf, error):
    """The rabbit driver lets the error of a new connection through
    unwrapped; callers only handle MessagingException."""
    api = rpcapi.ConductorAPI.__new__(rpcapi.ConductorAPI)
    api._cast_retries = 2
    api._client = mock.Mock()
    api._client.prepare.return_value.cast.side_effect = error
    with pytest.raises(messaging.MessageDeliveryFailure):
        api.run_lcm_op({}, "occ-1")
    api._client.prepare.assert_called_once_with(version="1.1", retry=2)
