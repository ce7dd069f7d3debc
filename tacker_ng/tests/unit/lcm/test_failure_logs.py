"""An op that fails as expected logs one WARNING line in our words; only
an internal error (a bug of ours) logs a traceback, and only once."""

import logging

from tacker_ng.tests.unit.lcm.test_failures import _fake, _occ_id


def _fail(lcm, caplog, **fake) -> list[logging.LogRecord]:
    """Records of WARNING and above while an instantiate fails."""
    caplog.set_level(logging.INFO)
    inst = lcm.create()
    resp = lcm.task(
        inst["id"],
        "instantiate",
        {"flavourId": "simple", **_fake(fail_at="INSTANTIATE", **fake)},
    )
    occ_id = _occ_id(resp)
    lcm.wait(occ_id, ("FAILED_TEMP",))
    return [
        r
        for r in caplog.records
        if r.levelno >= logging.WARNING
        and (occ_id in r.getMessage() or r.name.startswith("taskflow"))
    ]


def test_expected_failure_is_one_warning_line(lcm, caplog):
    records = _fail(lcm, caplog, fail_with="unreachable")
    assert [(r.levelname, r.name) for r in records] == [
        ("WARNING", "tacker_ng.conductor.operations.runner")
    ]
    (record,) = records
    assert not record.exc_info
    message = record.getMessage()
    assert "failed in the infra driver step" in message
    assert "VIM unreachable during INSTANTIATE" in message
    assert "(cause: TimeoutError: timed out)" in message
    assert "Traceback" not in caplog.text


def test_internal_error_logs_one_traceback(lcm, caplog):
    records = _fail(lcm, caplog, fail_with="bug")
    assert [(r.levelname, r.name) for r in records] == [
        ("ERROR", "tacker_ng.conductor.operations.runner")
    ]
    assert records[0].exc_info
    assert "internal-secret-INSTANTIATE" in caplog.text
