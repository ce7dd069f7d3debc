"""Real deadlocks on demand: every write transaction loses one, once.

For functional tests on MariaDB and PostgreSQL. When a transaction runs
its first write statement, the injector makes it lose a real deadlock:

1. the transaction locks probe row 1;
2. a second session ("rival", in its own thread) locks probe row 2 and
   then waits for row 1;
3. the transaction asks for row 2 (on PostgreSQL once the rival is seen
   waiting in ``pg_stat_activity``): a lock cycle, which the server breaks
   by rolling the transaction back (MariaDB picks the transaction that
   changed fewer rows, so the rival first changes many; PostgreSQL lets
   the waiter whose ``deadlock_timeout`` ends first abort itself, so the
   rival's is long and ours short).

The error raised is the server's own (translated by oslo.db into
``DBDeadlock``). After that the thread is not victimised again until one
of its transactions commits, so a writer that retries succeeds on its
second attempt and one that does not retry fails the test.
"""

import threading
import time

import sqlalchemy as sa
from sqlalchemy import event

PROBE = "deadlock_probe"
HEAVY = "deadlock_probe_heavy"
_WRITES = ("INSERT", "UPDATE", "DELETE")


class DeadlockInjector:
    """Make each write transaction of ``engine`` lose one deadlock."""

    def __init__(self, engine: sa.engine.Engine, url: str) -> None:
        self.engine = engine
        self.backend = engine.dialect.name
        # One pooled connection each: injections run one at a time, and a
        # new connection per injection only made every write slower.
        one = {"pool_size": 1, "max_overflow": 0}
        self.rival_engine = sa.create_engine(url, **one)
        self.monitor_engine = sa.create_engine(url, **one)
        self.armed = False
        #: Statements that lost their deadlock, in order.
        self.victims: list[str] = []
        #: Injections in which the server chose the rival, not ours.
        self.missed: list[str] = []
        self._local = threading.local()
        self._one_at_a_time = threading.Semaphore(1)
        self._create_probe()
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "commit", self._committed)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._before)
        event.remove(self.engine, "commit", self._committed)
        self.rival_engine.dispose()
        self.monitor_engine.dispose()

    # -- set-up ---------------------------------------------------------------
    def _create_probe(self) -> None:
        with self.rival_engine.begin() as conn:
            conn.exec_driver_sql(
                f"CREATE TABLE {PROBE} (id INTEGER PRIMARY KEY, n INTEGER)"
            )
            conn.exec_driver_sql(
                f"CREATE TABLE {HEAVY} (id INTEGER PRIMARY KEY, n INTEGER)"
            )
            conn.exec_driver_sql(f"INSERT INTO {PROBE} VALUES (1, 0), (2, 0)")
            rows = ", ".join(f"({i}, 0)" for i in range(200))
            conn.exec_driver_sql(f"INSERT INTO {HEAVY} VALUES {rows}")

    # -- events ---------------------------------------------------------------
    def _committed(self, conn) -> None:
        self._local.owed = True

    def _before(self, conn, cursor, statement, params, context, many):
        if not self.armed or getattr(self._local, "busy", False):
            return
        head = statement.lstrip().split(None, 1)[0].upper()
        is_write = head in _WRITES or (
            head == "SELECT" and "FOR UPDATE" in statement.upper()
        )
        if not is_write or PROBE in statement:
            return
        if not getattr(self._local, "owed", True):
            return
        self._local.owed = False
        self._local.busy = True
        try:
            self._lose_deadlock(conn, statement)
        finally:
            self._local.busy = False

    # -- the cycle ------------------------------------------------------------
    def _lose_deadlock(self, conn, statement: str) -> None:
        self._one_at_a_time.acquire()
        rival_waiting = threading.Event()
        rival_id: list[int] = []
        rival = threading.Thread(
            target=self._rival,
            args=(rival_waiting, rival_id),
            name="deadlock-rival",
            daemon=True,
        )
        if self.backend == "postgresql":
            conn.exec_driver_sql("SET LOCAL deadlock_timeout = '20ms'")
        conn.exec_driver_sql(f"UPDATE {PROBE} SET n = n + 1 WHERE id = 1")
        rival.start()
        if not rival_waiting.wait(30):
            raise AssertionError("the rival session never locked row 2")
        self._wait_until_blocked(rival_id[0])
        try:
            conn.exec_driver_sql(f"UPDATE {PROBE} SET n = n + 1 WHERE id = 2")
        except Exception:
            self.victims.append(statement.split("\n", 1)[0][:120])
            raise
        # The server chose the rival: ours goes on with probe rows locked
        # until it ends; recorded so the test fails.
        self.missed.append(statement.split("\n", 1)[0][:120])

    def _rival(self, locked: threading.Event, rival_id: list[int]) -> None:
        try:
            with self.rival_engine.connect() as conn:
                trans = conn.begin()
                if self.backend == "postgresql":
                    conn.exec_driver_sql("SET LOCAL deadlock_timeout = '30s'")
                    rival_id.append(
                        conn.exec_driver_sql(
                            "SELECT pg_backend_pid()"
                        ).scalar()
                    )
                else:
                    rival_id.append(
                        conn.exec_driver_sql("SELECT CONNECTION_ID()").scalar()
                    )
                    # Many changed rows: InnoDB rolls back the lighter one.
                    conn.exec_driver_sql(f"UPDATE {HEAVY} SET n = n + 1")
                conn.exec_driver_sql(
                    f"UPDATE {PROBE} SET n = n + 1 WHERE id = 2"
                )
                locked.set()
                try:
                    conn.exec_driver_sql(
                        f"UPDATE {PROBE} SET n = n + 1 WHERE id = 1"
                    )
                finally:
                    trans.rollback()
        except Exception:  # noqa: BLE001, S110 - the rival may be the victim
            pass
        finally:
            locked.set()
            self._one_at_a_time.release()

    def _wait_until_blocked(self, rival_id: int) -> None:
        """PostgreSQL checks for a cycle once, ``deadlock_timeout`` after
        a session starts waiting: ours must wait after the rival does.
        (InnoDB checks whenever a wait starts and rolls back the lighter
        transaction, whatever the order: nothing to wait for.)"""
        if self.backend != "postgresql":
            return
        query = sa.text(
            "SELECT wait_event_type = 'Lock' FROM pg_stat_activity "
            "WHERE pid = :id"
        )
        deadline = time.monotonic() + 30
        with self.monitor_engine.connect() as conn:
            while time.monotonic() < deadline:
                if conn.execute(query, {"id": rival_id}).scalar():
                    return
                conn.rollback()
                time.sleep(0.005)
        raise AssertionError("the rival session never waited for row 1")
