"""The sandbox's first-VNF walkthrough: the files it needs (the sample
CNF's instantiate request) and the commands the banner prints, each one
waiting for its operation so that they can be pasted in order."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

#: The sample CNF of the walkthrough (a source checkout's samples/).
SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "vnf_packages"
CNF = SAMPLE / "cnf_deployment"
CNF_VNFD_ID = "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b03"
NAMESPACE = "sandbox"


def write_files(state: Path) -> dict[str, Path]:
    """The request files the commands name, in ``state``."""
    instantiate = state / "instantiate.json"
    instantiate.write_text(
        json.dumps(
            {
                "flavourId": "simple",
                "instantiationLevelId": "instantiation_level_1",
                "additionalParams": {
                    "namespace": NAMESPACE,
                    "lcm-kubernetes-def-files": [
                        "Files/kubernetes/namespace.yaml",
                        "Files/kubernetes/deployment.yaml",
                    ],
                },
            },
            indent=2,
        )
        + "\n"
    )
    return {"instantiate": instantiate}


def commands(url: str, password_file: str | None, state: Path) -> list[str]:
    """The environment line, then one line per step."""
    files = write_files(state)
    q = shlex.quote
    env = (
        f"export OS_AUTH_TYPE=http_basic OS_ENDPOINT={url} "
        "OS_USERNAME=admin "
        + (
            f'OS_PASSWORD="$(cat {q(password_file)})" '
            if password_file
            else ""
        )
        + "OS_TACKER_API_VERSION=2"
    )
    wait = "openstack vnflcm op wait --instance $VNF"
    return [
        env,
        f"openstack vnf package onboard --path {q(str(CNF))}",
        f"VNF=$(openstack vnflcm create {CNF_VNFD_ID} -f value -c ID) && "
        f"openstack vnflcm instantiate $VNF {q(str(files['instantiate']))}"
        f" && {wait}",
        "openstack vnflcm scale --type SCALE_OUT --aspect-id vdu2_aspect "
        f"$VNF && {wait}",
        f"openstack vnflcm heal $VNF && {wait}",
        f"openstack vnflcm terminate $VNF && {wait}",
        f"openstack --os-endpoint {url}/reservation/v1 reservation lease "
        "create --reservation resource_type=virtual:instance,vcpus=1,"
        "memory_mb=512,disk_gb=1,amount=2,affinity=False "
        "--end-date \"$(date -u -d '+1 hour' '+%Y-%m-%d %H:%M')\" "
        "first-lease",
    ]
