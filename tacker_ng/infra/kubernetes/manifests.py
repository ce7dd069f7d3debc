"""The CNF's Kubernetes objects: which files, which namespace, what order.

Files come from ``additionalParams.lcm-kubernetes-def-files`` of the
request (Tacker's parameter, so NFVO requests carry over), else from the
flavour's default (the VNFD's instantiate input or ``Files/kubernetes``).
Objects go to ``additionalParams.namespace`` or to the manifests' own
namespace (one at most; a Namespace object of that name is the CNF's
own and is renamed with it), and are applied in dependency order
(namespaces, quotas, RBAC, config and secrets, volumes, services, then
workloads); deletion runs the same order backwards. A VDU is the
workload of the same name.
"""

import dataclasses
from pathlib import Path
from typing import Any

import yaml

from tacker_ng.infra.kubernetes import errors
from tacker_ng.infra.kubernetes.kube import ObjectRef
from tacker_ng.objects.vnfd import DeploymentFlavour

#: libyaml's loader when PyYAML has it (several times faster).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FILES_KEY = "lcm-kubernetes-def-files"
NAMESPACE_KEY = "namespace"
DEFAULT_NAMESPACE = "default"
#: Kinds whose pods are a VDU's VNFCs.
WORKLOAD_KINDS = (
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Pod",
)
#: Kinds with a replica count the driver sets per VDU.
SCALABLE_KINDS = ("Deployment", "StatefulSet", "ReplicaSet")
#: Apply order: what others depend on first. Unknown kinds go just
#: before the workloads (e.g. custom resources a workload may need).
ORDER = (
    "Namespace",
    "ResourceQuota",
    "LimitRange",
    "NetworkPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "ClusterRole",
    "ClusterRoleBinding",
    "Role",
    "RoleBinding",
    "Secret",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "Service",
    "*",
    "DaemonSet",
    "Pod",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "Job",
    "CronJob",
    "Ingress",
)
#: Kinds that live outside namespaces.
CLUSTER_KINDS = frozenset(
    {
        "Namespace",
        "ClusterRole",
        "ClusterRoleBinding",
        "StorageClass",
        "PersistentVolume",
        "CustomResourceDefinition",
        "PriorityClass",
    }
)


@dataclasses.dataclass
class Manifest:
    """Objects to apply, in order, and which workload each VDU is."""

    namespace: str
    files: list[str]
    objects: list[dict[str, Any]]
    #: VDU node name (VDU1) -> its workload.
    vdus: dict[str, dict[str, Any]]

    def refs(self) -> list[ObjectRef]:
        return [ObjectRef.of(body) for body in self.objects]


def rank(kind: str) -> int:
    """Position of ``kind`` in the apply order."""
    if kind in ORDER:
        return ORDER.index(kind)
    return ORDER.index("*")


def def_files(request: dict[str, Any], flavour: DeploymentFlavour) -> list:
    params = request.get("additionalParams") or {}
    files = params.get(FILES_KEY)
    if files is None:
        files = flavour.additional_parameters.get(FILES_KEY)
    if files is None:
        files = list(flavour.kubernetes_manifests)
    if not isinstance(files, list) or not files:
        raise errors.InvalidManifest(
            reason=f"additionalParams.{FILES_KEY} must list the package's "
            "manifest files"
        )
    return files


def _read(root: Path, name: Any) -> list[dict[str, Any]]:
    if not isinstance(name, str) or not name:
        raise errors.InvalidManifest(reason=f"{name!r} is not a file path")
    base = root.resolve()
    path = (base / name).resolve()
    if base not in path.parents or not path.is_file():
        raise errors.InvalidManifest(reason=f"{name} is not in the package")
    try:
        docs = [
            d for d in yaml.load_all(path.read_text(), Loader=_LOADER) if d
        ]
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise errors.InvalidManifest(reason=f"{name}: {exc}") from exc
    for doc in docs:
        meta = doc.get("metadata") if isinstance(doc, dict) else None
        if not (
            isinstance(meta, dict)
            and meta.get("name")
            and doc.get("kind")
            and doc.get("apiVersion")
        ):
            raise errors.InvalidManifest(
                reason=f"{name}: every object needs apiVersion, kind and "
                "metadata.name"
            )
    return docs


def _namespace(
    docs: list[tuple[str, dict[str, Any]]], wanted: str | None
) -> tuple[str, str | None]:
    """(target namespace, the manifests' own namespace if any)."""
    own = {
        d["metadata"]["namespace"]
        for _, d in docs
        if d["kind"] not in CLUSTER_KINDS and d["metadata"].get("namespace")
    }
    if len(own) > 1:
        raise errors.InvalidManifest(
            reason="the manifests use several namespaces "
            f"({', '.join(sorted(own))})"
        )
    mine = own.pop() if own else None
    return wanted or mine or DEFAULT_NAMESPACE, mine


def load(
    root: Path,
    request: dict[str, Any],
    flavour: DeploymentFlavour,
    namespace: str | None = None,
) -> Manifest:
    """Read, place and order the objects of an operation."""
    files = def_files(request, flavour)
    docs = [(name, doc) for name in files for doc in _read(root, name)]
    params = request.get("additionalParams") or {}
    wanted = namespace or params.get(NAMESPACE_KEY)
    if wanted is not None and (not isinstance(wanted, str) or not wanted):
        raise errors.InvalidManifest(
            reason=f"additionalParams.{NAMESPACE_KEY} must be a name"
        )
    target, own = _namespace(docs, wanted)
    objects = []
    for _, doc in docs:
        meta = doc["metadata"]
        if doc["kind"] not in CLUSTER_KINDS:
            meta["namespace"] = target
        elif doc["kind"] == "Namespace" and own and meta["name"] == own:
            meta["name"] = target  # the CNF's own namespace, renamed
        objects.append(doc)
    objects.sort(key=lambda d: rank(d["kind"]))
    workloads = {
        d["metadata"]["name"]: d
        for d in objects
        if d["kind"] in WORKLOAD_KINDS
    }
    vdus = {}
    for vdu_id, vdu in flavour.vdus.items():
        if vdu.name not in workloads:
            raise errors.InvalidManifest(
                reason=f"no workload named {vdu.name} (VDU {vdu_id}) in "
                f"{', '.join(files)}"
            )
        vdus[vdu_id] = workloads[vdu.name]
    return Manifest(target, list(files), objects, vdus)


def set_replicas(workload: dict[str, Any], replicas: int) -> None:
    """Set a scalable workload's ``spec.replicas``."""
    if workload["kind"] in SCALABLE_KINDS:
        workload.setdefault("spec", {})["replicas"] = replicas


def replicas_of(workload: dict[str, Any]) -> int | None:
    """Pods the workload asks for (None: a DaemonSet decides per node)."""
    if workload["kind"] == "Pod":
        return 1
    if workload["kind"] in SCALABLE_KINDS:
        return int((workload.get("spec") or {}).get("replicas", 1))
    return None
