"""SOL003 clause 6 representations and notifications, built from rows.

Pure: the API and the collector's publishing steps both call these, so a
PmJob, a Threshold, a PerformanceReport and the two notifications look
the same wherever they come from. ``authentication`` is write-only
(SOL013): no representation carries it.
"""

import datetime
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tacker_ng.objects import times, views

PM_PREFIX = "/vnfpm/v2"
PERFORMANCE_INFORMATION_AVAILABLE = (
    "PerformanceInformationAvailableNotification"
)
THRESHOLD_CROSSED = "ThresholdCrossedNotification"
NOTIFICATION_TYPES = (PERFORMANCE_INFORMATION_AVAILABLE, THRESHOLD_CROSSED)


def _link(href: str) -> dict[str, str]:
    return {"href": href}


def job_href(base: str, job_id: str) -> str:
    return f"{base}{PM_PREFIX}/pm_jobs/{job_id}"


def report_href(base: str, job_id: str, report_id: str) -> str:
    return f"{job_href(base, job_id)}/reports/{report_id}"


def threshold_href(base: str, threshold_id: str) -> str:
    return f"{base}{PM_PREFIX}/thresholds/{threshold_id}"


def instance_href(base: str, instance_id: str) -> str:
    return f"{base}{views.LCM_PREFIX}/vnf_instances/{instance_id}"


def report_reference(base: str, report: Mapping[str, Any]) -> dict[str, Any]:
    """One element of PmJob.reports (SOL003 6.5.2.7)."""
    ref = {
        "href": report_href(base, report["job_id"], report["id"]),
        "readyTime": times.sol_time(report["ready_time"]),
    }
    if report.get("expiry_time") is not None:
        ref["expiryTime"] = times.sol_time(report["expiry_time"])
    return ref


def pm_job_view(
    base: str,
    row: Mapping[str, Any],
    reports: Iterable[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """A PmJob (SOL003 6.5.2.7) from a ``pm_jobs`` row; ``reports`` None
    leaves the attribute out (a list that excludes it by default), as do
    documents a list page did not read (``criteria``)."""
    body: dict[str, Any] = {
        "id": row["id"],
        "objectType": row["object_type"],
        "objectInstanceIds": row["object_instance_ids"],
    }
    if row.get("sub_object_instance_ids"):
        body["subObjectInstanceIds"] = row["sub_object_instance_ids"]
    if "criteria" in row:
        body["criteria"] = row["criteria"]
    body["callbackUri"] = row["callback_uri"]
    if reports is not None:
        body["reports"] = [report_reference(base, r) for r in reports]
    body["_links"] = {
        "self": _link(job_href(base, row["id"])),
        "objects": [
            _link(instance_href(base, i)) for i in row["object_instance_ids"]
        ],
    }
    return body


def threshold_view(base: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """A Threshold (SOL003 6.5.2.9) from a ``pm_thresholds`` row."""
    body: dict[str, Any] = {
        "id": row["id"],
        "objectType": row["object_type"],
        "objectInstanceId": row["object_instance_id"],
    }
    if row.get("sub_object_instance_ids"):
        body["subObjectInstanceIds"] = row["sub_object_instance_ids"]
    if "criteria" in row:
        body["criteria"] = row["criteria"]
    body["callbackUri"] = row["callback_uri"]
    body["_links"] = {
        "self": _link(threshold_href(base, row["id"])),
        "object": _link(instance_href(base, row["object_instance_id"])),
    }
    return body


def report_entry(
    object_type: str,
    object_instance_id: str,
    sub_object_instance_id: str | None,
    performance_metric: str,
    performance_values: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """One entry of a PerformanceReport (SOL003 6.5.2.10); each
    performance value is ``{"timeStamp": datetime, "value": ...}`` with an
    optional ``context``."""
    entry: dict[str, Any] = {
        "objectType": object_type,
        "objectInstanceId": object_instance_id,
    }
    if sub_object_instance_id is not None:
        entry["subObjectInstanceId"] = sub_object_instance_id
    entry["performanceMetric"] = performance_metric
    values = []
    for sample in performance_values:
        value: dict[str, Any] = {
            "timeStamp": times.sol_time(sample["timeStamp"])
            if not isinstance(sample["timeStamp"], str)
            else sample["timeStamp"],
            "value": sample["value"],
        }
        if sample.get("context"):
            value["context"] = sample["context"]
        values.append(value)
    entry["performanceValues"] = values
    return entry


def performance_report_view(
    entries: Iterable[Mapping[str, Any]],
) -> dict[str, Any]:
    """A PerformanceReport (SOL003 6.5.2.10) from ``pm_report_entries``
    rows."""
    return {
        "entries": [
            report_entry(
                e["object_type"],
                e["object_instance_id"],
                e.get("sub_object_instance_id"),
                e["performance_metric"],
                e["performance_values"],
            )
            for e in entries
        ]
    }


def _header(notification_type: str, now: datetime.datetime) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "notificationType": notification_type,
        "timeStamp": times.sol_time(now),
    }


def performance_information_available(
    base: str,
    job: Mapping[str, Any],
    report_id: str,
    object_instance_id: str,
    sub_object_instance_ids: Sequence[str],
    now: datetime.datetime,
) -> dict[str, Any]:
    """PerformanceInformationAvailableNotification (SOL003 6.5.2.5) for
    one object instance of a new report."""
    body = _header(PERFORMANCE_INFORMATION_AVAILABLE, now)
    body["pmJobId"] = job["id"]
    body["objectType"] = job["object_type"]
    body["objectInstanceId"] = object_instance_id
    if sub_object_instance_ids:
        body["subObjectInstanceIds"] = list(sub_object_instance_ids)
    body["_links"] = {
        "objectInstance": _link(instance_href(base, object_instance_id)),
        "pmJob": _link(job_href(base, job["id"])),
        "performanceReport": _link(report_href(base, job["id"], report_id)),
    }
    return body


def threshold_crossed(
    base: str,
    threshold: Mapping[str, Any],
    crossing_direction: str,
    sub_object_instance_id: str | None,
    performance_value: Any,
    context: Mapping[str, Any] | None,
    now: datetime.datetime,
) -> dict[str, Any]:
    """ThresholdCrossedNotification (SOL003 6.5.2.4)."""
    body = _header(THRESHOLD_CROSSED, now)
    body["thresholdId"] = threshold["id"]
    body["crossingDirection"] = crossing_direction
    body["objectType"] = threshold["object_type"]
    body["objectInstanceId"] = threshold["object_instance_id"]
    if sub_object_instance_id:
        body["subObjectInstanceId"] = sub_object_instance_id
    body["performanceMetric"] = threshold["criteria"]["performanceMetric"]
    body["performanceValue"] = performance_value
    if context:
        body["context"] = dict(context)
    body["_links"] = {
        "objectInstance": _link(
            instance_href(base, threshold["object_instance_id"])
        ),
        "threshold": _link(threshold_href(base, threshold["id"])),
    }
    return body


def modifications_view(patch: Mapping[str, Any]) -> dict[str, Any]:
    """PmJobModifications / ThresholdModifications as answered: what was
    changed, without the (write-only) authentication."""
    return {k: v for k, v in patch.items() if k == "callbackUri"}
