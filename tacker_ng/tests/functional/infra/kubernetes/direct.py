"""Drive the Kubernetes driver directly (no API, no conductor): each
operation is granted like the conductor does it (GrantRequest from the
VNFD, the local NFVO's Grant) and the new instantiatedVnfInfo kept, for
tests of workload kinds the REST tests do not cover."""

from __future__ import annotations

import copy
import io
import uuid
from pathlib import Path
from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.kubernetes import driver as k8s_driver
from tacker_ng.nfvo import grant_request, local
from tacker_ng.objects import lcm
from tacker_ng.packages import csar
from tacker_ng.tests.functional.infra.kubernetes import cnf

Op = lcm.Operation


def extract(data: bytes, dest: Path) -> csar.CsarContents:
    return csar.extract_csar(io.BytesIO(data), dest)


class DriverVnf:
    def __init__(self, sim, package: csar.CsarContents) -> None:
        self.package = package
        self.driver = k8s_driver.KubernetesDriver()
        self.instance: dict[str, Any] = {
            "id": str(uuid.uuid4()),
            "vnfdId": package.vnfd.descriptor_id,
            "vimConnectionInfo": cnf.vim(sim),
        }
        self.last: base.LcmTask | None = None

    def run(self, op: Op, request: dict[str, Any]) -> base.LcmResult:
        occ_id = str(uuid.uuid4())
        body = grant_request.build(
            op, self.package.vnfd, self.instance, occ_id, request, "simple"
        )
        vim = self.instance["vimConnectionInfo"]["k8s"]
        grant = local.grant(body, "k8s", self.driver.list_zones(vim), {})
        task = base.LcmTask(
            context=None,
            operation=op,
            op_occ_id=occ_id,
            instance=copy.deepcopy(self.instance),
            request=request,
            vnfd=self.package.vnfd,
            package_root=self.package.root,
            grant_request=body,
            grant=grant,
            progress={},
            save_progress=lambda: None,
            cancel_requested=lambda: None,
        )
        self.last = task
        result = getattr(self.driver, base.METHODS[op])(task)
        if op == Op.TERMINATE:
            self.instance.pop("instantiatedVnfInfo", None)
        elif result.instantiated_vnf_info is not None:
            self.instance["instantiatedVnfInfo"] = result.instantiated_vnf_info
        return result

    def vnfcs(self) -> dict[str, dict[str, Any]]:
        info = self.instance.get("instantiatedVnfInfo") or {}
        return {v["id"]: v for v in info.get("vnfcResourceInfo") or []}
