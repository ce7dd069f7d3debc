"""The measurement table: each SOL003 performance metric (ETSI GS NFV-IFA
027 clause 7.2 "Measurement Name") and the PromQL query that measures it.

One query per metric serves every VNF at once: the collector fills
``{vnf_instance_ids}`` with a regular expression matching all the VNF
instances its due jobs and thresholds cover and reads each series' labels
to tell them apart: ``vnfInstanceId`` and the sub-object label
(``vnfcId`` for VNFC metrics, ``cpId`` for connection point metrics).
The service discovery that makes Prometheus scrape a VNFC puts those
labels on its targets. The built-in queries read node_exporter metrics;
``[pm] measurements_file`` replaces a query or adds a metric (see
:mod:`tacker_ng.conf.pm`).

Templates are filled by name only: every other brace is PromQL's own
(``{mode="idle"}``), so queries are written as Prometheus reads them.
"""

import dataclasses
import os
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any

import yaml
from oslo_config import cfg

OBJECT_TYPES = ("Vnf", "Vnfc", "VnfIntCp", "VnfExtCp")
COMPUTE = ("Vnf", "Vnfc")
#: Measurement groups (IFA 027 "Measurement Group") and the object types
#: whose metrics they stand for.
GROUPS: Mapping[str, tuple[str, ...]] = {
    "VirtualisedComputeResource": COMPUTE,
    "VnfInternalCp": ("VnfIntCp",),
    "VnfExternalCp": ("VnfExtCp",),
}
VNFC_LABEL = "vnfcId"
CP_LABEL = "cpId"
PLACEHOLDERS = ("vnf_instance_ids", "collection_period")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
#: VNF instance ids are UUIDs: nothing in them is a regex metacharacter.
_SAFE_ID = re.compile(r"^[A-Za-z0-9-]+$")


@dataclasses.dataclass(frozen=True)
class Measurement:
    """One metric of the table."""

    name: str
    object_types: tuple[str, ...]
    group: str | None
    #: PromQL template (see the module docstring).
    query: str
    #: The label naming the sub-object of each series.
    sub_object_label: str
    #: Counts (bytes, packets) rather than ratios: reported as integers.
    integer: bool = False


def _selector(extra: str = "") -> str:
    return "{" + extra + 'vnfInstanceId=~"{vnf_instance_ids}"}'


_BY_VNFC = "by (vnfInstanceId, vnfcId)"
_WINDOW = "[{collection_period}s]"


def _cpu(peak: bool) -> str:
    idle = "node_cpu_seconds_total" + _selector('mode="idle",')
    if not peak:
        return f"100 * (1 - avg {_BY_VNFC} (rate({idle}{_WINDOW})))"
    return (
        f"100 * (1 - min {_BY_VNFC} (min_over_time((avg {_BY_VNFC} "
        f"(rate({idle}[1m])))[{{collection_period}}s:])))"
    )


def _ratio(free: str, size: str, extra: str, peak: bool) -> str:
    """Used share (percent) of a resource from its free and total size
    (memory, the root file system), mean or peak over the period."""
    low, high = ("min", "max") if peak else ("avg", "avg")
    over_low = "min_over_time" if peak else "avg_over_time"
    over_high = "max_over_time" if peak else "avg_over_time"
    return (
        f"100 * (1 - {low} {_BY_VNFC} ({over_low}({free}{_selector(extra)}"
        f"{_WINDOW})) / {high} {_BY_VNFC} ({over_high}({size}"
        f"{_selector(extra)}{_WINDOW})))"
    )


def _traffic(counter: str) -> str:
    series = counter + _selector('cpId!="",')
    return f"sum by (vnfInstanceId, cpId) (increase({series}{_WINDOW}))"


def _defaults() -> dict[str, Measurement]:
    table: dict[str, Measurement] = {}
    group = "VirtualisedComputeResource"
    for kind in ("Mean", "Peak"):
        peak = kind == "Peak"
        queries = {
            f"VCpuUsage{kind}Vnf": _cpu(peak),
            f"VMemoryUsage{kind}Vnf": _ratio(
                "node_memory_MemAvailable_bytes",
                "node_memory_MemTotal_bytes",
                "",
                peak,
            ),
            f"VDiskUsage{kind}Vnf": _ratio(
                "node_filesystem_avail_bytes",
                "node_filesystem_size_bytes",
                'mountpoint="/",',
                peak,
            ),
        }
        for name, query in queries.items():
            table[name] = Measurement(name, COMPUTE, group, query, VNFC_LABEL)
    counters = {
        "ByteIncoming": "node_network_receive_bytes_total",
        "ByteOutgoing": "node_network_transmit_bytes_total",
        "PacketIncoming": "node_network_receive_packets_total",
        "PacketOutgoing": "node_network_transmit_packets_total",
    }
    for cp, group in (
        ("VnfIntCp", "VnfInternalCp"),
        ("VnfExtCp", "VnfExternalCp"),
    ):
        for prefix, counter in counters.items():
            name = f"{prefix}{cp}"
            table[name] = Measurement(
                name, (cp,), group, _traffic(counter), CP_LABEL, integer=True
            )
    return table


