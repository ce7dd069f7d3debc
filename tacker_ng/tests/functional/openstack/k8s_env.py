"""The k8s_cluster sample on minicloud, driven through the real driver."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from tacker_ng.packages import csar
from tacker_ng.tests.functional.openstack import env

SAMPLE = Path(__file__).parents[4] / "samples/vnf_packages/k8s_cluster"
FLAVOUR = "cluster_install"


def package(tmp: Path, image: str) -> csar.CsarContents:
    """The sample as shipped, with minicloud's image, onboarded."""
    src = tmp / "src"
    shutil.copytree(SAMPLE, src)
    for path in (src / "Definitions").glob("*_df_*.yaml"):
        doc = yaml.safe_load(path.read_text())
        nodes = doc["topology_template"]["node_templates"]
        for vdu in ("masterNode", "workerNode"):
            nodes[vdu]["properties"]["sw_image_data"]["name"] = image
        path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return env.onboard(src, tmp / "p")


class ZonelessVnf(env.Vnf):
    """Granted like the conductor does it, minus the zones: an NFVO that
    leaves placement to the VIM (host anti-affinity is Nova's job here;
    a zone per VNFC would cap the cluster at that zone's hosts)."""

    def task(self, op, request, snapshot=None):
        task = super().task(op, request, snapshot)
        task.grant.pop("zones", None)
        for key in ("addResources", "updateResources"):
            for item in task.grant.get(key) or []:
                item.pop("zoneId", None)
        return task


def ext_links(cloud) -> list[dict[str, Any]]:
    """Both VDUs' CP1 on minicloud's vnf-net."""
    return [
        {
            "id": "ext-vl-1",
            "resourceId": cloud.network_id,
            "extCps": [
                {"cpdId": "masterNode_CP1", "cpConfig": {}},
                {"cpdId": "workerNode_CP1", "cpConfig": {}},
            ],
        }
    ]


def servers(cloud, vnf) -> dict[str, Any]:
    """VNFC name -> its Nova server (admin view)."""
    nova = cloud.nova(admin=True)
    return {
        name: nova.servers.get(v["computeResource"]["resourceId"])
        for name, v in vnf.vnfcs().items()
    }
