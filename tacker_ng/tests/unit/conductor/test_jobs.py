"""The jobboard: its configuration and which failures it runs again."""

import pytest
from oslo_db import exception as db_exc
from taskflow import exceptions as tf_exc

from tacker_ng.conductor.flows import jobs
from tacker_ng.conductor.operations import runner


def test_redis_url_becomes_a_namespaced_board():
    conf = jobs.board_conf("redis://:s%40cret@redis.example:6380/2", "t-1")
    assert conf == {
        "board": "redis",
        "host": "redis.example",
        "port": 6380,
        "db": 2,
        "password": "s@cret",
        "namespace": "tacker-ng-lcm-t-1",
    }


def test_defaults_and_fleets_apart():
    conf = jobs.board_conf("redis://127.0.0.1", "a")
    assert conf["port"] == 6379
    assert "db" not in conf and "password" not in conf
    assert conf["namespace"] != jobs.board_conf("redis://x", "b")["namespace"]


def test_other_schemes_are_refused():
    with pytest.raises(ValueError, match="redis://"):
        jobs.board_conf("etcd3+http://127.0.0.1:2379", "a")


def test_lost_database_is_told_apart_from_failures():
    lost = db_exc.DBConnectionError()
    try:
        try:
            raise lost
        except db_exc.DBConnectionError as exc:
            raise tf_exc.StorageFailure("save failed") from exc
    except tf_exc.StorageFailure as wrapped:
        assert runner.database_unreachable(wrapped)
    assert runner.database_unreachable(lost)
    assert not runner.database_unreachable(db_exc.DBDeadlock())
    assert not runner.database_unreachable(KeyError("x"))
    assert not runner.database_unreachable(None)
