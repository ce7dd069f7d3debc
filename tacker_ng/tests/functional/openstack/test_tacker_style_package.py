"""A package in OpenStack Tacker's conventions, unchanged, on real Heat +
Nova: onboarded at the ``tacker`` compatibility level (with its warnings),
instantiated from its BaseHOT of nested VDU templates the StandardUserData
way (the request's ``additionalParams.nfv`` names a server, a fixed subnet
from ``extVirtualLinks``), scaled out and in with fallbackBestEffort AZ
reselection on, and terminated."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tacker_ng.tests.functional.openstack import env
from tacker_ng.tests.functional.openstack.conftest import IMAGE

pytestmark = pytest.mark.minicloud
Op = env.Op
SAMPLE = (
    Path(__file__).resolve().parents[4] / "samples/vnf_packages/tacker_style"
)
USER_DATA = {
    "lcm-operation-user-data": "./UserData/userdata_standard.py",
    "lcm-operation-user-data-class": "StandardUserData",
}


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tacker-style")
    src = tmp / "src"
    shutil.copytree(SAMPLE, src)
    df = src / "Definitions/tacker_style_df_simple.yaml"
    df.write_text(df.read_text().replace("cirros-0.6.2-x86_64-disk", IMAGE))
    return env.onboard(src, tmp / "p")


def test_tacker_style_package_lifecycle(cloud, placement, package):
    assert len(package.warnings) == 3
    vnf = env.Vnf(cloud, package)
    links = [
        {
            "id": "ext-vl-1",
            "resourceId": cloud.network_id,
            "extCps": [
                {"cpdId": "VDU1_CP1", "cpConfig": {}},
                {
                    "cpdId": "VDU2_CP1",
                    "cpConfig": {
                        "VDU2_CP1_1": {
                            "cpProtocolData": [
                                {
                                    "layerProtocol": "IP_OVER_ETHERNET",
                                    "ipOverEthernet": {
                                        "ipAddresses": [
                                            {
                                                "type": "IPV4",
                                                "numDynamicAddresses": 1,
                                                "subnetId": cloud.subnet_id,
                                            }
                                        ]
                                    },
                                }
                            ]
                        }
                    },
                },
            ],
        }
    ]
    cloud.free_all()
    vnf.run(
        Op.INSTANTIATE,
        {
            "flavourId": "simple",
            "instantiationLevelId": "instantiation_level_1",
            "extVirtualLinks": links,
            "additionalParams": {
                **USER_DATA,
                "nfv": {"VDU": {"VDU1-0": {"name": "VDU1-a-001"}}},
            },
        },
    )
    try:
        vnfcs = vnf.vnfcs()
        assert sorted(vnfcs) == ["VDU1-0", "VDU2-0"]
        nova = cloud.nova(admin=True)
        server = nova.servers.get(
            vnfcs["VDU1-0"]["computeResource"]["resourceId"]
        )
        assert server.name == "VDU1-a-001"
        stack = cloud.heat().stacks.get(vnf.stack_name)
        assert "VDU1-0" in {
            r.resource_name for r in cloud.heat().resources.list(stack.id)
        }
        vdu2 = nova.servers.get(
            vnfcs["VDU2-0"]["computeResource"]["resourceId"]
        )
        assert len(vdu2.networks) == 2  # external (fixed subnet) + internal
        vnf.run(
            Op.SCALE,
            {
                "type": "SCALE_OUT",
                "aspectId": "VDU1_scale",
                "numberOfSteps": 2,
                "additionalParams": USER_DATA,
            },
        )
        assert sorted(vnf.vnfcs()) == ["VDU1-0", "VDU1-1", "VDU1-2", "VDU2-0"]
        assert vnf.nova_zones() == vnf.zones()
        vnf.run(
            Op.SCALE,
            {
                "type": "SCALE_IN",
                "aspectId": "VDU1_scale",
                "numberOfSteps": 1,
                "additionalParams": USER_DATA,
            },
        )
        assert sorted(vnf.vnfcs()) == ["VDU1-0", "VDU1-1", "VDU2-0"]
    finally:
        vnf.run(Op.TERMINATE, {})
    left = cloud.heat().stacks.list(filters={"name": vnf.stack_name})
    assert [
        s.stack_status for s in left if s.stack_status != "DELETE_COMPLETE"
    ] == []
