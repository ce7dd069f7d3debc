"""Benchmark: the convergence observer over 10,000 VNFCs / 1,000 VNFs.

One VIM (tools/simcloud/nova_lite: Keystone tokens + Nova's paged
servers/detail and os-services, through the real keystoneauth1 and
python-novaclient), VNF instances written to a real database, and the
product's observer and converger. Prints one JSON object:

* ``cycle_seconds`` of the first (inserting) and steady-state cycles with
  one conductor, and with two (``two_conductors``: each lists the VIM and
  takes its share of the instances, run side by side);
* ``vim_calls_per_cycle`` by call (O(VNFCs / page size));
* ``rss_mb``: the process's resident memory (VmRSS; the in-process
  simulator's servers included) after populating and after each of
  ``--cycles`` steady cycles, its growth over them, and the peak
  (``ru_maxrss``): memory must stay bounded as cycles repeat;
* ``drift_to_action_seconds``: from servers put in ERROR / deleted behind
  our back to their alarms and automatic heal op occs, observe interval
  not counted (a drift is seen at most one interval later).

    python tools/bench/observer.py [--vnfs 1000] [--vnfcs-per-vnf 10]
        [--vnfcs 100000] [--cycles 3] [--one-conductor]
        [--backend sqlite|mariadb|postgresql] [--page-size 1000]

``--vnfcs`` (issue #32: 100,000) sets the VNF count to VNFCs divided by
``--vnfcs-per-vnf``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

import sqlalchemy as sa  # noqa: E402
from oslo_config import cfg  # noqa: E402

from tacker_ng import crypto  # noqa: E402
from tacker_ng.convergence import converge, observer  # noqa: E402
from tacker_ng.db import api as db_api  # noqa: E402
from tacker_ng.db import models  # noqa: E402
from tacker_ng.db import models_convergence as cm  # noqa: E402
from tacker_ng.db.types import utcnow  # noqa: E402
from tacker_ng.tests import fixtures  # noqa: E402
from tools.simcloud.nova_lite import NovaLite  # noqa: E402

ZONES = ("AZ-1", "AZ-2", "AZ-3")


@contextlib.contextmanager
def _database(backend: str, tmp: str):
    if backend == "sqlite":
        with fixtures.database(f"sqlite:///{tmp}/bench.sqlite") as engine:
            yield engine
        return
    from tacker_ng.tests.functional import services

    with (
        services.scratch_database(backend) as url,
        fixtures.database(url) as engine,
    ):
        yield engine


def _populate(nova: NovaLite, vnfs: int, per_vnf: int, autoheal_every: int):
    """VNF instances, their VNFCs and the servers behind them."""
    vim = crypto.seal(
        {
            "vim1": {
                "vimId": "vim1",
                "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
                "interfaceInfo": {"endpoint": nova.auth_url},
                "accessInfo": {
                    "username": "bench",
                    "password": "bench-secret",
                    "project": "bench",
                    "region": "RegionOne",
                },
            }
        }
    )
    now = utcnow()
    rows, layout = [], {}
    for n in range(vnfs):
        inst_id = str(uuid.uuid4())
        vnfcs = []
        for k in range(per_vnf):
            server_id = str(uuid.uuid4())
            zone = ZONES[k % len(ZONES)]
            nova.add_server(server_id, f"host-{(n * per_vnf + k) % 50}", zone)
            vnfcs.append(
                {
                    "id": f"VDU{k % 2 + 1}-{k}",
                    "vduId": f"VDU{k % 2 + 1}",
                    "computeResource": {
                        "vimConnectionId": "vim1",
                        "resourceId": server_id,
                        "vimLevelResourceType": "OS::Nova::Server",
                    },
                    "zoneId": zone,
                }
            )
        layout[inst_id] = vnfcs
        rows.append(
            {
                "id": inst_id,
                "vnf_instance_name": f"bench-{n}",
                "vnfd_id": "bench-vnfd",
                "vnf_provider": "bench",
                "vnf_product_name": "bench",
                "vnf_software_version": "1",
                "vnfd_version": "1",
                "instantiation_state": "INSTANTIATED",
                "vim_connection_info": vim,
                "vnf_configurable_properties": {
                    "isAutohealEnabled": n % autoheal_every == 0
                },
                "instantiated_vnf_info": {
                    "flavourId": "simple",
                    "vnfcResourceInfo": vnfcs,
                },
                "project_id": "bench",
                "version": 1,
                "created_at": now,
            }
        )
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as session:
            session.execute(sa.insert(models.VnfInstance.__table__), rows)
    return layout


def _observer(host: str, live: list[str], casts: list[str]):
    converger = converge.Converger(
        None, lambda ctx, occ_id: casts.append(occ_id)
    )
    return observer.Observer(host, converger, lambda: live)


def _rss_mb() -> float:
    """This process's resident set now (MiB)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _count(table) -> int:
    with db_api.reader() as session:
        return session.execute(
            sa.select(sa.func.count()).select_from(table)
        ).scalar_one()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--vnfs", type=int, default=1000)
    parser.add_argument("--vnfcs-per-vnf", type=int, default=10)
    parser.add_argument("--page-size", type=int, default=1000)
    parser.add_argument(
        "--backend",
        choices=["sqlite", "mariadb", "postgresql"],
        default="sqlite",
    )
    parser.add_argument("--drifts", type=int, default=10)
    parser.add_argument("--vnfcs", type=int, default=None)
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument(
        "--one-conductor",
        action="store_true",
        help="Skip the two-conductor run.",
    )
    args = parser.parse_args()
    if args.vnfcs:
        args.vnfs = max(1, args.vnfcs // args.vnfcs_per_vnf)
    tmp = tempfile.mkdtemp(prefix="bench-observer-")
    out: dict = {
        "benchmark": "convergence observer cycle",
        "vnfs": args.vnfs,
        "vnfcs": args.vnfs * args.vnfcs_per_vnf,
        "page_size": args.page_size,
        "backend": args.backend,
    }
    with (
        fixtures.config(tmp, convergence__page_size=args.page_size),
        _database(args.backend, tmp),
        NovaLite() as nova,
    ):
        # every 4th VNF auto-heals, the others raise alarms
        layout = _populate(nova, args.vnfs, args.vnfcs_per_vnf, 4)
        casts: list[str] = []
        one = _observer("c1", ["c1"], casts)
        nova.reset_calls()
        rss = {"populated": _rss_mb()}
        first = one.run_cycle()
        out["first_cycle"] = first
        out["vim_calls_first_cycle"] = nova.reset_calls()
        rss["after_first_cycle"] = _rss_mb()
        seconds = []
        for n in range(max(1, args.cycles)):
            nova.reset_calls()
            steady = one.run_cycle()
            seconds.append(steady["seconds"])
            rss[f"after_steady_cycle_{n + 1}"] = _rss_mb()
        out["cycle_seconds_one_conductor"] = max(seconds)
        out["steady_cycles_seconds"] = seconds
        out["vim_calls_per_cycle"] = nova.reset_calls()
        out["vim_calls_reported_by_observer"] = steady["vim_calls"]
        rss["growth_over_steady_cycles"] = round(
            rss[f"after_steady_cycle_{len(seconds)}"]
            - rss["after_first_cycle"],
            1,
        )
        rss["max"] = round(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
        )
        out["rss_mb"] = rss
        out["load_average"] = [round(x, 2) for x in os.getloadavg()]

        # drift: half put in ERROR, half deleted, spread over the VNFs
        instances = sorted(layout)
        step = max(1, len(instances) // args.drifts)
        for i, inst_id in enumerate(instances[::step][: args.drifts]):
            server = layout[inst_id][0]["computeResource"]["resourceId"]
            if i % 2:
                nova.set_status(server, "ERROR")
            else:
                nova.delete(server)
        start = time.perf_counter()
        drifted = one.run_cycle()
        out["drift_to_action_seconds"] = round(time.perf_counter() - start, 3)
        out["drift_cycle"] = {
            k: drifted[k] for k in ("drifted", "alarms_raised", "seconds")
        } | {"heals": len(drifted["heals"])}
        out["alarms_in_db"] = _count(cm.VnfAlarm.__table__)

        if args.one_conductor:
            print(json.dumps(out, indent=2, sort_keys=True))
            return
        # two conductors, one VIM: each lists it and converges its share
        nova.reset_calls()
        cfg.CONF.set_override("shard_by", "instance", group="convergence")
        pair = [_observer(h, ["c1", "c2"], []) for h in ("c1", "c2")]
        results: dict[str, dict] = {}

        def run(obs):
            results[obs.host] = obs.run_cycle()

        start = time.perf_counter()
        threads = [threading.Thread(target=run, args=(o,)) for o in pair]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        out["two_conductors"] = {
            "cycle_seconds": round(time.perf_counter() - start, 3),
            "per_conductor": {
                h: {k: r[k] for k in ("vims", "instances", "vnfcs", "seconds")}
                for h, r in results.items()
            },
            "vim_calls": nova.reset_calls(),
        }
    out["targets"] = {
        "one_conductor_under_20s": out["cycle_seconds_one_conductor"] < 20,
        "two_conductors_under_12s": out["two_conductors"]["cycle_seconds"]
        < 12,
    }
    print(json.dumps(out, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
