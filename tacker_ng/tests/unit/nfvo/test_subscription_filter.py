"""LifecycleChangeNotificationsFilter matching."""

import pytest

from tacker_ng.nfvo import subscription_filter as sf

INSTANCE = {
    "id": "i-1",
    "vnf_instance_name": "vnf-a",
    "vnfd_id": "d-1",
    "vnf_provider": "acme",
    "vnf_product_name": "router",
    "vnf_software_version": "1.0",
    "vnfd_version": "2.0",
}
OCC = sf.OP_OCC_NOTIFICATION


@pytest.mark.parametrize(
    "flt,expected",
    [
        (None, True),
        ({}, True),
        ({"notificationTypes": [OCC]}, True),
        ({"notificationTypes": [sf.CREATION_NOTIFICATION]}, False),
        ({"operationTypes": ["INSTANTIATE"]}, True),
        ({"operationTypes": ["SCALE"]}, False),
        ({"operationStates": ["STARTING", "COMPLETED"]}, True),
        ({"operationStates": ["FAILED"]}, False),
        ({"vnfInstanceSubscriptionFilter": {"vnfdIds": ["d-1"]}}, True),
        ({"vnfInstanceSubscriptionFilter": {"vnfdIds": ["d-2"]}}, False),
        ({"vnfInstanceSubscriptionFilter": {"vnfInstanceIds": ["i-1"]}}, True),
        (
            {"vnfInstanceSubscriptionFilter": {"vnfInstanceNames": ["x"]}},
            False,
        ),
        (
            {
                "vnfInstanceSubscriptionFilter": {
                    "vnfProductsFromProviders": [{"vnfProvider": "acme"}]
                }
            },
            True,
        ),
        (
            {
                "vnfInstanceSubscriptionFilter": {
                    "vnfProductsFromProviders": [
                        {
                            "vnfProvider": "acme",
                            "vnfProducts": [
                                {
                                    "vnfProductName": "router",
                                    "versions": [
                                        {
                                            "vnfSoftwareVersion": "1.0",
                                            "vnfdVersions": ["2.0"],
                                        }
                                    ],
                                }
                            ],
                        }
                    ]
                }
            },
            True,
        ),
        (
            {
                "vnfInstanceSubscriptionFilter": {
                    "vnfProductsFromProviders": [
                        {
                            "vnfProvider": "acme",
                            "vnfProducts": [
                                {
                                    "vnfProductName": "router",
                                    "versions": [
                                        {
                                            "vnfSoftwareVersion": "1.0",
                                            "vnfdVersions": ["3.0"],
                                        }
                                    ],
                                }
                            ],
                        }
                    ]
                }
            },
            False,
        ),
        (
            {
                "vnfInstanceSubscriptionFilter": {
                    "vnfProductsFromProviders": [{"vnfProvider": "other"}]
                }
            },
            False,
        ),
        (
            {
                "operationTypes": ["INSTANTIATE"],
                "vnfInstanceSubscriptionFilter": {"vnfdIds": ["d-2"]},
            },
            False,
        ),
    ],
)
def test_op_occ_notification(flt, expected):
    assert sf.matches(flt, OCC, INSTANCE, "INSTANTIATE", "STARTING") is (
        expected
    )


def test_operation_filters_do_not_apply_to_identifier_notifications():
    flt = {"operationTypes": ["SCALE"], "operationStates": ["FAILED"]}
    assert sf.matches(flt, sf.CREATION_NOTIFICATION, INSTANCE)
