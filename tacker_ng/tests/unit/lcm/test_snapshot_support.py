"""Which infra drivers take VNF snapshots; the API's 422 names the one
that does not (checked at request time, before any op occ exists)."""

import pytest

from tacker_ng.api.controllers.vnflcm import lcm_start
from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import driver as k8s_driver
from tacker_ng.infra.openstack import driver as os_driver
from tacker_ng.objects import lcm

SNAPSHOT_OPS = (
    lcm.Operation.CREATE_SNAPSHOT,
    lcm.Operation.REVERT_TO_SNAPSHOT,
)


@pytest.mark.parametrize("operation", SNAPSHOT_OPS)
def test_openstack_takes_snapshots_kubernetes_does_not(operation):
    assert os_driver.OpenStackDriver().supports(operation)
    assert not k8s_driver.KubernetesDriver().supports(operation)
    assert base.METHODS[operation] in (
        "create_snapshot",
        "revert_to_snapshot",
    )


@pytest.mark.parametrize("operation", SNAPSHOT_OPS)
def test_request_on_kubernetes_is_422_naming_the_driver(conf, operation):
    instance = {
        "vim_connection_info": {"k8s": {"vimType": "ETSINFV.KUBERNETES.V_1"}}
    }
    with pytest.raises(base.OperationNotSupported) as caught:
        lcm_start._check_driver_supports(instance, operation)
    assert caught.value.status == 422
    assert str(caught.value) == (
        f"The kubernetes driver does not support {operation}."
    )
