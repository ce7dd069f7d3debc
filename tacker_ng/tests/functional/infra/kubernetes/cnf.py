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
from tacker_ng.tests.functional import processes as procs

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
FM = {"Version": "1.3.0"}


@contextlib.contextmanager
def nfvo(
    backend: str,
    tmp: Path,
    convergence: dict[str, object] | None = None,
    **kubernetes: object,
) -> Iterator[tuple[Any, Any, str]]:
    """(deployment, SOL003 client, vnfdId of the sample); ``kubernetes``
    overrides :data:`KUBERNETES_OPTS`; ``convergence``: the conductor's
    ``[convergence]`` options (observer interval, auto-heal back-off)."""
    extra: dict[str, dict[str, object]] = {
        "kubernetes": {**KUBERNETES_OPTS, **kubernetes}
    }
    if convergence:
        extra["convergence"] = convergence
    with (
        services.scratch_database(backend) as sql_url,
        deployment.deploy(
            tmp, sql_url, conductors=("cond-a",), extra=extra
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


# -- convergence: what the observer did, seen through the API ----------


def until(what: str, check, timeout: float = 30) -> Any:
    """``check()``'s first truthy value, polled every 0.3 s."""
    return procs.wait_for(check, timeout, what, interval=0.3)


def alarms(client, inst_id: str, open_only: bool = True) -> list[dict]:
    """The instance's FM alarms (open ones only, by default)."""
    resp = client.get(
        f"/vnffm/v1/alarms?filter=(eq,managedObjectId,{inst_id})",
        headers=FM,
        validate=False,
    )
    assert resp.status_code == 200, resp.text
    return [
        a
        for a in resp.json()
        if not open_only or a["perceivedSeverity"] != "CLEARED"
    ]


def heals(client, inst_id: str) -> list[dict]:
    """The instance's HEAL op occs (filtered by the API, checked here)."""
    occs = client.get(
        f"/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,{inst_id})"
        ";(eq,operation,HEAL)"
    ).json()
    assert {(o["vnfInstanceId"], o["operation"]) for o in occs} <= {
        (inst_id, "HEAL")
    }
    return occs


def set_autoheal(vnf: Cnf, enabled: bool) -> dict[str, Any]:
    """Modify isAutohealEnabled; the finished modify op occ."""
    resp = vnf.client.call(
        "PATCH",
        f"/vnflcm/v2/vnf_instances/{vnf.id}",
        json={"vnfConfigurableProperties": {"isAutohealEnabled": enabled}},
        headers={"Content-Type": "application/merge-patch+json"},
    )
    assert resp.status_code == 202, resp.text
    return vnf.wait(resp.headers["Location"].rsplit("/", 1)[1])


def instantiated(nfvo, sim, autoheal: bool = False) -> Cnf:
    """A CNF of the sample at instantiation_level_1, auto-heal as asked."""
    _, client, vnfd_id = nfvo
    vnf = Cnf(client, vnfd_id, sim)
    vnf.run("instantiate", vnf.instantiate_body("instantiation_level_1"))
    if autoheal:
        assert set_autoheal(vnf, True)["operationState"] == "COMPLETED"
    return vnf


def by_vdu(vnf: Cnf) -> dict[str, list[dict]]:
    """The instance's VNFCs grouped by VDU."""
    out: dict[str, list[dict]] = {}
    for v in vnf.vnfcs():
        out.setdefault(v["vduId"], []).append(v)
    return out
