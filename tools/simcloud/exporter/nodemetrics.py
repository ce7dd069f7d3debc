"""Metrics of one simulated VNFC, shaped like Prometheus's node exporter.

Names, label sets and types are node_exporter 1.5's (Debian 12's
``prometheus-node-exporter``) for the series tacker-ng's measurement table
queries (``tacker_ng/pm/measurements.py``): ``node_cpu_seconds_total``
by ``cpu`` and ``mode``, ``node_memory_{MemTotal,MemAvailable,MemFree,
Buffers,Cached}_bytes``, ``node_filesystem_{size,avail,free}_bytes`` and
``node_filesystem_{files,files_free,readonly}`` by ``device``,
``fstype``, ``mountpoint``, and ``node_network_{receive,transmit}_
{bytes,packets}_total`` by ``device``. So one PromQL reads a real node
exporter in a test VM and this stand-in alike.

Values are what a test sets. Counters may also advance at a rate (per
second of wall time, e.g. ``cpu_busy``), so ``rate()`` has something to
measure; a counter's value is computed when it is read, never stored by
a background thread. Pure logic: no I/O (the HTTP side is
:mod:`tools.simcloud.exporter.server`).
"""

from __future__ import annotations

import copy
import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

CPU_MODES = (
    "idle",
    "iowait",
    "irq",
    "nice",
    "softirq",
    "steal",
    "system",
    "user",
)
MEMORY_FIELDS = ("MemTotal", "MemAvailable", "MemFree", "Buffers", "Cached")
FS_FIELDS = ("size", "avail", "free", "files", "files_free", "readonly")
NET_FIELDS = (
    "receive_bytes",
    "transmit_bytes",
    "receive_packets",
    "transmit_packets",
)
GIB = 1024**3
MIB = 1024**2

HELP = {
    "node_cpu_seconds_total": "Seconds the CPUs spent in each mode.",
    "node_filesystem_size_bytes": "Filesystem size in bytes.",
    "node_filesystem_avail_bytes": (
        "Filesystem space available to non-root users in bytes."
    ),
    "node_filesystem_free_bytes": "Filesystem free space in bytes.",
    "node_filesystem_files": "Filesystem total file nodes.",
    "node_filesystem_files_free": "Filesystem total free file nodes.",
    "node_filesystem_readonly": "Filesystem read-only status.",
}


class InvalidSpec(ValueError):
    """A control request asked for something this model cannot hold."""


@dataclasses.dataclass
class Counter:
    """A counter's value: ``base`` at ``since``, growing at ``rate``/s."""

    base: float = 0.0
    rate: float = 0.0
    since: float = 0.0

    def value(self, now: float) -> float:
        return self.base + self.rate * max(0.0, now - self.since)

    def set(
        self, now: float, value: float | None = None, rate: float | None = None
    ) -> None:
        current = self.value(now)
        if value is not None:
            if value < 0 or not math.isfinite(value):
                raise InvalidSpec(f"counter value {value} is not >= 0")
            current = value
        if rate is not None:
            if rate < 0 or not math.isfinite(rate):
                raise InvalidSpec(f"counter rate {rate} is not >= 0")
            self.rate = rate
        self.base, self.since = current, now


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidSpec(f"{what} must be a number, not {value!r}")
    if not math.isfinite(value) or value < 0:
        raise InvalidSpec(f"{what} must be finite and >= 0")
    return float(value)


def _fmt(value: float) -> str:
    """The exposition format's number: shortest exact text."""
    if value == int(value) and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _labels(**labels: str) -> str:
    def esc(v: str) -> str:
        return v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')

    inner = ",".join(f'{k}="{esc(v)}"' for k, v in sorted(labels.items()))
    return "{" + inner + "}" if inner else ""


