"""tools/demo_cloud.py: the config that makes minicloud the default VIM."""

import configparser

from tacker_ng.tests.functional.fixtures.minicloud_api import MiniCloud
from tools import demo_cloud

AUTH = {
    "auth_url": "http://127.0.0.1:25000/v3",
    "user_domain_name": "Default",
    "project_domain_name": "Default",
}
STATE = {
    "auth_url": "http://127.0.0.1:25000/v3",
    "region_name": "RegionOne",
    "admin_auth": {**AUTH, "username": "admin", "password": "a-pw",
                   "project_name": "admin"},
    "project_auth": {**AUTH, "username": "vnfuser", "password": "v-pw",
                     "project_name": "vnf"},
    "project_id": "p",
    "admin_project_id": "ap",
    "topology": {"zones": {"AZ-1": {"h1": {}}}},
    "baseline": {"flavors": {}, "image_id": "i", "network_id": "n",
                 "subnet_id": "s"},
}  # fmt: skip


def test_vim_conf_is_the_project_user_and_nova_the_admin():
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string(demo_cloud.vim_conf(MiniCloud(STATE)))
    assert dict(conf["vim"]) == {
        "auth_url": "http://127.0.0.1:25000/v3",
        "username": "vnfuser",
        "password": "v-pw",
        "project_name": "vnf",
        "user_domain_name": "Default",
        "project_domain_name": "Default",
        "region_name": "RegionOne",
    }
    nova = conf["reservation_nova"]
    assert (nova["auth_type"], nova["username"], nova["project_name"]) == (
        "password",
        "admin",
        "admin",
    )


def _laned_state() -> dict:
    lane1 = {
        "index": 1,
        "name_prefix": "l1-",
        "zones": {"AZ-1": "L1-AZ-1", "AZ-2": "L1-AZ-2"},
        "hosts": {"az1-cmp1": "l1-az1-cmp1", "az2-cmp1": "l1-az2-cmp1"},
        "topology": {"AZ-1": {"l1-az1-cmp1": {}}, "AZ-2": {"l1-az2-cmp1": {}}},
        "project_id": "p1",
        "admin_project_id": "ap1",
        "project_auth": {**AUTH, "username": "l1-vnfuser", "password": "v",
                         "project_name": "l1-vnf"},
        "admin_auth": {**AUTH, "username": "l1-admin", "password": "a",
                       "project_name": "l1-admin"},
        "network_id": "n1",
        "network_name": "l1-vnf-net",
        "subnet_id": "s1",
        "cidr": "10.99.1.0/24",
    }  # fmt: skip
    return {**STATE, "baseline": {**STATE["baseline"], "lanes": [{}, lane1]}}


def test_a_lane_keeps_tacker_ng_on_its_zones_and_its_own_freepool():
    cloud = MiniCloud(_laned_state(), 1)
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string(demo_cloud.vim_conf(cloud))
    assert conf["vim"]["username"] == "l1-vnfuser"
    assert conf["reservation_nova"]["username"] == "l1-admin"
    assert conf["openstack"]["availability_zones"] == "L1-AZ-1,L1-AZ-2"
    assert conf["reservation"]["aggregate_freepool_name"] == "l1-freepool"
    # Logical names in, real names out, and back.
    assert cloud.zones() == ["AZ-1", "AZ-2"]
    assert cloud.az("AZ-2") == "L1-AZ-2"
    assert cloud.logical("L1-AZ-2") == "AZ-2"
    assert cloud.logical_map({"VDU1-0": "L1-AZ-1"}) == {"VDU1-0": "AZ-1"}
    assert cloud.host("az2-cmp1") == "l1-az2-cmp1"
    assert cloud.hosts("AZ-1") == ["l1-az1-cmp1"]
    assert cloud.zone_of("l1-az2-cmp1") == "AZ-2"
    assert cloud.name("flavor") == "l1-flavor"
