"""Tacker's StandardUserData conventions the driver interprets: storage
images, fixed IPs, the request's nfv merge patch, NFVO-managed internal
VLs, subnet ordering and the user-data class a request names."""

import types
from pathlib import Path

import pytest
import yaml

from tacker_ng.infra.openstack import errors, tacker_params
from tacker_ng.packages.builder import build_csar_bytes
from tacker_ng.packages.csar import extract_csar

SAMPLE = Path(__file__).resolve().parents[5] / "samples/vnf_packages"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    import io

    tmp = tmp_path_factory.mktemp("tacker-style")
    data = build_csar_bytes(SAMPLE / "tacker_style")
    return extract_csar(io.BytesIO(data), tmp / "p")


def task(package, request=None, instance=None, grant=None):
    return types.SimpleNamespace(
        request=request or {},
        instance=instance or {},
        grant=grant or {},
        package_root=package.root,
    )


def top(package):
    hot = package.vnfd.flavours["simple"].base_hot
    return yaml.safe_load((package.root / hot.template).read_text())


def test_fixed_ips_and_nfv_patch(package):
    cps = {
        "cpdId": "VDU2_CP1",
        "cpConfig": {
            "c": {
                "cpProtocolData": [
                    {
                        "ipOverEthernet": {
                            "ipAddresses": [
                                {"subnetId": "sub-1"},
                                {"fixedAddresses": ["10.0.0.5"]},
                            ]
                        }
                    }
                ]
            }
        },
    }
    request = {
        "extVirtualLinks": [{"resourceId": "n", "extCps": [cps]}],
        "additionalParams": {
            "nfv": {
                "VDU": {"VDU1-0": {"name": "a"}, "VDU2": None},
                "CP": {"VDU1_CP1": {"network": "other"}},
            }
        },
    }
    nfv = {
        "VDU": {"VDU1-0": {"computeFlavourId": "f"}, "VDU2": {"x": 1}},
        "CP": {"VDU1_CP1": {"network": "n"}},
    }
    flavour = package.vnfd.flavours["simple"]
    out = tacker_params.complete_nfv(
        nfv, task(package, request), flavour, top(package)
    )
    assert out["VDU"] == {"VDU1-0": {"computeFlavourId": "f", "name": "a"}}
    assert out["CP"]["VDU1_CP1"] == {"network": "other"}
    assert out["CP"]["VDU2_CP1"]["fixed_ips"] == [
        {"subnet": "sub-1"},
        {"ip_address": "10.0.0.5"},
    ]
    assert nfv["VDU"]["VDU2"] == {"x": 1}  # the input is not changed


def test_fixed_ips_of_an_indexed_cp_and_of_the_instance(package):
    template = {
        "resources": {
            "r": {"get_param": ["nfv", "CP", "VDU2_CP1-1", "fixed_ips", 0]}
        }
    }
    instance = {
        "instantiatedVnfInfo": {
            "extVirtualLinkInfo": [
                {
                    "currentVnfExtCpData": [
                        {
                            "cpdId": "VDU2_CP1",
                            "cpConfig": {
                                "c": {
                                    "cpProtocolData": [
                                        {
                                            "ipOverEthernet": {
                                                "ipAddresses": [
                                                    {"subnetId": "s"}
                                                ]
                                            }
                                        }
                                    ]
                                }
                            },
                        }
                    ]
                }
            ]
        }
    }
    out = tacker_params.complete_nfv(
        {},
        task(package, instance=instance),
        package.vnfd.flavours["simple"],
        template,
    )
    assert out["CP"] == {"VDU2_CP1-1": {"fixed_ips": [{"subnet": "s"}]}}


def test_storage_image_from_grant_else_sw_image_data():
    storage = types.SimpleNamespace(
        sw_image_data=types.SimpleNamespace(name="img-name")
    )
    flavour = types.SimpleNamespace(virtual_storages={"VDU1-Storage": storage})
    template = {
        "resources": {
            "v": {"get_param": ["nfv", "VDU", "VDU1-Storage", "vcImageId"]}
        }
    }
    plain = types.SimpleNamespace(
        request={}, instance={}, grant={}, package_root=None
    )
    out = tacker_params.complete_nfv({}, plain, flavour, template)
    assert out["VDU"]["VDU1-Storage"] == {"vcImageId": "img-name"}
    plain.grant = {
        "vimAssets": {
            "softwareImages": [
                {
                    "vnfdSoftwareImageId": "VDU1-Storage",
                    "vimSoftwareImageId": "glance-id",
                }
            ]
        }
    }
    out = tacker_params.complete_nfv({}, plain, flavour, template)
    assert out["VDU"]["VDU1-Storage"] == {"vcImageId": "glance-id"}


def test_managed_vl_replaces_net_and_subnet(package):
    template = top(package)
    request = {
        "extManagedVirtualLinks": [
            {
                "id": "m1",
                "vnfVirtualLinkDescId": "internalVL1",
                "resourceId": "net-9",
            }
        ]
    }
    networks = tacker_params.managed_networks(task(package, request))
    assert networks == {"internalVL1": "net-9"}
    out = tacker_params.apply_managed_vls(template, networks)
    assert "internalVL1" not in out["resources"]
    assert "internalVL1_subnet" not in out["resources"]
    assert out["resources"]["VDU1"]["properties"]["net2"] == "net-9"
    info = tacker_params.managed_vl_info(task(package, request), "vim1")
    assert info[0]["networkResource"]["resourceId"] == "net-9"
    # Later operations find it in the instance.
    instance = {"instantiatedVnfInfo": {"extManagedVirtualLinkInfo": info}}
    assert tacker_params.managed_networks(
        task(package, instance=instance)
    ) == {"internalVL1": "net-9"}
    assert tacker_params.managed_vl_info(task(package), "vim1") is None


def test_users_of_a_net_depend_on_its_subnets(package):
    out = tacker_params.order_subnets(top(package))
    for vdu in ("VDU1", "VDU2"):
        assert out["resources"][vdu]["depends_on"] == ["internalVL1_subnet"]
    assert "depends_on" not in out["resources"]["internalVL1_subnet"]


def test_request_user_data_must_be_standard_and_in_the_package(package):
    ok = {
        "lcm-operation-user-data": "./UserData/userdata_standard.py",
        "lcm-operation-user-data-class": "StandardUserData",
    }
    tacker_params.check_request_user_data(
        task(package, {"additionalParams": ok})
    )
    tacker_params.check_request_user_data(task(package, {}))
    other = {**ok, "lcm-operation-user-data-class": "UserData"}
    with pytest.raises(errors.UnsupportedPackage, match="runs no package"):
        tacker_params.check_request_user_data(
            task(package, {"additionalParams": other})
        )
    for path in ("../../etc/passwd", "./UserData/missing.py", ""):
        bad = {**ok, "lcm-operation-user-data": path}
        with pytest.raises(errors.InvalidRequest, match="not a file"):
            tacker_params.check_request_user_data(
                task(package, {"additionalParams": bad})
            )


def test_merge_patch_rfc7386():
    assert tacker_params.merge_patch(
        {"a": "b", "c": {"d": "e", "f": "g"}},
        {"a": "z", "c": {"f": None}},
    ) == {"a": "z", "c": {"d": "e"}}
    assert tacker_params.merge_patch({"a": 1}, ["x"]) == ["x"]