class NodeMetrics:
    """The node-exporter series of one VNFC, settable by a test."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        now = clock()
        self.cpus = 2
        self.cpu = {mode: Counter(since=now) for mode in CPU_MODES}
        self.memory = {
            "MemTotal": 4.0 * GIB,
            "MemAvailable": 3.0 * GIB,
            "MemFree": 2.5 * GIB,
            "Buffers": 100.0 * MIB,
            "Cached": 400.0 * MIB,
        }
        self.filesystems: dict[str, dict[str, Any]] = {
            "/": {
                "device": "/dev/vda1",
                "fstype": "ext4",
                "size": 20.0 * GIB,
                "avail": 15.0 * GIB,
                "free": 16.0 * GIB,
                "files": 1310720.0,
                "files_free": 1200000.0,
                "readonly": 0.0,
            }
        }
        self.network: dict[str, dict[str, Counter]] = {}
        self._add_device("eth0", now)
        # A VNFC up for a while (counters far from zero: rate() does not
        # extrapolate past a counter's zero), idle now.
        for mode, seconds in (("idle", 10000.0), ("user", 500.0),
                              ("system", 200.0)):  # fmt: skip
            self.cpu[mode].base = seconds
        self.cpu["idle"].rate = 1.0

    def _add_device(self, device: str, now: float) -> dict[str, Counter]:
        if not device or "/" in device:
            raise InvalidSpec(f"bad network device name {device!r}")
        return self.network.setdefault(
            device, {f: Counter(since=now) for f in NET_FIELDS}
        )

    # -- control -------------------------------------------------------
    def apply(self, spec: Mapping[str, Any]) -> None:
        """Merge a control request into the state; all or nothing.

        Keys: ``cpus`` (int); ``cpu_busy`` (0..1: each CPU's user time
        grows at this rate, its idle time at the rest); ``cpu_seconds``
        ({mode: seconds of each CPU}); ``memory`` ({MemTotal: bytes,
        ...}); ``filesystems`` ({mountpoint: {size, avail, free, device,
        fstype, ...}}, a null value removes one); ``network`` ({device:
        {receive_bytes: n, ...}}) and ``network_rates`` ({device:
        {receive_bytes: per second, ...}}); a null device removes it.
        """
        unknown = set(spec) - {
            "cpus",
            "cpu_busy",
            "cpu_seconds",
            "memory",
            "filesystems",
            "network",
            "network_rates",
        }
        if unknown:
            raise InvalidSpec(f"unknown keys: {', '.join(sorted(unknown))}")
        # Validate everything on a copy (sharing the clock) before
        # changing anything.
        trial = copy.deepcopy(self, {id(self._clock): self._clock})
        trial._apply(spec, self._clock())
        self.__dict__.update(trial.__dict__)

    def _apply(self, spec: Mapping[str, Any], now: float) -> None:
        if "cpus" in spec:
            cpus = spec["cpus"]
            if not isinstance(cpus, int) or isinstance(cpus, bool) or cpus < 1:
                raise InvalidSpec("cpus must be an integer >= 1")
            self.cpus = cpus
        if "cpu_busy" in spec:
            busy = _number(spec["cpu_busy"], "cpu_busy")
            if busy > 1:
                raise InvalidSpec("cpu_busy is a share: 0..1")
            for mode in CPU_MODES:
                rate = {"idle": 1.0 - busy, "user": busy}.get(mode, 0.0)
                self.cpu[mode].set(now, rate=rate)
        for mode, seconds in dict(spec.get("cpu_seconds") or {}).items():
            if mode not in self.cpu:
                raise InvalidSpec(f"unknown CPU mode {mode!r}")
            self.cpu[mode].set(now, value=_number(seconds, f"cpu {mode}"))
        for field, value in dict(spec.get("memory") or {}).items():
            if field not in MEMORY_FIELDS:
                raise InvalidSpec(f"unknown memory field {field!r}")
            self.memory[field] = _number(value, field)
        for mount, fs in dict(spec.get("filesystems") or {}).items():
            self._apply_fs(mount, fs)
        for key, counters in (("network", "value"), ("network_rates", "rate")):
            for device, fields in dict(spec.get(key) or {}).items():
                if fields is None:
                    self.network.pop(device, None)
                    continue
                entry = self._add_device(device, now)
                for field, number in dict(fields).items():
                    if field not in NET_FIELDS:
                        raise InvalidSpec(f"unknown network field {field!r}")
                    entry[field].set(now, **{counters: _number(number, field)})

    def _apply_fs(self, mount: str, fs: Mapping[str, Any] | None) -> None:
        if not mount.startswith("/"):
            raise InvalidSpec(f"mountpoint {mount!r} is not absolute")
        if fs is None:
            self.filesystems.pop(mount, None)
            return
        entry = self.filesystems.setdefault(
            mount,
            {"device": "/dev/vdb", "fstype": "ext4", "readonly": 0.0}
            | {f: 0.0 for f in FS_FIELDS if f != "readonly"},
        )
        for field, value in fs.items():
            if field in ("device", "fstype"):
                if not isinstance(value, str) or not value:
                    raise InvalidSpec(f"{field} must be a non-empty string")
                entry[field] = value
            elif field in FS_FIELDS:
                entry[field] = _number(value, field)
            else:
                raise InvalidSpec(f"unknown filesystem field {field!r}")

    def snapshot(self) -> dict[str, Any]:
        """The current values, in the shape :meth:`apply` takes."""
        now = self._clock()
        return {
            "cpus": self.cpus,
            "cpu_seconds": {m: c.value(now) for m, c in self.cpu.items()},
            "cpu_rates": {m: c.rate for m, c in self.cpu.items()},
            "memory": dict(self.memory),
            "filesystems": copy.deepcopy(self.filesystems),
            "network": {
                d: {f: c.value(now) for f, c in fields.items()}
                for d, fields in self.network.items()
            },
            "network_rates": {
                d: {f: c.rate for f, c in fields.items()}
                for d, fields in self.network.items()
            },
        }

    # -- exposition ----------------------------------------------------
    def render(self) -> str:
        """The Prometheus text format (version 0.0.4) of every series."""
        now = self._clock()
        out: list[str] = []

        def family(name: str, kind: str, help_text: str) -> None:
            out.append(f"# HELP {name} {help_text}")
            out.append(f"# TYPE {name} {kind}")

        family(
            "node_cpu_seconds_total", "counter", HELP["node_cpu_seconds_total"]
        )
        for cpu in range(self.cpus):
            for mode in CPU_MODES:
                value = self.cpu[mode].value(now)
                out.append(
                    f"node_cpu_seconds_total{_labels(cpu=str(cpu), mode=mode)}"
                    f" {_fmt(value)}"
                )
        for field in MEMORY_FIELDS:
            name = f"node_memory_{field}_bytes"
            family(name, "gauge", f"Memory information field {field}_bytes.")
            out.append(f"{name} {_fmt(self.memory[field])}")
        for field in FS_FIELDS:
            suffix = (
                "" if field.startswith(("files", "readonly")) else "_bytes"
            )
            name = f"node_filesystem_{field}{suffix}"
            family(name, "gauge", HELP[name])
            for mount, fs in sorted(self.filesystems.items()):
                labels = _labels(
                    device=fs["device"], fstype=fs["fstype"], mountpoint=mount
                )
                out.append(f"{name}{labels} {_fmt(fs[field])}")
        for field in NET_FIELDS:
            name = f"node_network_{field}_total"
            direction, unit = field.split("_")
            family(
                name,
                "counter",
                f"Network device statistic {direction}_{unit}.",
            )
            for device, counters in sorted(self.network.items()):
                value = counters[field].value(now)
                out.append(f"{name}{_labels(device=device)} {_fmt(value)}")
        return "\n".join(out) + "\n"
