"""Fixtures of the PM collector-step tests: a PM job and a threshold
stored as the API stores them, on an instantiated VNF instance."""

import datetime
import uuid

import pytest

from tacker_ng import crypto
from tacker_ng.db import api as db_api
from tacker_ng.db import pm_jobs, pm_thresholds
from tacker_ng.pm import shards
from tacker_ng.tests.unit.vnfpm.conftest import make_instance

T0 = datetime.datetime(2026, 11, 29, 8, 0, tzinfo=datetime.UTC)
S = datetime.timedelta(seconds=1)


def store_job(instance_id, callback="http://127.0.0.1:9/pm", auth=None, **kw):
    job_id = kw.pop("id", None) or str(uuid.uuid4())
    values = {
        "id": job_id,
        "object_type": "Vnf",
        "object_instance_ids": [instance_id],
        "sub_object_instance_ids": None,
        "criteria": {
            "performanceMetric": ["VCpuUsageMeanVnf"],
            "collectionPeriod": 60,
            "reportingPeriod": 300,
        },
        "callback_uri": callback,
        "authentication": crypto.seal(auth) if auth else None,
        "project_id": "default",
        "shard": shards.shard_of(job_id),
        "next_report_at": T0 + 300 * S,
        "reporting_boundary": None,
        "created_at": T0,
        **kw,
    }
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            pm_jobs.insert(s, values)
            return pm_jobs.get(s, job_id)
    raise AssertionError("unreachable")


def store_threshold(instance_id, callback="http://127.0.0.1:9/th", **kw):
    threshold_id = str(uuid.uuid4())
    values = {
        "id": threshold_id,
        "object_type": "Vnf",
        "object_instance_id": instance_id,
        "sub_object_instance_ids": None,
        "criteria": {
            "performanceMetric": "VCpuUsageMeanVnf",
            "thresholdType": "SIMPLE",
            "simpleThresholdDetails": {
                "thresholdValue": 80.0,
                "hysteresis": 5.0,
            },
        },
        "callback_uri": callback,
        "authentication": None,
        "project_id": "default",
        "shard": shards.shard_of(threshold_id),
        "next_check_at": T0,
        "created_at": T0,
        **kw,
    }
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            pm_thresholds.insert(s, values)
            return pm_thresholds.get(s, threshold_id)
    raise AssertionError("unreachable")


@pytest.fixture
def vnf(db):
    return make_instance("default")
