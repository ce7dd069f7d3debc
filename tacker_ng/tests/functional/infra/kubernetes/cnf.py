"""Shared set-up of the CNF functional tests: a deployment (API + one
conductor on RabbitMQ and a real SQL backend) with the cnf_deployment
sample onboarded through the package API, and VNF instances on the
Kubernetes API simulator driven through the SOL003 REST API."""

from __future__ import annotations

import contextlib
import json
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kubernetes import client as k8s

from tacker_ng.packages import builder
from tacker_ng.tests.functional import deployment, lcm_fixtures, services

REPO = Path(__file__).resolve().parents[5]
SAMPLE = REPO / "samples" / "vnf_packages" / "cnf_deployment"
SAMPLE_VNFD_ID = "8e1f3a5c-7b2d-4e6f-9a1b-3c5d7e9f1b03"
REQUIRED = [
    "Files/kubernetes/namespace.yaml",
    "Files/kubernetes/deployment.yaml",
]
PREFERRED = [
    "Files/kubernetes/namespace.yaml",
    "Files/kubernetes_preferred/deployment.yaml",
]
#: Quick polls; an unschedulable pod fails the operation after 2 s.
KUBERNETES_OPTS = {
    "poll_interval": 0.1,
    "poll_max_interval": 0.5,
    "unschedulable_timeout": 2,
    "ready_timeout": 60,
    "delete_timeout": 60,
}
TIMEOUT = 90


@contextlib.contextmanager
def nfvo(
    backend: str, tmp: Path, **kubernetes: object
) -> Iterator[tuple[Any, Any, str]]:
    """(deployment, SOL003 client, vnfdId of the sample); ``kubernetes``
    overrides :data:`KUBERNETES_OPTS`."""
    with (
        services.scratch_database(backend) as sql_url,
        deployment.deploy(
            tmp,
            sql_url,
            conductors=("cond-a",),
            extra={"kubernetes": {**KUBERNETES_OPTS, **kubernetes}},
        ) as dep,
    ):
        pkg = lcm_fixtures.onboard_via_api(
            dep, builder.build_csar_bytes(SAMPLE), timeout=120
        )
        assert pkg["onboardingState"] == "ONBOARDED", pkg
        yield dep, dep.client(), pkg["vnfdId"]


def variant(tmp: Path, descriptor_id: str, **replace: str) -> bytes:
    """The sample's CSAR with another VNFD id and text replaced in its
    manifests (e.g. another image)."""
    src = tmp / f"src-{descriptor_id}"
    shutil.copytree(SAMPLE, src)
    for path in src.rglob("*.yaml"):
        text = path.read_text().replace(SAMPLE_VNFD_ID, descriptor_id)
        if path.parent.name.startswith("kubernetes"):
            for old, new in replace.items():
                text = text.replace(old, new)
        path.write_text(text)
    return builder.build_csar_bytes(src)


def vim(sim, client_cert: bool = False) -> dict[str, Any]:
    """vimConnectionInfo of the simulator: bearer token (or client cert)."""
    access = (
        {
            "client_cert": Path(sim.client_cert).read_text(),
            "client_key": Path(sim.client_key).read_text(),
        }
        if client_cert
        else {"bearer_token": sim.token}
    )
    return {
        "k8s": {
            "vimId": "k8s",
            "vimType": "ETSINFV.KUBERNETES.V_1",
            "interfaceInfo": {
                "endpoint": sim.endpoint,
                "ssl_ca_cert": Path(sim.ca_path).read_text(),
            },
            "accessInfo": access,
        }
    }


class Cnf:
    """One VNF instance driven through the REST API; every response body
    is kept so that a test can check no secret ever appears in one."""

    def __init__(
        self, client, vnfd_id: str, sim, client_cert=False, vim_info=None
    ) -> None:
        self.client = client
        self.sim = sim
        self.namespace = f"cnf-{uuid.uuid4().hex[:8]}"
        self.bodies: list[str] = []
        resp = client.post(
            "/vnflcm/v2/vnf_instances",
            {
                "vnfdId": vnfd_id,
                "vimConnectionInfo": vim_info or vim(sim, client_cert),
            },
        )
        assert resp.status_code == 201, resp.text
        self.bodies.append(resp.text)
        self.id = resp.json()["id"]

    def start(self, task: str, body: dict[str, Any]) -> str:
        return self.client.start(self.id, task, body)

    def wait(self, occ_id: str, states=("COMPLETED", "FAILED_TEMP")) -> dict:
        occ = self.client.wait(occ_id, states, timeout=TIMEOUT)
        self.bodies.append(json.dumps(occ))
        return occ

    def run(self, task: str, body: dict[str, Any]) -> dict[str, Any]:
        occ = self.wait(self.start(task, body))
        assert occ["operationState"] == "COMPLETED", occ.get("error")
        return occ

    def instantiate_body(self, level: str, files=REQUIRED) -> dict[str, Any]:
        return {
            "flavourId": "simple",
            "instantiationLevelId": level,
            "additionalParams": {
                "namespace": self.namespace,
                "lcm-kubernetes-def-files": files,
            },
        }

    def instance(self) -> dict[str, Any]:
        resp = self.client.get(f"/vnflcm/v2/vnf_instances/{self.id}")
        self.bodies.append(resp.text)
        return resp.json()

    def vnfcs(self) -> list[dict[str, Any]]:
        info = self.instance().get("instantiatedVnfInfo") or {}
        return info.get("vnfcResourceInfo") or []

    def core(self) -> k8s.CoreV1Api:
        return k8s.CoreV1Api(self.sim.api_client())

    def pods(self) -> dict[str, Any]:
        """Live pods of the namespace, by name, as the cluster has them."""
        pods = self.core().list_namespaced_pod(self.namespace).items
        return {
            p.metadata.name: p
            for p in pods
            if not p.metadata.deletion_timestamp
        }

    def namespace_exists(self) -> bool:
        names = {n.metadata.name for n in self.core().list_namespace().items}
        return self.namespace in names


def zones_of(vnfcs: list[dict[str, Any]], vdu: str) -> list[str]:
    return sorted(v["metadata"]["zone"] for v in vnfcs if v["vduId"] == vdu)
