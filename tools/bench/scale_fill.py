"""Fill a tacker-ng database at telecom scale, for tools/bench/scale.py.

Rows go in through the product's own tables (``tacker_ng.db.models``) as
multi-row INSERTs of ``batch`` rows, built batch by batch so a million op
occs never sit in memory at once. ``created_at`` increases row by row
(one second apart for instances, 50 ms for op occs), as a long-lived
deployment's would, so pages are pages of distinct keys.
"""

from __future__ import annotations

import datetime
import hashlib
import time
import uuid
from collections.abc import Iterator

import sqlalchemy as sa

from tacker_ng.db import models

OPS = ("INSTANTIATE", "SCALE", "HEAL", "SCALE", "MODIFY_INFO", "TERMINATE")
STATES = ("COMPLETED",) * 18 + ("FAILED", "ROLLED_BACK")


def _vnfc(i: int, k: int) -> dict:
    vdu = "VDU1" if k == 0 else "VDU2"
    return {
        "id": f"vnfc-{i}-{k}",
        "vduId": vdu,
        "computeResource": {
            "vimConnectionId": "vim1",
            "resourceId": f"server-{i}-{k}",
            "vimLevelResourceType": "OS::Nova::Server",
        },
        "zoneId": f"AZ-{(i + k) % 3 + 1}",
        "metadata": {"flavour": "m1.small", "image": "cirros"},
    }


def _instance(i: int, package: dict, start: datetime.datetime) -> dict:
    instantiated = i % 2 == 0
    return {
        "id": str(uuid.UUID(int=i + 1)),
        "vnf_instance_name": f"vnf-{i}",
        "vnf_instance_description": "scale benchmark",
        "vnfd_id": package["vnfd_id"],
        "vnf_provider": package["vnf_provider"],
        "vnf_product_name": package["vnf_product_name"],
        "vnf_software_version": package["vnf_software_version"],
        "vnfd_version": package["vnfd_version"],
        "instantiation_state": "INSTANTIATED"
        if instantiated
        else "NOT_INSTANTIATED",
        "instantiated_vnf_info": {
            "flavourId": "simple",
            "vnfState": "STARTED" if i % 4 == 0 else "STOPPED",
            "vnfcResourceInfo": [_vnfc(i, k) for k in range(4)],
        }
        if instantiated
        else None,
        "vim_connection_info": None,
        "metadata": {"owner": "bench", "i": i},
        "project_id": "default",
        "version": 1,
        "created_at": start + datetime.timedelta(seconds=i),
    }


def _op_occ(
    n: int, instances: int, start: datetime.datetime
) -> dict[str, object]:
    began = start + datetime.timedelta(milliseconds=50 * n)
    return {
        "id": str(uuid.UUID(int=(1 << 64) + n)),
        "vnf_instance_id": str(uuid.UUID(int=n % instances + 1)),
        "operation": OPS[n % len(OPS)],
        "operation_state": STATES[n % len(STATES)],
        "is_automatic_invocation": False,
        "is_cancel_pending": False,
        "operation_params": {"flavourId": "simple"},
        "start_time": began,
        "state_entered_time": began + datetime.timedelta(seconds=30),
        "project_id": "default",
        "created_at": began,
    }


def _subscription(
    n: int, instances: int, start: datetime.datetime
) -> dict[str, object]:
    """A per-VNF subscription (the NFVO watches one instance) of one of
    100 tenants: the bench's own project ("default") holds 1 in 100, so
    a create or an instantiate reads and matches 100 subscriptions, as
    in a shared deployment, and notifies none of them."""
    uri = f"http://nfvo-{n % 100}.example:8080/callbacks/{n}"
    return {
        "id": str(uuid.UUID(int=(2 << 64) + n)),
        "callback_uri": uri,
        "filter": {
            "vnfInstanceSubscriptionFilter": {
                "vnfInstanceIds": [str(uuid.UUID(int=n % instances + 1))]
            }
        },
        "verbosity": "FULL",
        "fingerprint": hashlib.sha256(uri.encode()).hexdigest(),
        "project_id": "default" if n % 100 == 0 else f"tenant-{n % 100}",
        "created_at": start + datetime.timedelta(seconds=n),
    }


def _batches(count: int, batch: int) -> Iterator[range]:
    for first in range(0, count, batch):
        yield range(first, min(count, first + batch))


def _insert(engine: sa.Engine, table: sa.Table, rows_of, count, batch):
    started = time.perf_counter()
    for rows in _batches(count, batch):
        with engine.begin() as conn:
            conn.execute(sa.insert(table), [rows_of(i) for i in rows])
    return round(time.perf_counter() - started, 1)


def fill(
    url: str,
    package: dict,
    instances: int,
    op_occs: int,
    subscriptions: int,
    batch: int = 5000,
) -> dict[str, float]:
    """Insert the rows; seconds taken per table (and for ANALYZE)."""
    engine = sa.create_engine(url)
    now = datetime.datetime.now(datetime.UTC)
    start = now - datetime.timedelta(days=400)
    seconds = {
        "instances_s": _insert(
            engine,
            models.VnfInstance.__table__,
            lambda i: _instance(i, package, start),
            instances,
            batch,
        ),
        "op_occs_s": _insert(
            engine,
            models.VnfLcmOpOcc.__table__,
            lambda n: _op_occ(n, instances, start),
            op_occs,
            batch,
        ),
        "subscriptions_s": _insert(
            engine,
            models.LccnSubscription.__table__,
            lambda n: _subscription(n, instances, start),
            subscriptions,
            batch,
        ),
    }
    started = time.perf_counter()
    tables = ("vnf_instances", "vnf_lcm_op_occs", "lccn_subscriptions")
    with engine.connect() as conn:
        if engine.dialect.name == "mysql":
            conn.exec_driver_sql(f"ANALYZE TABLE {', '.join(tables)}")
        else:
            conn.exec_driver_sql(f"ANALYZE {', '.join(tables)}")
        conn.commit()
    seconds["analyze_s"] = round(time.perf_counter() - started, 1)
    engine.dispose()
    return seconds


def not_instantiated(instances: int, count: int) -> list[str]:
    """Ids of ``count`` NOT_INSTANTIATED instances, newest first (those
    :func:`_instance` made with an odd index)."""
    odd = [i for i in range(instances - 1, -1, -1) if i % 2 == 1]
    return [str(uuid.UUID(int=i + 1)) for i in odd[:count]]


def instance_id(i: int) -> str:
    """The id :func:`fill` gave the ``i``-th instance."""
    return str(uuid.UUID(int=i + 1))


def op_occ_id(n: int) -> str:
    """The id :func:`fill` gave the ``n``-th op occ."""
    return str(uuid.UUID(int=(1 << 64) + n))
