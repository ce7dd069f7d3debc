"""The release mapping is in step with the code and drives caps/checks."""

import pytest
from oslo_upgradecheck import upgradecheck

from tacker_ng import release_mappings as rm
from tacker_ng.cmd import status
from tacker_ng.conductor import rpcapi as conductor_rpcapi
from tacker_ng.conf import default as default_conf
from tacker_ng.reservation import rpcapi as reservation_rpcapi

Code = upgradecheck.Code


def test_current_release_matches_the_code():
    assert rm.RELEASES[rm.CURRENT] == {
        rm.CONDUCTOR: conductor_rpcapi.RPC_API_VERSION,
        rm.RESERVATION: reservation_rpcapi.RPC_API_VERSION,
    }


def test_pinnable_releases_are_the_released_ones():
    assert set(default_conf.PINNABLE_RELEASES) == set(rm.RELEASES) - {
        rm.CURRENT
    }


def test_cap_follows_the_pin(conf):
    assert rm.version_cap(rm.CONDUCTOR, conf) == "1.3"
    conf.set_override("pin_release_version", "2026.1")
    assert (
        rm.version_cap(rm.CONDUCTOR, conf)
        == rm.RELEASES["2026.1"][rm.CONDUCTOR]
    )


@pytest.mark.parametrize(
    ("fleet", "pin", "code"),
    [
        ({"c1": "1.3", "c2": "1.3"}, None, Code.SUCCESS),
        ({}, None, Code.SUCCESS),
        ({"c1": "1.3", "c2": "1.1"}, None, Code.FAILURE),
        ({"c1": "1.3"}, "2026.1", Code.WARNING),
    ],
)
def test_upgrade_check_compares_fleet_and_pin(conf, fleet, pin, code):
    if pin:
        conf.set_override("pin_release_version", pin)
    result = status.rpc_versions_result(fleet, pin)
    assert result.code == code, result.details
    if code == Code.FAILURE:
        assert "c2 (1.1)" in result.details
