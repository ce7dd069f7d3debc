"""Every write transaction survives a real deadlock, on MariaDB and
PostgreSQL.

The LCM API and a conductor run in this process on a real database; the
injector (``deadlocks.py``) makes each write transaction lose one real
deadlock (two sessions, crossed row locks). The whole user story must
still succeed: a writer that does not retry would surface the
``DBDeadlock`` and fail it.
"""

import datetime
import sys
import threading
import time

import pytest
import webtest

from tacker_ng import context as tcontext
from tacker_ng import crypto
from tacker_ng.api import app as api_app
from tacker_ng.conductor import service as conductor_service
from tacker_ng.db import conductors as conductors_db
from tacker_ng.infra import registry
from tacker_ng.mgmt import base as mgmt_base
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.drivers import plugin
from tacker_ng.tests.functional import deadlocks, receiver
from tacker_ng.tests.unit.lcm.conftest import Lcm, V

pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def env(sql_url, tmp_path):
    path = str(plugin.write(tmp_path / "plugins"))
    sys.path.insert(0, path)
    registry.get_driver.cache_clear()
    mgmt_base.get_driver.cache_clear()
    with (
        fixtures.config(str(tmp_path)) as conf,
        fixtures.database(sql_url) as engine,
    ):
        conf.set_override("poll_interval", 0.05, group="notification")
        conf.set_override("test_callback_uri", False, group="notification")
        injector = deadlocks.DeadlockInjector(engine, sql_url)
        crypto.forget_keys()
        try:
            yield conf, injector
        finally:
            injector.close()
            crypto.forget_keys()
    sys.path.remove(path)


def test_two_conductors_register_at_once(env):
    """The start-up race that made a conductor exit (UPDATE-then-INSERT
    under InnoDB gap locks): now one upsert, and a lost deadlock is
    retried."""
    _, injector = env
    injector.armed = True
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def register(n: int) -> None:
        try:
            start.wait()
            for _ in range(5):
                conductors_db.register(f"host-{n % 4}", "1.2")
        except BaseException as exc:  # noqa: BLE001 - asserted below
            errors.append(exc)

    threads = [threading.Thread(target=register, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert injector.missed == []
    assert len(injector.victims) >= 8
    rows = conductors_db.list_all(
        tcontext.get_admin_context(),
        alive_after=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC),
    )
    assert sorted(r["hostname"] for r in rows) == [
        f"host-{n}" for n in range(4)
    ]


def test_lcm_story_survives_a_deadlock_in_every_writer(env):
    """Create, subscribe, instantiate, scale, heal, terminate, delete:
    every write transaction on the way (API, conductor claim and state
    changes, grant, progress, notification outbox and delivery,
    heartbeat) loses one deadlock and is run again."""
    conf, injector = env
    ctx = tcontext.get_admin_context()
    package = lcm_packages.onboard(ctx, lcm_packages.build())
    nfvo = receiver.Receiver().__enter__()
    conductor = conductor_service.ConductorService(conf)
    injector.armed = True
    conductor.start()
    try:
        # Each op runs ~45 write transactions and every one of them loses
        # a real deadlock, one at a time (~45 ms each on an idle machine,
        # ten times that beside the minicloud half of CI): the default
        # 15 s hang detector was too short once on a loaded CI run.
        lcm = Lcm(
            webtest.TestApp(api_app.build_wsgi_app(conf)), package, timeout=180
        )
        sub = lcm.app.post_json(
            "/vnflcm/v2/subscriptions",
            {"callbackUri": nfvo.url},
            headers=V,
        ).json
        inst = lcm.create()
        lcm.run(inst["id"], "instantiate", {"flavourId": "simple"})
        lcm.run(
            inst["id"],
            "scale",
            {"type": "SCALE_OUT", "aspectId": "VDU2_scale"},
        )
        lcm.run(inst["id"], "heal", {})
        lcm.run(inst["id"], "terminate", {"terminationType": "FORCEFUL"})
        lcm.app.delete(f"/vnflcm/v2/vnf_instances/{inst['id']}", headers=V)
        _wait_for_deletion_notification(nfvo)
        lcm.app.delete(f"/vnflcm/v2/subscriptions/{sub['id']}", headers=V)
    finally:
        conductor.stop(graceful=False)
        nfvo.__exit__()
    assert injector.missed == []
    # Every kind of writer on the way lost (at least) one deadlock.
    victims = "\n".join(injector.victims)
    for table in (
        "conductors",
        "vnf_instances",
        "vnf_lcm_op_occs",
        "lcm_notifications",
        "grants",
        "lccn_subscriptions",
    ):
        assert table in victims, f"no deadlock was injected into {table}"
    states = [
        n["operationState"]
        for n in nfvo.notifications
        if n["notificationType"] == "VnfLcmOperationOccurrenceNotification"
    ]
    # Each of the 4 operations: STARTING, PROCESSING, COMPLETED; no
    # duplicates although every outbox write was retried.
    assert states == ["STARTING", "PROCESSING", "COMPLETED"] * 4


def _wait_for_deletion_notification(nfvo, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with nfvo._lock:
            kinds = [n["notificationType"] for n in nfvo.notifications]
        if "VnfIdentifierDeletionNotification" in kinds:
            return
        time.sleep(0.05)
    raise AssertionError(f"no deletion notification; got {kinds}")
