"""Fixtures of the OpenStack driver tests on minicloud (real Heat + Nova)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from oslo_config import cfg

from tacker_ng.tests.functional.openstack import env

IMAGE = "minicloud-image"
TINY = {"vcpus": 1, "ram_mb": 512, "disk_gb": 1}


@pytest.fixture(scope="session")
def cloud(minicloud) -> Iterator:
    """This session's lane of minicloud (reset at its start and end);
    the in-process driver (env.Vnf) sees the lane's zones only."""
    zones = ("availability_zones", minicloud.real_zones(), "openstack")
    with env.config([zones]):
        yield minicloud


@pytest.fixture(scope="session")
def spec_package(tmp_path_factory):
    """The spec's example VNF (see env.spec_package_source), onboarded."""
    tmp = tmp_path_factory.mktemp("spec-pkg")
    return env.onboard(env.spec_package_source(tmp / "src", IMAGE), tmp / "p")


@pytest.fixture(scope="session")
def sriov_package(cloud, tmp_path_factory):
    """As spec_package, but VDU1 asks for an SR-IOV port in AZ-1."""
    tmp = tmp_path_factory.mktemp("sriov-pkg")
    src = env.spec_package_source(
        tmp / "src", IMAGE, sriov_zone=cloud.az("AZ-1")
    )
    return env.onboard(src, tmp / "p")


@pytest.fixture
def placement(cloud) -> Iterator[cfg.ConfigOpts]:
    """fallbackBestEffort on, seeded zone choice, quick polls; restored."""
    conf = cfg.CONF
    overrides = [
        ("fallback_best_effort", True, "placement"),
        ("az_select_retry", 0, "placement"),
        ("zone_choice_seed", 20260101, "openstack"),
        ("stack_timeout", 600, "openstack"),
    ]
    for name, value, group in overrides:
        conf.set_override(name, value, group=group)
    yield conf
    for name, _, group in overrides:
        conf.clear_override(name, group=group)
    for name in ("az_resource_error_regex",):
        conf.clear_override(name, group="placement")


@pytest.fixture
def capacity(cloud) -> Iterator:
    """The cloud; every filler is removed after the test."""
    cloud.free_all()
    yield cloud
    cloud.free_all()


@pytest.fixture
def driver_log(caplog) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="tacker_ng.infra.openstack")
    return caplog
