"""PkgmNotificationsFilter matching (pure)."""

import pytest

from tacker_ng.nfvo import pkgm_filter as pf

PACKAGE = {
    "id": "pkg-1",
    "vnfd_id": "vnfd-1",
    "vnf_provider": "Company",
    "vnf_product_name": "Sample",
    "vnf_software_version": "1.0",
    "vnfd_version": "1.0",
    "operational_state": "ENABLED",
    "usage_state": "NOT_IN_USE",
}
ONB = pf.ONBOARDING_NOTIFICATION
CHG = pf.CHANGE_NOTIFICATION


@pytest.mark.parametrize(
    ("flt", "kind", "expected"),
    [
        (None, ONB, True),
        ({}, CHG, True),
        ({"notificationTypes": [ONB]}, ONB, True),
        ({"notificationTypes": [ONB]}, CHG, False),
        ({"vnfdId": ["other", "vnfd-1"]}, ONB, True),
        ({"vnfdId": ["other"]}, ONB, False),
        ({"vnfPkgId": ["pkg-1"]}, CHG, True),
        ({"vnfPkgId": ["pkg-2"]}, CHG, False),
        ({"operationalState": ["DISABLED"]}, CHG, False),
        ({"operationalState": ["ENABLED", "DISABLED"]}, CHG, True),
        ({"usageState": ["IN_USE"]}, ONB, False),
        ({"usageState": ["NOT_IN_USE"]}, ONB, True),
        (
            {"vnfProductsFromProviders": [{"vnfProvider": "Company"}]},
            ONB,
            True,
        ),
        (
            {
                "vnfProductsFromProviders": [
                    {
                        "vnfProvider": "Company",
                        "vnfProducts": [
                            {
                                "vnfProductName": "Sample",
                                "versions": [{"vnfSoftwareVersion": "2.0"}],
                            }
                        ],
                    }
                ]
            },
            ONB,
            False,
        ),
        # Every attribute must match (AND).
        ({"notificationTypes": [CHG], "vnfdId": ["vnfd-1"]}, ONB, False),
    ],
)
def test_matches(flt, kind, expected):
    assert pf.matches(flt, kind, PACKAGE) is expected
