"""Filterable attributes of the VNF PM resources (SOL003 clause 6): PmJob
(6.4.2.3.2's attribute filter) and Threshold (6.4.5.3.2).

``PmJob.reports`` lives in its own table: it is not filterable (a filter
naming it is a 400 that says so).
"""

from tacker_ng.db import field_maps
from tacker_ng.db import models_pm as pm

#: tacker_ng.pm.measurements.OBJECT_TYPES (the db layer is below pm).
_TYPES = "enum(Vnf|Vnfc|VnfIntCp|VnfExtCp)"

PM_JOB = field_maps.FieldMap(
    "PmJob",
    pm.PmJob.__table__,
    columns={
        "id": "id:uuid",
        "objectType": f"object_type:{_TYPES}",
        "callbackUri": "callback_uri",
    },
    documents={
        "objectInstanceIds": "object_instance_ids",
        "subObjectInstanceIds": "sub_object_instance_ids",
        "criteria": "criteria",
    },
    leaves={
        "objectInstanceIds[]": ".",
        "subObjectInstanceIds[]": ".",
        "criteria": "performanceMetric[] performanceMetricGroup[] "
        "collectionPeriod:number reportingPeriod:number "
        "reportingBoundary:datetime",
    },
    unrendered=(
        "project_id",
        "authentication",
        "shard",
        "next_report_at",
        "reporting_boundary",
    ),
)

THRESHOLD = field_maps.FieldMap(
    "Threshold",
    pm.PmThreshold.__table__,
    columns={
        "id": "id:uuid",
        "objectType": f"object_type:{_TYPES}",
        "objectInstanceId": "object_instance_id",
        "callbackUri": "callback_uri",
    },
    documents={
        "subObjectInstanceIds": "sub_object_instance_ids",
        "criteria": "criteria",
    },
    leaves={
        "subObjectInstanceIds[]": ".",
        "criteria": "performanceMetric thresholdType:enum(SIMPLE)",
        "criteria/simpleThresholdDetails": "thresholdValue:number "
        "hysteresis:number",
    },
    unrendered=("project_id", "authentication", "shard", "next_check_at"),
)
