"""The leader's VIM status job: probes every registered VIM, records
REACHABLE / UNREACHABLE with the reason, and logs only changes."""

import logging

import pytest

from tacker_ng import context as tcontext
from tacker_ng import crypto
from tacker_ng.conductor import vim_status
from tacker_ng.db import api as db_api
from tacker_ng.db import vim_registry
from tacker_ng.objects import tacker_vim


def _register(vim_id, vim_type=tacker_vim.OPENSTACK, password="pw"):
    vci = {
        "vimType": vim_type,
        "interfaceInfo": {"endpoint": "https://x.test"},
        "accessInfo": {"username": "u", "password": password, "project": "p"},
    }
    ctx = tcontext.get_admin_context()
    for attempt in db_api.retrying():
        with attempt, db_api.writer(ctx) as session:
            vim_registry.create(
                session, vim_id, crypto.seal(vci), "p1", vim_id, "", False
            )


def _row(vim_id):
    with db_api.reader(tcontext.get_admin_context()) as session:
        return vim_registry.get(session, vim_id, None)


@pytest.fixture
def probes(monkeypatch):
    answers = {}
    seen = []

    def probe(vim):
        seen.append(vim)
        return answers.get(vim["vimId"])

    monkeypatch.setitem(vim_status.PROBES, tacker_vim.OPENSTACK, probe)
    return answers, seen


def test_statuses_follow_the_probes(db, probes, caplog):
    caplog.set_level(logging.INFO, logger=vim_status.__name__)
    answers, seen = probes
    _register("a")
    _register("b")
    answers["b"] = "Keystone of the VIM answered HTTP 503"
    assert vim_status.check_all() == {"a": "REACHABLE", "b": "UNREACHABLE"}
    assert _row("b")["status_detail"] == answers["b"]
    # The probe got the decrypted VIM with its id.
    assert {v["vimId"] for v in seen} == {"a", "b"}
    assert all(v["accessInfo"]["password"] == "pw" for v in seen)
    # Unchanged: not logged again; recovered: logged once.
    caplog.clear()
    vim_status.check_all()
    assert "VIM b" not in caplog.text
    answers.pop("b")
    assert vim_status.check_all()["b"] == "REACHABLE"
    assert _row("b")["status_detail"] is None
    assert "VIM b is REACHABLE" in caplog.text


def test_a_failing_probe_does_not_stop_the_others(db, probes, monkeypatch):
    def boom(vim):
        if vim["vimId"] == "bad":
            raise RuntimeError("bug")
        return None

    monkeypatch.setitem(vim_status.PROBES, tacker_vim.OPENSTACK, boom)
    _register("bad")
    _register("good")
    assert vim_status.check_all() == {
        "bad": "UNREACHABLE",
        "good": "REACHABLE",
    }
    assert "conductor log" in _row("bad")["status_detail"]


def test_undecryptable_credentials_are_unreachable(db, probes, monkeypatch):
    _register("x")

    def no_keys(value):
        raise crypto.SecretsUnavailable(reason="no key")

    monkeypatch.setattr(crypto, "unseal", no_keys)
    assert vim_status.check_all() == {"x": "UNREACHABLE"}
    assert "decrypted" in _row("x")["status_detail"]
