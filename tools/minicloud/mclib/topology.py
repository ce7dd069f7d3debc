"""Topology as data: zones -> hosts -> capacity, plus baseline flavors.

Source, first match wins: an explicit path, env ``MINICLOUD_TOPOLOGY``
(a path to a JSON/YAML file, or inline JSON), the default file.

``lanes`` (default 1; env ``MINICLOUD_LANES`` overrides) copies the zones
once per lane so that test sessions can run side by side, each on hosts
and zones of its own: lane 0 keeps the names as written (``AZ-1``,
``az1-cmp1``), lane N>0 prefixes them (``L1-AZ-1``, ``l1-az1-cmp1``).
:func:`expand` returns every lane's zones in ``zones`` (what Nova gets)
and the per-lane naming in ``lanes``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from mclib import MiniCloudError, paths

DEFAULT_FILE = paths.TOOL_DIR / "topology.default.json"
CAPACITY_KEYS = ("vcpus", "ram_mb", "disk_gb")
HOST_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
# fake.FakeDriverWithoutFakeNodes reports this much per host; minicloud
# carves each host's capacity out of it with reserved_host_* options.
FAKE_TOTAL = {"vcpus": 1000, "ram_mb": 800000, "disk_gb": 600000}
MAX_LANES = 8


def _parse(text: str, origin: str) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)
    try:
        import yaml
    except ImportError as exc:
        raise MiniCloudError(
            f"topology {origin} is not JSON and PyYAML is not installed"
        ) from exc
    return yaml.safe_load(text)


def load(source: str | os.PathLike | None = None) -> dict[str, Any]:
    """Load and validate a topology; see module docstring for sources."""
    src = source or os.environ.get("MINICLOUD_TOPOLOGY") or DEFAULT_FILE
    src = str(src)
    if src.lstrip().startswith("{"):
        data, origin = _parse(src, "from MINICLOUD_TOPOLOGY"), "inline"
    else:
        p = Path(src)
        if not p.is_file():
            raise MiniCloudError(f"topology file not found: {p}")
        data, origin = _parse(p.read_text(), str(p)), str(p)
    return validate(data, origin)


def validate(data: dict[str, Any], origin: str = "topology") -> dict:
    """Check shape and limits; return the normalised topology."""
    zones = data.get("zones")
    if not isinstance(zones, dict) or not zones:
        raise MiniCloudError(f"{origin}: 'zones' must be a non-empty map")
    seen: set[str] = set()
    out: dict[str, Any] = {"zones": {}, "flavors": {}}
    for zone, hosts in zones.items():
        if not isinstance(hosts, dict) or not hosts:
            raise MiniCloudError(f"{origin}: zone {zone} has no hosts")
        out["zones"][zone] = {}
        for host, cap in hosts.items():
            if not HOST_RE.match(host) or host in seen:
                raise MiniCloudError(f"{origin}: bad or repeated host {host}")
            seen.add(host)
            out["zones"][zone][host] = _capacity(cap, f"{origin}: {host}")
    lanes = data.get("lanes", 1)
    if os.environ.get("MINICLOUD_LANES"):
        lanes = int(os.environ["MINICLOUD_LANES"])
    if not isinstance(lanes, int) or not 1 <= lanes <= MAX_LANES:
        raise MiniCloudError(f"{origin}: lanes must be 1..{MAX_LANES}")
    out["lanes"] = lanes
    flavors = data.get("flavors")
    if flavors is None:
        flavors = json.loads(DEFAULT_FILE.read_text())["flavors"]
    for name, spec in flavors.items():
        out["flavors"][name] = _capacity(spec, f"{origin}: flavor {name}")
    return out


def _capacity(cap: Any, where: str) -> dict[str, int]:
    if not isinstance(cap, dict) or set(cap) != set(CAPACITY_KEYS):
        raise MiniCloudError(f"{where}: need exactly {CAPACITY_KEYS}")
    for k in CAPACITY_KEYS:
        v = cap[k]
        if not isinstance(v, int) or not 0 < v <= FAKE_TOTAL[k]:
            raise MiniCloudError(f"{where}: {k}={v!r} out of range")
    return {k: int(cap[k]) for k in CAPACITY_KEYS}


def hosts(topo: dict[str, Any]) -> dict[str, tuple[str, dict[str, int]]]:
    """host -> (zone, capacity)."""
    return {
        h: (z, cap) for z, hs in topo["zones"].items() for h, cap in hs.items()
    }


def reserved(cap: dict[str, int]) -> dict[str, int]:
    """nova.conf reserved_host_* values that leave exactly ``cap``."""
    return {
        "reserved_host_cpus": FAKE_TOTAL["vcpus"] - cap["vcpus"],
        "reserved_host_memory_mb": FAKE_TOTAL["ram_mb"] - cap["ram_mb"],
        "reserved_host_disk_mb": (FAKE_TOTAL["disk_gb"] - cap["disk_gb"])
        * 1024,
    }


def lane_prefixes(index: int) -> tuple[str, str]:
    """(zone prefix, host prefix) of lane ``index``; lane 0 has none."""
    return ("", "") if index == 0 else (f"L{index}-", f"l{index}-")


def expand(topo: dict[str, Any]) -> dict[str, Any]:
    """Every lane's zones and hosts under their real names.

    Returns ``{"zones": real zone -> real host -> capacity (all lanes),
    "flavors": ..., "lanes": [{"index", "zones": logical -> real,
    "hosts": logical host -> real host}, ...]}``. Idempotent on an
    expanded topology (``lanes`` already a list).
    """
    if isinstance(topo.get("lanes"), list):
        return topo
    zones: dict[str, Any] = {}
    lanes = []
    for index in range(topo.get("lanes", 1)):
        zone_prefix, host_prefix = lane_prefixes(index)
        lane = {"index": index, "zones": {}, "hosts": {}}
        for zone, hosts in topo["zones"].items():
            real_zone = zone_prefix + zone
            lane["zones"][zone] = real_zone
            zones[real_zone] = {}
            for host, cap in hosts.items():
                real_host = host_prefix + host
                lane["hosts"][host] = real_host
                zones[real_zone][real_host] = dict(cap)
        lanes.append(lane)
    return {"zones": zones, "flavors": topo["flavors"], "lanes": lanes}