#: The built-in table.
DEFAULTS: Mapping[str, Measurement] = _defaults()


class InvalidMeasurementsFile(ValueError):
    """``[pm] measurements_file`` says something the table cannot hold."""


def _entry(name: str, value: Any, base: Measurement | None) -> Measurement:
    if isinstance(value, str):
        value = {"query": value}
    if not isinstance(value, Mapping) or not isinstance(
        value.get("query"), str
    ):
        raise InvalidMeasurementsFile(f"{name}: a PromQL query is needed")
    types = tuple(
        value.get("objectTypes") or (base.object_types if base else ())
    )
    if not types or not set(types) <= set(OBJECT_TYPES):
        raise InvalidMeasurementsFile(
            f"{name}: objectTypes must be some of {', '.join(OBJECT_TYPES)}"
        )
    group = value.get("group", base.group if base else None)
    if group is not None and group not in GROUPS:
        raise InvalidMeasurementsFile(f"{name}: unknown group {group!r}")
    compute = set(types) <= set(COMPUTE)
    label = value.get("subObjectLabel") or (
        base.sub_object_label
        if base
        else (VNFC_LABEL if compute else CP_LABEL)
    )
    return Measurement(
        name,
        types,
        group,
        value["query"],
        label,
        bool(value.get("integer", base.integer if base else not compute)),
    )


def parse(document: Any) -> dict[str, Measurement]:
    """The table with ``document`` (the file's content) applied."""
    table = dict(DEFAULTS)
    if document is None:
        return table
    if not isinstance(document, Mapping):
        raise InvalidMeasurementsFile("the file must hold a mapping")
    for name, value in document.items():
        if not isinstance(name, str) or not re.fullmatch(
            r"[A-Za-z][\w]*", name
        ):
            raise InvalidMeasurementsFile(f"{name!r} is not a metric name")
        table[name] = _entry(name, value, DEFAULTS.get(name))
    return table


_CACHE: dict[str, tuple[float, dict[str, Measurement]]] = {}
_LOCK = threading.Lock()


def table(conf: cfg.ConfigOpts = cfg.CONF) -> Mapping[str, Measurement]:
    """The measurement table in force (the file read again when changed)."""
    path = conf.pm.measurements_file
    if not path:
        return DEFAULTS
    mtime = os.stat(path).st_mtime
    with _LOCK:
        cached = _CACHE.get(path)
        if cached is None or cached[0] != mtime:
            with open(path, encoding="utf-8") as f:
                cached = (mtime, parse(yaml.safe_load(f)))
            _CACHE[path] = cached
        return cached[1]


def render(
    query: str, vnf_instance_ids: Iterable[str], collection_period: int
) -> str:
    """A runnable PromQL query from a template of the table."""
    ids = sorted(set(vnf_instance_ids))
    if not ids:
        raise ValueError("no VNF instance to measure")
    for vnf_id in ids:
        if not _SAFE_ID.match(vnf_id):
            raise ValueError(f"{vnf_id!r} is not a VNF instance id")
    values = {
        "vnf_instance_ids": "|".join(ids),
        "collection_period": str(int(collection_period)),
    }
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], query)


def metrics_of_group(
    group: str, object_type: str, measurements: Mapping[str, Measurement]
) -> list[str]:
    """The metric names a measurement group stands for."""
    return sorted(
        m.name
        for m in measurements.values()
        if m.group == group and object_type in m.object_types
    )


@dataclasses.dataclass(frozen=True)
class Requested:
    """One metric a PM job asks for, as its reports name it."""

    #: The name in report entries: as the job wrote it (maybe with an
    #: ``.<objectInstanceId>`` suffix), or the group member's name.
    reported_as: str
    measurement: Measurement
    #: The one object instance the name is limited to (its suffix).
    object_instance_id: str | None


def requested(
    criteria: Mapping[str, Any],
    object_type: str,
    measurements: Mapping[str, Measurement],
) -> list[Requested]:
    """The metrics of a job's PmJobCriteria, groups expanded, each once;
    names the table no longer holds are skipped."""
    out: dict[str, Requested] = {}
    for metric in criteria.get("performanceMetric") or []:
        name, dot, instance_id = metric.partition(".")
        found = measurements.get(name)
        if found is not None and object_type in found.object_types:
            out.setdefault(
                metric, Requested(metric, found, instance_id if dot else None)
            )
    for group in criteria.get("performanceMetricGroup") or []:
        for name in metrics_of_group(group, object_type, measurements):
            out.setdefault(name, Requested(name, measurements[name], None))
    return list(out.values())
