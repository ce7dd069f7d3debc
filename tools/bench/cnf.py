"""Benchmark: instantiate and terminate a 100-pod CNF on simk8s.

The cnf_deployment sample with vdu1 at 98 replicas and vdu2 at 2 (its
required zone anti-affinity) goes through the real Kubernetes driver,
granted like the conductor does it (GrantRequest from the VNFD, the
local NFVO's Grant), against the Kubernetes API simulator
(tools/simcloud/k8s) with 3 nodes in 3 zones. Reports the wall time and
the VNFM's own time: the operation's wall time minus the time inside
HTTP calls to the API server (timed in the ApiClient) minus the sleeps
between polls. Prints one JSON object.

    python tools/bench/cnf.py [--runs 3] [--pods 100] [--ready-delay 0.2]
        [--cold [--warm-up]]

``--cold`` measures a fresh conductor's first operation: the process has
imported what ``tacker-ng-conductor`` imports at start, the driver is
found through the registry (entry points) as the conductor finds it, and
that lookup counts in the first run's VNFM time (``driver_lookup_s``).
``--warm-up`` then runs the conductor's start-up warm-up
(:mod:`tacker_ng.conductor.warmup`) first, as a conductor that started a
few seconds before its first operation has. ``first_run_vnfm_own_pct``
against ``last_run_vnfm_own_pct`` is the cold-start penalty.
"""

import argparse
import copy
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

import yaml  # noqa: E402
from oslo_config import cfg  # noqa: E402

from tacker_ng import conf as _conf  # noqa: E402,F401
from tacker_ng.infra import base, registry  # noqa: E402
from tacker_ng.nfvo import grant_request, local  # noqa: E402
from tacker_ng.objects import lcm  # noqa: E402
from tacker_ng.packages import builder, csar  # noqa: E402
from tacker_ng.tests.functional.fixtures import simk8s  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "vnf_packages" / "cnf_deployment"
VNFD = "Definitions/cnf_deployment.vnfd.yaml"
Op = lcm.Operation


def _package(tmp: Path, pods: int) -> csar.CsarContents:
    """The sample with ``pods - 2`` vdu1 replicas at the default level."""
    src = tmp / "src"
    shutil.copytree(SAMPLE, src)
    doc = yaml.safe_load((src / VNFD).read_text())
    topology = doc["topology_template"]
    vdu1 = topology["node_templates"]["VDU1"]["properties"]
    vdu1["vdu_profile"]["max_number_of_instances"] = pods
    for policy in topology["policies"]:
        if "vdu1_instantiation_levels" in policy:
            levels = policy["vdu1_instantiation_levels"]["properties"]
            levels["levels"]["instantiation_level_1"][
                "number_of_instances"
            ] = pods - 2
    (src / VNFD).write_text(yaml.safe_dump(doc, sort_keys=False))
    data = builder.build_csar_bytes(src)
    return csar.extract_csar(io.BytesIO(data), tmp / "pkg")


K8S = "ETSINFV.KUBERNETES.V_1"


