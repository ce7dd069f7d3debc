"""What a PM job or threshold request must satisfy beyond its jsonschema
(SOL003 6.5.2.6 CreatePmJobRequest, 6.5.2.8 CreateThresholdRequest).

Pure rules: the caller hands in the measurement table, the limits of
``[pm]`` and the VNF instance rows the request names (already scoped to
the caller's project, so another project's instance is as absent as a
deleted one). Every violation is a 422 naming the attribute at fault.

A performance metric is a name of the table, alone or followed by
``.<objectInstanceId>`` (python-tackerclient's samples and Tacker write
``VCpuUsageMeanVnf.<vnfInstanceId>``); the suffix must name an object
instance of the request.
"""

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from tacker_ng import exceptions
from tacker_ng.pm import measurements as m


class InvalidPmRequest(exceptions.UnprocessableEntity):
    message = "The request cannot be processed."


def split_metric(metric: str) -> tuple[str, str | None]:
    """(measurement name, object instance id or None) of a metric."""
    name, dot, instance_id = metric.partition(".")
    return name, (instance_id if dot else None)


def _check_metric(
    metric: str,
    object_type: str,
    object_ids: Sequence[str],
    table: Mapping[str, m.Measurement],
    where: str,
) -> None:
    name, instance_id = split_metric(metric)
    known = table.get(name)
    if known is None:
        raise InvalidPmRequest(
            f"{where}: {name!r} is not a performance metric tacker-ng "
            f"measures; known: {', '.join(sorted(table))}."
        )
    if object_type not in known.object_types:
        raise InvalidPmRequest(
            f"{where}: {name} measures objects of type "
            f"{', '.join(known.object_types)}, not {object_type}."
        )
    if instance_id is not None and instance_id not in object_ids:
        raise InvalidPmRequest(
            f"{where}: {metric!r} names {instance_id!r}, which is not an "
            "object instance of this request."
        )


def parse_time(text: str, where: str) -> datetime.datetime:
    """A SOL date-time (RFC 3339 with an offset) as an aware datetime."""
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise InvalidPmRequest(
            f"{where}: {text!r} is not a date-time with a time zone "
            "(e.g. 2026-12-01T00:00:00Z)."
        )
    return value.astimezone(datetime.UTC)


def check_pm_job(
    body: Mapping[str, Any],
    table: Mapping[str, m.Measurement],
    *,
    min_collection_period: int,
    max_reporting_period: int,
    now: datetime.datetime,
) -> datetime.datetime | None:
    """Check a CreatePmJobRequest; returns its reportingBoundary."""
    object_type = body["objectType"]
    object_ids = body["objectInstanceIds"]
    criteria = body["criteria"]
    for metric in criteria.get("performanceMetric") or []:
        _check_metric(
            metric, object_type, object_ids, table,
            "criteria.performanceMetric",
        )  # fmt: skip
    for group in criteria.get("performanceMetricGroup") or []:
        if object_type not in m.GROUPS.get(group, ()):
            raise InvalidPmRequest(
                f"criteria.performanceMetricGroup: {group!r} is no "
                f"measurement group of {object_type} objects; known: "
                + ", ".join(g for g, t in m.GROUPS.items() if object_type in t)
                + "."
            )
    collection = criteria["collectionPeriod"]
    reporting = criteria["reportingPeriod"]
    if collection < min_collection_period:
        raise InvalidPmRequest(
            f"criteria.collectionPeriod: {collection} s is shorter than "
            f"{min_collection_period} s, the shortest collected here."
        )
    if reporting % collection:
        raise InvalidPmRequest(
            f"criteria.reportingPeriod: {reporting} s is not a multiple of "
            f"the collectionPeriod ({collection} s)."
        )
    if reporting > max_reporting_period:
        raise InvalidPmRequest(
            f"criteria.reportingPeriod: {reporting} s is longer than "
            f"{max_reporting_period} s, the longest reported here."
        )
    if body.get("subObjectInstanceIds") and len(object_ids) != 1:
        raise InvalidPmRequest(
            "subObjectInstanceIds needs exactly one objectInstanceIds "
            f"element, not {len(object_ids)}."
        )
    boundary = criteria.get("reportingBoundary")
    if boundary is None:
        return None
    when = parse_time(boundary, "criteria.reportingBoundary")
    if when <= now:
        raise InvalidPmRequest(
            f"criteria.reportingBoundary: {boundary} is not in the future."
        )
    return when


def check_threshold(
    body: Mapping[str, Any],
    table: Mapping[str, m.Measurement],
    *,
    min_hysteresis: float,
) -> None:
    """Check a CreateThresholdRequest."""
    criteria = body["criteria"]
    _check_metric(
        criteria["performanceMetric"],
        body["objectType"],
        [body["objectInstanceId"]],
        table,
        "criteria.performanceMetric",
    )
    details = criteria["simpleThresholdDetails"]
    if details["hysteresis"] < min_hysteresis:
        raise InvalidPmRequest(
            "criteria.simpleThresholdDetails.hysteresis: "
            f"{details['hysteresis']} is below {min_hysteresis}, the "
            "smallest accepted here."
        )


def sub_objects(object_type: str, instance: Mapping[str, Any]) -> set[str]:
    """The sub-object ids of an object instance (a VNF instance row) for
    ``object_type``: its VNFCs for Vnf and Vnfc, its VNFC connection
    points for VnfIntCp, its external connection points for VnfExtCp."""
    info = instance.get("instantiated_vnf_info") or {}
    vnfcs = info.get("vnfcResourceInfo") or []
    if object_type in m.COMPUTE:
        return {v["id"] for v in vnfcs}
    if object_type == "VnfIntCp":
        return {cp["id"] for v in vnfcs for cp in v.get("vnfcCpInfo") or []}
    return {cp["id"] for cp in info.get("extCpInfo") or []}


def check_objects(
    object_type: str,
    object_instance_ids: Sequence[str],
    sub_object_instance_ids: Sequence[str] | None,
    instances: Mapping[str, Mapping[str, Any]],
    where: str = "objectInstanceIds",
) -> None:
    """Every object instance is an instantiated VNF instance the caller
    sees (``instances``: id -> row), every sub-object one of its own."""
    for instance_id in object_instance_ids:
        row = instances.get(instance_id)
        if row is None:
            raise InvalidPmRequest(
                f"{where}: VNF instance {instance_id} does not exist."
            )
        if row["instantiation_state"] != "INSTANTIATED":
            raise InvalidPmRequest(
                f"{where}: VNF instance {instance_id} is not instantiated: "
                "it has nothing to measure."
            )
    if not sub_object_instance_ids:
        return
    owner = instances[object_instance_ids[0]]
    known = sub_objects(object_type, owner)
    kind = "a VNFC" if object_type in m.COMPUTE else "a connection point"
    for sub_id in sub_object_instance_ids:
        if sub_id not in known:
            raise InvalidPmRequest(
                f"subObjectInstanceIds: {sub_id!r} is not {kind} of VNF "
                f"instance {owner['id']}."
            )
