"""A lost database, bus or Redis is logged once per component, quietly.

One conductor reaches MariaDB, RabbitMQ and Redis (its jobboard and its
tooz coordination) through TCP relays (:mod:`.relay`); the test cuts
each in turn (every connection dropped, new ones refused) while the
periodic jobs tick every second or two, and counts the conductor's log
lines of each outage: every component that lost the service says so in
one WARNING and, once the service is back, in one INFO; nothing logs a
traceback or an ERROR. The conductor then runs an operation cast by the
API (database, bus and jobboard all used again).

Before the fix a 20 s database outage wrote 3,992 lines with 52
tracebacks (every periodic job's and the delivery loop's failure, each
with its traceback, plus ten retry WARNINGs per transaction), a 20 s
RabbitMQ outage ten ERRORs, a 20 s Redis outage 474 lines with 20
tracebacks. Each cut here lasts :data:`HOLD` seconds after the
components that must notice it have, so they fail again at their next
ticks; the "back after N s" of each shows it.
"""

import collections
import re
import time

from tacker_ng import context as tcontext
from tacker_ng.tests import fixtures, lcm_packages
from tacker_ng.tests.functional import deployment, lcm_fixtures, services
from tacker_ng.tests.functional import processes as procs
from tacker_ng.tests.functional.relay import relayed

REDIS_URL = "redis://127.0.0.1:6379/0"

#: An oslo.log line: date time pid LEVEL logger [context] message.
LINE = re.compile(
    r"^\S+ \S+ \d+ (?P<level>[A-Z]+) (?P<logger>\S+) (?:\[[^\]]*\] )?"
    r"(?P<msg>.*)$"
)
LOST = re.compile(r"^(?P<component>.+?): lost connection to ")
BACK = re.compile(
    r"^(?P<component>.+?): connection to .+ is back after (?P<s>\d+) s"
)
#: Seconds a cut lasts after the components that must notice it have:
#: their next ticks (every 0.5-2 s) fail again, quietly.
HOLD = 5

#: Components that must notice each outage (by the start of their
#: names; others may, if a tick of theirs falls into it: they are
#: counted the same way).
MUST_NOTICE = {
    "database": ("periodic job heartbeat", "notification delivery"),
    "bus": ("AMQP connection ",),
    "redis": ("jobboard",),
}


class Outage:
    """The conductor's log lines from one cut to the next one."""

    def __init__(self, proc: procs.Process, kind: str) -> None:
        self.proc = proc
        self.kind = kind
        self.start = len(proc.log_text())
        self.end: int | None = None

    def lines(self) -> list[str]:
        return self.proc.log_text()[self.start : self.end].splitlines()

    def records(self) -> list[tuple[str, str]]:
        """(level, message) of each record (not traceback lines)."""
        out = []
        for line in self.lines():
            match = LINE.match(line)
            if match:
                out.append((match["level"], match["msg"]))
        return out

    def matches(self, pattern: re.Pattern) -> list[re.Match]:
        return [m for _, msg in self.records() if (m := pattern.match(msg))]

    def components(self, pattern: re.Pattern) -> collections.Counter:
        return collections.Counter(
            m["component"] for m in self.matches(pattern)
        )

    def noticed(self) -> bool:
        lost = self.components(LOST)
        return all(
            any(c.startswith(prefix) for c in lost)
            for prefix in MUST_NOTICE[self.kind]
        )


def _cut(relay, outage: Outage) -> None:
    """Cut ``relay`` until the components that must notice have, and
    :data:`HOLD` seconds more; wait until each that noticed is back."""
    relay.cut()
    try:
        procs.wait_for(
            outage.noticed, 30, f"the conductor to notice {outage.kind} lost"
        )
        time.sleep(HOLD)
    finally:
        relay.restore()
    procs.wait_for(
        lambda: set(outage.components(LOST)) <= set(outage.components(BACK)),
        30,
        f"every component to be back after the {outage.kind} outage",
    )


def _assert_quiet(outage: Outage) -> None:
    lost = outage.components(LOST)
    back = outage.components(BACK)
    text = "\n".join(outage.lines())
    assert outage.noticed(), text
    assert all(n == 1 for n in lost.values()), (lost, text)
    assert back == lost, (back, text)
    # Those that must notice were cut off for the whole hold, failing
    # at every tick, and said so once.
    lasted = collections.defaultdict(int)
    for m in outage.matches(BACK):
        for prefix in MUST_NOTICE[outage.kind]:
            if m["component"].startswith(prefix):
                lasted[prefix] = max(lasted[prefix], int(m["s"]))
    assert all(s >= HOLD - 1 for s in lasted.values()), lasted
    assert "Traceback" not in text, text
    loud = [
        (level, msg)
        for level, msg in outage.records()
        if level in ("ERROR", "CRITICAL")
        or (level == "WARNING" and not LOST.match(msg))
    ]
    assert loud == [], text


def test_each_outage_is_one_warning_and_one_info_per_component(tmp_path):
    services.require("redis")
    with (
        services.scratch_database("mariadb") as direct_url,
        relayed(direct_url) as (sql_url, db),
        relayed(services.RABBIT_URL, 5672) as (bus_url, bus),
        relayed(REDIS_URL, 6379) as (redis_url, redis),
        deployment.deploy(
            tmp_path,
            sql_url,
            conductors=("cond-a",),
            extra={
                # The level operators run at: DEBUG lines may carry
                # tracebacks on purpose.
                "DEFAULT": {"transport_url": bus_url, "debug": False},
                "conductor": {
                    "jobboard_url": redis_url,
                    "claim_timeout": 6,
                    # The lcm duty's re-dispatch runs every 2 s.
                    "lost_operation_timeout": 5,
                },
                # Locks outlive a short outage: leadership does not move.
                "coordination": {
                    "backend_url": f"{redis_url}?lock_timeout=60"
                },
                "convergence": {"observe_interval": 1},
                "reservation": {
                    "event_interval": 1,
                    "host_failure_check_interval": 0,
                },
            },
        ) as dep,
    ):
        with (
            fixtures.config(str(tmp_path)),
            fixtures.database(direct_url, migrate=False),
        ):
            dep.package = lcm_packages.onboard(
                tcontext.get_admin_context(), lcm_packages.build()
            )
        conductor = dep.conductors["cond-a"]
        outages: list[Outage] = []
        for kind, relay in (("database", db), ("bus", bus), ("redis", redis)):
            outage = Outage(conductor, kind)
            if outages:
                outages[-1].end = outage.start
            outages.append(outage)
            _cut(relay, outage)
        outages[-1].end = len(conductor.log_text())
        for outage in outages:
            _assert_quiet(outage)

        # The conductor works: the API casts, the conductor posts the job
        # on the jobboard, claims it and runs it on the database.
        client = dep.client()
        occ = client.run(
            lcm_fixtures.create_instance(dep, client),
            "instantiate",
            {"flavourId": "simple"},
        )
        assert occ["operationState"] == "COMPLETED", occ
        assert "Traceback" not in conductor.log_text()
