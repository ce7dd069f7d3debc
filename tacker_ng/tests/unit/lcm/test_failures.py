"""FAILED_TEMP, retry, rollback, fail, cancel, and the 409/422 answers."""

import datetime
import time

import sqlalchemy as sa

from tacker_ng.db import api as db_api
from tacker_ng.db import models
from tacker_ng.db.types import utcnow
from tacker_ng.tests.unit.lcm.conftest import FAKE_VIM, V


def _fake(**params):
    return {"additionalParams": {"fake": params}}


def _occ_id(resp) -> str:
    return resp.headers["Location"].rsplit("/", 1)[1]


def _post(lcm, occ_id, task, body=None, status=202):
    resp = lcm.app.post_json(
        f"/vnflcm/v2/vnf_lcm_op_occs/{occ_id}/{task}",
        body or {},
        headers=V,
        expect_errors=status >= 400,
    )
    assert resp.status_int == status, resp.text
    return resp


def _progress(occ_id) -> dict:
    with db_api.reader() as session:
        return session.execute(
            sa.select(models.VnfLcmOpOcc.progress).where(
                models.VnfLcmOpOcc.id == occ_id
            )
        ).scalar_one()


def test_failure_then_retry_completes_without_redoing_steps(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE", fail_times=1)},
    )
    occ = lcm.wait(_occ_id(resp), ("FAILED_TEMP",))
    assert occ["error"]["status"] == 500
    assert occ["error"]["title"] == "VIM Error"
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )
    _post(lcm, occ["id"], "retry")
    occ = lcm.wait(occ["id"], ("COMPLETED",))
    assert "error" not in occ
    progress = _progress(occ["id"])
    # The start hook ran once: the retry continued after it.
    assert progress["driver"]["hooks"] == [
        "instantiate_start",
        "instantiate_end",
    ]
    assert progress["steps"].count("grant") == 1
    assert lcm.instance(inst["id"])["instantiationState"] == "INSTANTIATED"


def test_hook_failure_is_failed_temp_and_retry_skips_driver(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            **_fake(fail_at="instantiate_end", fail_times=1),
        },
    )
    occ = lcm.wait(_occ_id(resp), ("FAILED_TEMP",))
    assert "instantiate_end" in occ["error"]["detail"]
    _post(lcm, occ["id"], "retry")
    lcm.wait(occ["id"], ("COMPLETED",))
    assert "driver" in _progress(occ["id"])["steps"]


def test_internal_error_says_the_step_not_the_exception(lcm, caplog):
    """A bug of ours (a foreign exception) reaches the NFVO as the step
    that failed, in our words; its text only goes to the log."""
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {
            "flavourId": "simple",
            **_fake(fail_at="INSTANTIATE", fail_with="bug"),
        },
    )
    occ = lcm.wait(_occ_id(resp), ("FAILED_TEMP",))
    assert occ["error"]["status"] == 500
    assert "infra driver step failed" in occ["error"]["detail"]
    assert "internal-secret" not in str(occ["error"])
    assert "KeyError" not in str(occ["error"])
    assert "internal-secret-INSTANTIATE" in caplog.text


def test_rollback_of_instantiate(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE")},
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    _post(lcm, occ_id, "rollback")
    occ = lcm.wait(occ_id, ("ROLLED_BACK",))
    assert _progress(occ_id)["driver"]["rolled_back"] is True
    assert occ["operationState"] == "ROLLED_BACK"
    got = lcm.instance(inst["id"])
    assert got["instantiationState"] == "NOT_INSTANTIATED"
    # Released: a new instantiate may start.
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})


def test_rollback_of_an_instantiate_that_touched_no_vim(lcm):
    """No VIM at all: the op fails before the infra driver, so rolling it
    back has nothing to undo and ends ROLLED_BACK (it used to fail again
    with the same error, leaving only ``fail``)."""
    inst = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": lcm.package["vnfd_id"]},
        headers=V,
    ).json
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    occ_id = _occ_id(resp)
    failed = lcm.wait(occ_id, ("FAILED_TEMP",))
    assert "no vimConnectionInfo" in failed["error"]["detail"]
    _post(lcm, occ_id, "rollback")
    occ = lcm.wait(occ_id, ("ROLLED_BACK", "FAILED_TEMP"))
    assert occ["operationState"] == "ROLLED_BACK", occ.get("error")
    assert not _progress(occ_id).get("driver")
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )


def test_accepted_responses_have_no_html_content_type(lcm):
    inst = lcm.create()
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    assert resp.body == b""
    assert "html" not in resp.headers.get("Content-Type", "")


