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
