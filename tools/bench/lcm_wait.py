"""Benchmark: what a lifecycle operation on minicloud spends waiting.

Runs instantiate, scale out, heal (one VNFC) and terminate of the spec's
example VNF (4 VNFCs, then 6) through the real OpenStack driver on real
Heat + Nova, every zone free, and splits each operation's wall time into

* ``heat_s``: Heat's own time for the stack action (its events: the
  "started" event to the end event; 1 s resolution),
* ``poll_latency_s``: from Heat ending the action to the status poll
  that saw it (what the poll interval adds),
* ``client_s``: time inside HTTP calls to Keystone/Heat/Nova,
* ``vnfm_s``: the rest (the VNFM's own work),

once with the poll settings given (default: tacker-ng's defaults) so
that two settings can be compared. Prints one JSON object.

    python tools/bench/lcm_wait.py [--interval 0.2 --max-interval 1]

minicloud must be up; the bench holds one lane of it (as a test session
does) and resets that lane before and after.
"""

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(
    0,
    os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ),
)

from oslo_config import cfg  # noqa: E402

from tacker_ng import conf as _conf  # noqa: E402,F401
from tacker_ng.tests.functional.fixtures import minicloud as mc  # noqa: E402
from tacker_ng.tests.functional.fixtures.minicloud_api import (  # noqa: E402
    MiniCloud,
)
from tacker_ng.tests.functional.openstack import env  # noqa: E402


def _ts(text: str) -> float:
    return datetime.datetime.fromisoformat(
        text.replace("Z", "+00:00")
    ).timestamp()


def _heat_actions(cloud, vnf, since: float) -> list[tuple[float, float]]:
    """(start, end) of each root stack action that started after
    ``since`` (Heat's event times)."""
    name = vnf.stack_name
    events = sorted(
        (
            e
            for e in cloud.heat().events.list(name)
            if e.resource_name == name and _ts(e.event_time) >= since - 1
        ),
        key=lambda e: (e.event_time, e.id),
    )
    out, start = [], None
    for e in events:
        reason = e.resource_status_reason or ""
        if reason.endswith(" started"):
            start = _ts(e.event_time)
        elif start is not None and e.resource_status.endswith(
            ("_COMPLETE", "_FAILED")
        ):
            out.append((start, _ts(e.event_time)))
            start = None
    return out


def _one(cloud, vnf, op, request) -> dict:
    started_at = time.time()
    t0 = time.perf_counter()
    vnf.run(op, request)
    wall = time.perf_counter() - t0
    timing = dict(vnf.driver.last_timing or {})
    actions = (
        [] if op == env.Op.TERMINATE else _heat_actions(cloud, vnf, started_at)
    )
    seen = [a["observed_at"] for a in vnf.attempts() if "observed_at" in a]
    latency = sum(
        max(o - end, 0.0) for o, (_, end) in zip(seen, actions, strict=False)
    )
    heat = sum(end - start for start, end in actions)
    return {
        "operation": op.value,
        "wall_s": round(wall, 2),
        "heat_s": round(heat, 1) if actions else None,
        "poll_latency_s": round(latency, 1) if actions else None,
        "poll_wait_s": timing.get("poll_wait_s"),
        "client_s": timing.get("client_s"),
        "vnfm_s": timing.get("vnfm_s"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--interval", type=float)
    parser.add_argument("--max-interval", type=float)
    args = parser.parse_args()
    conf = cfg.CONF
    conf([], project="tacker_ng", default_config_files=[])
    if args.interval is not None:
        conf.set_override("stack_poll_interval", args.interval, "openstack")
    if args.max_interval is not None:
        conf.set_override(
            "stack_poll_max_interval", args.max_interval, "openstack"
        )
    state = json.loads((mc.HOME / "state.json").read_text())
    with (
        mc.hold_lane(MiniCloud.lane_count(state)) as lane,
        tempfile.TemporaryDirectory() as tmp,
    ):
        cloud = MiniCloud(state, lane)
        conf.set_override(
            "availability_zones", cloud.real_zones(), group="openstack"
        )
        cloud.reset()
        src = env.spec_package_source(Path(tmp) / "src", "minicloud-image")
        package = env.onboard(src, Path(tmp) / "pkg")
        vnf = env.Vnf(cloud, package)
        ops = []
        try:
            ops.append(
                _one(
                    cloud,
                    vnf,
                    env.Op.INSTANTIATE,
                    {
                        "flavourId": "simple",
                        "extVirtualLinks": env.ext_links(cloud),
                    },
                )
            )
            ops.append(
                _one(
                    cloud,
                    vnf,
                    env.Op.SCALE,
                    {"type": "SCALE_OUT", "aspectId": "VDU2_scale"},
                )
            )
            vnfc = vnf.vnfcs()["VDU1-0"]["id"]
            ops.append(
                _one(cloud, vnf, env.Op.HEAL, {"vnfcInstanceId": [vnfc]})
            )
            ops.append(
                _one(
                    cloud,
                    vnf,
                    env.Op.TERMINATE,
                    {"terminationType": "FORCEFUL"},
                )
            )
        finally:
            cloud.reset()
    stacked = [o for o in ops if o["heat_s"] is not None]
    wall = sum(o["wall_s"] for o in stacked)
    latency = sum(o["poll_latency_s"] for o in stacked)
    print(
        json.dumps(
            {
                "benchmark": "lcm_wait",
                "stack_poll_interval_s": [
                    conf.openstack.stack_poll_interval,
                    conf.openstack.stack_poll_max_interval,
                ],
                "operations": ops,
                "stack_ops_wall_s": round(wall, 1),
                "stack_ops_heat_s": round(
                    sum(o["heat_s"] for o in stacked), 1
                ),
                "stack_ops_poll_latency_s": round(latency, 1),
                "poll_latency_pct": round(100 * latency / wall, 1),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
