"""The database's per-host peaks (ledger.load_usage) equal the pure sweep
(allocation.peak_usage) on random ledgers."""

import datetime
import random
import uuid

from tacker_ng.db import api as db_api
from tacker_ng.db import models_reservation as models
from tacker_ng.db.types import utcnow
from tacker_ng.reservation import allocation
from tacker_ng.reservation.admission import leases as manager
from tacker_ng.reservation.admission import ledger
from tacker_ng.tests.unit.reservation.conftest import add_hosts, instance_body

T0 = datetime.datetime(2090, 1, 1, tzinfo=datetime.UTC)


def _t(h: int) -> datetime.datetime:
    return T0 + datetime.timedelta(hours=h)


def test_sql_peaks_match_the_sweep(db, ctx):
    rng = random.Random(7)
    add_hosts(4)
    lease = manager.create_lease(ctx, instance_body(amount=1))
    rid = lease["reservations"][0]["id"]
    for _ in range(25):
        bookings = []
        with db_api.writer() as session:
            session.query(models.HostAllocation).delete()
            for _ in range(rng.randint(0, 14)):
                start = rng.randint(-4, 12)
                row = {
                    "reservation_id": rid,
                    "lease_id": lease["id"],
                    "host_id": rng.randint(1, 4),
                    "start_date": _t(start),
                    "end_date": _t(start + rng.randint(1, 6)),
                    "instances": rng.randint(1, 3),
                    "vcpus": rng.randint(0, 2),
                    "memory_mb": rng.choice([0, 512, 1024]),
                    "disk_gb": rng.choice([0, 10]),
                    "exclusive": rng.random() < 0.15,
                    "created_at": utcnow(),
                }
                session.add(models.HostAllocation(**row))
                bookings.append(
                    allocation.Booking(
                        row["host_id"], row["start_date"], row["end_date"],
                        row["instances"], row["vcpus"], row["memory_mb"],
                        row["disk_gb"], row["exclusive"], rid,
                    )
                )  # fmt: skip
        start = rng.randint(-2, 8)
        window = allocation.Window(_t(start), _t(start + rng.randint(1, 6)))
        chosen = set(rng.sample(range(1, 5), rng.randint(0, 4)))
        with db_api.reader() as session:
            got = ledger.load_usage(session, window)
            # The re-check under the lock reads only the chosen hosts.
            some = ledger.load_usage(session, window, host_ids=chosen)
            # An update leaves its own reservation's rows out.
            mine = ledger.load_usage(session, window, exclude=[rid])
        for host in range(1, 5):
            want = allocation.peak_usage(
                [b for b in bookings if b.host_id == host], window
            )
            have = got.get(host, allocation.Usage())
            assert have == want, (host, window, bookings)
            expected = want if host in chosen else allocation.Usage()
            assert some.get(host, allocation.Usage()) == expected
        assert mine == {}
    assert uuid.UUID(rid)