def test_rollback_failure_returns_to_failed_temp(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE")},
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    # Make the rollback fail too: same fake params, different step.
    with db_api.writer() as session:
        session.execute(
            sa.update(models.VnfLcmOpOcc)
            .where(models.VnfLcmOpOcc.id == occ_id)
            .values(
                operation_params={
                    "flavourId": "simple",
                    **_fake(fail_at="rollback"),
                }
            )
        )
    _post(lcm, occ_id, "rollback")
    occ = lcm.wait(occ_id, ("FAILED_TEMP",))
    assert "rollback" in occ["error"]["detail"]


def test_fail_marks_failed_and_releases_instance(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE")},
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    resp = _post(lcm, occ_id, "fail", status=200)
    assert resp.json["operationState"] == "FAILED"
    assert "retry" not in resp.json["_links"]
    _post(lcm, occ_id, "retry", status=409)
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})


def test_failed_temp_blocks_other_operations(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE")},
    )
    lcm.wait(_occ_id(resp), ("FAILED_TEMP",))
    conflict = lcm.task(
        inst["id"], "instantiate", {"flavourId": "simple"}, status=409
    )
    assert conflict.content_type == "application/problem+json"
    assert "in progress" in conflict.json["detail"]


def test_tasks_on_occ_in_wrong_state_are_409(lcm):
    inst = lcm.create()
    occ = lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    for task in ("retry", "rollback", "fail"):
        resp = _post(lcm, occ["id"], task, status=409)
        assert "COMPLETED" in resp.json["detail"]
    _post(lcm, occ["id"], "cancel", {"cancelMode": "GRACEFUL"}, status=409)


def test_instantiate_twice_is_409_and_ops_on_not_instantiated_are_409(lcm):
    inst = lcm.create()
    lcm.task(
        inst["id"],
        "scale",
        {"type": "SCALE_OUT", "aspectId": "VDU1_scale"},
        status=409,
    )
    lcm.task(
        inst["id"], "terminate", {"terminationType": "FORCEFUL"}, status=409
    )
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    resp = lcm.task(
        inst["id"], "instantiate", {"flavourId": "simple"}, status=409
    )
    assert "NOT_INSTANTIATED" in resp.json["detail"]
    resp = lcm.app.delete(
        f"/vnflcm/v2/vnf_instances/{inst['id']}", headers=V, expect_errors=True
    )
    assert resp.status_int == 409


def test_cancel_in_starting_rolls_back(lcm, conf):
    # No conductor answers this one: stop consuming by pointing the API
    # at a topic nobody serves.
    conf.set_override("topic", "nobody-listens", group="conductor")
    from tacker_ng.conductor import rpcapi

    rpcapi.reset()
    inst = lcm.create()
    resp = lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    occ_id = _occ_id(resp)
    assert lcm.occ(occ_id)["operationState"] == "STARTING"
    _post(lcm, occ_id, "cancel", {"cancelMode": "GRACEFUL"})
    occ = lcm.occ(occ_id)
    assert occ["operationState"] == "ROLLED_BACK"
    assert occ["cancelMode"] == "GRACEFUL"
    assert lcm.instance(inst["id"])["instantiationState"] == (
        "NOT_INSTANTIATED"
    )
    rpcapi.reset()


def test_forceful_cancel_while_processing(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"], "instantiate", {"flavourId": "simple", **_fake(sleep=30)}
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("PROCESSING",))
    _post(lcm, occ_id, "cancel", {"cancelMode": "FORCEFUL"})
    occ = lcm.wait(occ_id, ("FAILED_TEMP",), timeout=10)
    assert occ["error"]["title"] == "Cancelled"
    assert occ["isCancelPending"] is False
    assert occ["cancelMode"] == "FORCEFUL"


def test_graceful_cancel_stops_after_the_running_step(lcm):
    inst = lcm.create()
    resp = lcm.task(
        inst["id"], "instantiate", {"flavourId": "simple", **_fake(sleep=2)}
    )
    occ_id = _occ_id(resp)
    # Wait until the driver runs (the start hook is done), then cancel.
    deadline = time.monotonic() + 10
    while "hook:instantiate_start" not in _progress(occ_id).get("steps", []):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    _post(lcm, occ_id, "cancel", {"cancelMode": "GRACEFUL"})
    occ = lcm.wait(occ_id, ("FAILED_TEMP",), timeout=10)
    assert occ["error"]["title"] == "Cancelled"
    # The driver step finished; the end hook never ran.
    progress = _progress(occ_id)
    assert "driver" in progress["steps"]
    assert progress["driver"]["hooks"] == ["instantiate_start"]


