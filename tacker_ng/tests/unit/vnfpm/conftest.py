"""Fixtures of the ``/vnfpm/v2`` tests: instantiated VNF instances with
VNFCs and connection points, in one project or two."""

import pytest
import webtest

from tacker_ng.api import app as api_app
from tacker_ng.db import api as db_api
from tacker_ng.db import vnf_lcm

V = {"Version": "2.1.0"}
MERGE = {"Content-Type": "application/merge-patch+json", **V}


def make_instance(project: str, vnfcs=("c1", "c2"), instantiated=True):
    """A VNF instance of ``project`` with VNFCs ``vnfcs`` (each with a
    VNFC CP ``<vnfc>-cp``) and an external CP ``ext-cp``."""
    info = {
        "flavourId": "simple",
        "vnfState": "STARTED",
        "extCpInfo": [{"id": "ext-cp", "cpdId": "CP1"}],
        "vnfcResourceInfo": [
            {
                "id": vnfc,
                "vduId": "VDU1",
                "computeResource": {"resourceId": f"srv-{vnfc}"},
                "vnfcCpInfo": [{"id": f"{vnfc}-cp", "cpdId": "CP2"}],
            }
            for vnfc in vnfcs
        ],
    }
    for attempt in db_api.retrying():
        with attempt, db_api.writer() as s:
            row = vnf_lcm.insert_instance(
                s,
                {
                    "vnfd_id": "vnfd",
                    "vnf_provider": "p",
                    "vnf_product_name": "n",
                    "vnf_software_version": "1",
                    "vnfd_version": "1",
                    "project_id": project,
                },
            )
            if instantiated:
                vnf_lcm.update_instance(
                    s,
                    row["id"],
                    {
                        "instantiation_state": "INSTANTIATED",
                        "instantiated_vnf_info": info,
                    },
                )
            return vnf_lcm.get_instance(s, row["id"])
    raise AssertionError("unreachable")


@pytest.fixture
def pm_conf(conf):
    conf.set_override("test_callback_uri", False, group="notification")
    return conf


@pytest.fixture
def instance(db, pm_conf):
    """An instantiated VNF instance of the noauth project ("default")."""
    return make_instance("default")


def app_for(conf, project: str, roles=("member", "reader")):
    """The API as a caller of ``project`` with ``roles`` sees it."""
    conf.set_override("noauth_roles", list(roles), group="api")
    conf.set_override("http_basic_project_id", project, group="api")
    return webtest.TestApp(api_app.build_wsgi_app(conf))