def _run(driver, package, instance, op: Op, request: dict) -> dict:
    lookup = time.perf_counter()
    if driver is None:
        driver = registry.get_driver(K8S)
    lookup = time.perf_counter() - lookup
    occ_id = str(uuid.uuid4())
    body = grant_request.build(
        op, package.vnfd, instance, occ_id, request, "simple"
    )
    vim = instance["vimConnectionInfo"]["k8s"]
    grant = local.grant(body, "k8s", driver.list_zones(vim), {})
    task = base.LcmTask(
        context=None,
        operation=op,
        op_occ_id=occ_id,
        instance=copy.deepcopy(instance),
        request=request,
        vnfd=package.vnfd,
        package_root=package.root,
        grant_request=body,
        grant=grant,
        progress={},
        save_progress=lambda: None,
        cancel_requested=lambda: None,
    )
    started = time.perf_counter()
    result = getattr(driver, base.METHODS[op])(task)
    wall = time.perf_counter() - started
    if result.instantiated_vnf_info is not None:
        instance["instantiatedVnfInfo"] = result.instantiated_vnf_info
    timing = dict(driver.last_timing)
    # Finding (and on a cold process: importing) the driver is the
    # VNFM's own time of the operation, as in a conductor.
    timing["vnfm_s"] = round(timing["vnfm_s"] + lookup, 4)
    timing["total_s"] = round(timing["total_s"] + lookup, 4)
    own = timing["vnfm_s"]
    return {
        "wall_s": round(wall + lookup, 3),
        "driver_lookup_s": round(lookup, 4),
        **timing,
        "vnfm_own_pct": round(100 * own / timing["total_s"], 2),
        "vnfm_own_pct_of_wait": round(
            100 * own / max(timing["client_s"] + timing["poll_wait_s"], 1e-9),
            2,
        ),
        "vnfcs": len(
            (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo")
            or []
        ),
    }


def _one(sim, package, cold: bool = False) -> dict:
    instance = {
        "id": str(uuid.uuid4()),
        "vnfdId": package.vnfd.descriptor_id,
        "vimConnectionInfo": {
            "k8s": {
                "vimId": "k8s",
                "vimType": "ETSINFV.KUBERNETES.V_1",
                "interfaceInfo": {
                    "endpoint": sim.endpoint,
                    "ssl_ca_cert": Path(sim.ca_path).read_text(),
                },
                "accessInfo": {"bearer_token": sim.token},
            }
        },
    }
    # Cold: the conductor's one driver instance, found when first needed.
    driver = None if cold else registry.get_driver(K8S).__class__()
    instantiate = _run(
        driver,
        package,
        instance,
        Op.INSTANTIATE,
        {
            "flavourId": "simple",
            "additionalParams": {"namespace": f"bench-{instance['id'][:8]}"},
        },
    )
    terminate = _run(
        driver,
        package,
        instance,
        Op.TERMINATE,
        {"terminationType": "FORCEFUL"},
    )
    return {"instantiate": instantiate, "terminate": terminate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pods", type=int, default=100)
    parser.add_argument("--ready-delay", type=float, default=0.2)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--warm-up", action="store_true")
    args = parser.parse_args()
    conf = cfg.CONF
    conf([], project="tacker_ng", default_config_files=[])
    warm = None
    if args.cold:
        # What tacker-ng-conductor has imported when it starts serving.
        from tacker_ng.conductor import (
            service,  # noqa: F401
            warmup,
        )

        if args.warm_up:
            warm = warmup.warm_up(conf)
    with tempfile.TemporaryDirectory() as tmp:
        package = _package(Path(tmp), args.pods)
        with simk8s.running(
            *simk8s.ZONES, "--ready-delay", str(args.ready_delay)
        ) as sim:
            runs = [_one(sim, package, args.cold) for _ in range(args.runs)]
    inst = [r["instantiate"] for r in runs]
    print(
        json.dumps(
            {
                "benchmark": "cnf",
                "pods": args.pods,
                "nodes": 3,
                "simk8s_ready_delay_s": args.ready_delay,
                "runs": runs,
                "instantiate_wall_s_median": round(
                    statistics.median(r["wall_s"] for r in inst), 3
                ),
                "instantiate_vnfm_own_pct_max": max(
                    r["vnfm_own_pct"] for r in inst
                ),
                "instantiate_vnfm_own_pct_of_wait_max": max(
                    r["vnfm_own_pct_of_wait"] for r in inst
                ),
                "vnfm_own_goal_pct": 5.0,
                "cold_process": args.cold,
                "warm_up_s": warm,
                "first_run_vnfm_own_pct": inst[0]["vnfm_own_pct"],
                "last_run_vnfm_own_pct": inst[-1]["vnfm_own_pct"],
                "first_run_vnfm_s": inst[0]["vnfm_s"],
                "last_run_vnfm_s": inst[-1]["vnfm_s"],
                "load_average": [round(x, 2) for x in os.getloadavg()],
                "poll_interval_s": [
                    conf.kubernetes.poll_interval,
                    conf.kubernetes.poll_max_interval,
                ],
            }
        )
    )


if __name__ == "__main__":
    main()