def test_unprocessable_requests_are_422(lcm):
    inst = lcm.create()
    for body in (
        {"flavourId": "no-such-flavour"},
        {"flavourId": "simple", "instantiationLevelId": "nope"},
        {
            "flavourId": "simple",
            "vimConnectionInfo": {"v": {"vimType": "NO.SUCH.VIM"}},
        },
    ):
        resp = lcm.task(inst["id"], "instantiate", body, status=422)
        assert resp.content_type == "application/problem+json"
    lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
    for task, body in (
        ("scale", {"type": "SCALE_OUT", "aspectId": "nope"}),
        (
            "scale",
            {
                "type": "SCALE_OUT",
                "aspectId": "VDU1_scale",
                "numberOfSteps": 5,
            },
        ),
        ("scale", {"type": "SCALE_IN", "aspectId": "VDU1_scale"}),
        ("heal", {"vnfcInstanceId": ["not-a-vnfc"]}),
        ("change_vnfpkg", {"vnfdId": "not-onboarded"}),
    ):
        resp = lcm.task(inst["id"], task, body, status=422)
        assert resp.json["status"] == 422, resp.json


def test_bad_bodies_are_400(lcm):
    inst = lcm.create()
    for task, body in (
        ("instantiate", {}),
        ("instantiate", {"flavourId": "simple", "bogus": 1}),
        ("scale", {"type": "SIDEWAYS", "aspectId": "a"}),
        ("terminate", {"terminationType": "SOFT"}),
        ("scale_to_level", {}),
    ):
        resp = lcm.task(inst["id"], task, body, status=400)
        assert resp.content_type == "application/problem+json"


def test_unknown_ids_are_404(lcm):
    for path in (
        "/vnflcm/v2/vnf_instances/nope",
        "/vnflcm/v2/vnf_lcm_op_occs/nope",
        "/vnflcm/v2/subscriptions/nope",
    ):
        resp = lcm.app.get(path, headers=V, expect_errors=True)
        assert resp.status_int == 404
    resp = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances/nope/instantiate",
        {"flavourId": "simple"},
        headers=V,
        expect_errors=True,
    )
    assert resp.status_int == 404


def test_create_with_unknown_vnfd_is_422(lcm):
    resp = lcm.app.post_json(
        "/vnflcm/v2/vnf_instances",
        {"vnfdId": "unknown"},
        headers=V,
        expect_errors=True,
    )
    assert resp.status_int == 422
    assert "unknown" in resp.json["detail"]


def test_vim_secrets_encrypted_at_rest_and_never_returned(lcm):
    inst = lcm.create()
    assert "vim-secret" not in str(inst)
    assert inst["vimConnectionInfo"]["vim1"]["accessInfo"] == {"username": "u"}
    with db_api.reader() as session:
        stored = session.execute(
            sa.select(models.VnfInstance.vim_connection_info)
        ).scalar_one()
    password = stored["vim1"]["accessInfo"]["password"]
    assert password.startswith("fernet:")
    assert "vim-secret" not in password
    occ = lcm.run(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", "vimConnectionInfo": FAKE_VIM},
    )
    assert "vim-secret" not in str(occ)


def test_lost_start_is_dispatched_again(lcm, conf):
    from tacker_ng.conductor import rpcapi
    from tacker_ng.conductor.operations import redispatch

    # The start of this op occ goes nowhere (a topic nobody serves).
    conf.set_override("topic", "nobody-listens", group="conductor")
    rpcapi.reset()
    inst = lcm.create()
    occ_id = _occ_id(
        lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    )
    conf.clear_override("topic", group="conductor")
    rpcapi.reset()
    conf.set_override("lost_operation_timeout", 5, group="conductor")
    assert redispatch.redispatch_lost(conf) == []  # not old enough yet
    with db_api.writer() as session:
        session.execute(
            sa.update(models.VnfLcmOpOcc)
            .where(models.VnfLcmOpOcc.id == occ_id)
            .values(created_at=utcnow() - datetime.timedelta(minutes=5))
        )
    assert redispatch.redispatch_lost(conf) == [occ_id]
    lcm.wait(occ_id, ("COMPLETED",))


def test_a_claimed_op_occ_is_not_run_twice(lcm):
    from tacker_ng import context
    from tacker_ng.conductor.operations import runner

    inst = lcm.create()
    occ_id = _occ_id(
        lcm.task(inst["id"], "instantiate", {"flavourId": "simple"})
    )
    lcm.wait(occ_id, ("COMPLETED",))
    before = _progress(occ_id)
    with db_api.writer() as session:
        session.execute(
            sa.update(models.VnfLcmOpOcc)
            .where(models.VnfLcmOpOcc.id == occ_id)
            .values(
                operation_state="PROCESSING",
                conductor_host="another-conductor",
            )
        )
    runner.run(context.get_admin_context(), occ_id, "this-conductor")
    assert _progress(occ_id) == before
    assert lcm.occ(occ_id)["operationState"] == "PROCESSING"
