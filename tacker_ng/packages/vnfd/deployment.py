"""Per-flavour deployment artifacts: BaseHOT, Kubernetes manifests, user data.

Conventions (as in Tacker v2): ``BaseHOT/<flavour_id>/`` holds one top
Heat template and ``nested/`` templates; user data and Kubernetes manifests
default from the VNF node's ``Vnflcm.instantiate`` input
``additional_parameters`` (``lcm-operation-user-data``,
``lcm-operation-user-data-class``, ``lcm-kubernetes-def-files``), and a
flavour without BaseHOT uses ``Files/kubernetes/*.yaml`` when present.
Everything named must exist in the package and parse; nothing is executed.
"""

import ast
import posixpath
from pathlib import Path
from typing import Any

from tacker_ng.objects import vnfd as model
from tacker_ng.packages.exceptions import InvalidVnfd
from tacker_ng.packages.limits import CsarLimits
from tacker_ng.packages.yamlfile import load_yaml_file

USER_DATA_KEY = "lcm-operation-user-data"
USER_DATA_CLASS_KEY = "lcm-operation-user-data-class"
K8S_FILES_KEY = "lcm-kubernetes-def-files"
K8S_DIR = "Files/kubernetes/"
STANDARD_USER_DATA = "StandardUserData"
#: Kubernetes kinds whose pods are a VDU's VNFCs (matched by VDU name).
WORKLOAD_KINDS = (
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Pod",
)
_YAML = (".yaml", ".yml")


def _package_path(ref: Any, files: set[str], where: str, vnfd: str) -> str:
    if not isinstance(ref, str) or not ref:
        raise InvalidVnfd(f"{where} is not a file path", file=vnfd)
    path = posixpath.normpath(ref)
    if path.startswith(("/", "../")) or path == ".." or "\\" in path:
        raise InvalidVnfd(f"{where} {ref} is outside the package", file=vnfd)
    if path not in files:
        raise InvalidVnfd(f"{where} {ref} is not in the package", file=vnfd)
    return path


def user_data(
    params: dict[str, Any], root: Path, files: set[str], vnfd: str
) -> model.UserData | None:
    """The user-data script and class, checked by parsing (not running) it."""
    ref, class_name = (
        params.get(USER_DATA_KEY),
        params.get(USER_DATA_CLASS_KEY),
    )
    if ref is None and class_name is None:
        return None
    if ref is None or class_name is None:
        raise InvalidVnfd(
            f"{USER_DATA_KEY} and {USER_DATA_CLASS_KEY} go together", file=vnfd
        )
    path = _package_path(ref, files, USER_DATA_KEY, vnfd)
    if not path.endswith(".py"):
        raise InvalidVnfd(f"user data {path} is not a Python file", file=vnfd)
    if not isinstance(class_name, str) or not class_name.isidentifier():
        raise InvalidVnfd(f"{class_name!r} is not a class name", file=vnfd)
    try:
        tree = ast.parse(root.joinpath(*path.split("/")).read_bytes(), path)
    except (SyntaxError, ValueError) as exc:
        raise InvalidVnfd(
            f"user data is not valid Python: {exc}", file=path
        ) from None
    if not any(
        isinstance(node, ast.ClassDef) and node.name == class_name
        for node in tree.body
    ):
        raise InvalidVnfd(f"no class {class_name} in {path}", file=path)
    return model.UserData(file=path, class_name=class_name)


def base_hot(
    flavour_id: str, root: Path, files: set[str], limits: CsarLimits
) -> model.BaseHot | None:
    """The flavour's BaseHOT, with nested template references checked."""
    prefix = f"BaseHOT/{flavour_id}/"
    tops = sorted(
        f
        for f in files
        if f.startswith(prefix)
        and "/" not in f[len(prefix) :]
        and f.endswith(_YAML)
    )
    if not tops:
        return None
    if len(tops) > 1:
        raise InvalidVnfd(
            f"{prefix} has several top templates: {', '.join(tops)}",
            file=tops[0],
        )
    nested = {
        posixpath.basename(f): f
        for f in sorted(files)
        if f.startswith(prefix + "nested/") and f.endswith(_YAML)
    }
    templates = {tops[0]: _hot(root, tops[0], limits)}
    for path in nested.values():
        templates[path] = _hot(root, path, limits)
    for path, template in templates.items():
        for name, resource in template["resources"].items():
            for ref in _template_refs(resource):
                if ref not in nested:
                    raise InvalidVnfd(
                        f"nested template {ref} is not in {prefix}nested/",
                        file=path,
                        node=name,
                    )
    return model.BaseHot(
        template=tops[0],
        nested=nested,
        resources=tuple(templates[tops[0]]["resources"]),
    )


def _hot(root: Path, path: str, limits: CsarLimits) -> dict[str, Any]:
    template = load_yaml_file(root, path, limits)
    if (
        not isinstance(template, dict)
        or "heat_template_version" not in template
    ):
        raise InvalidVnfd(
            "not a Heat template (no heat_template_version)", file=path
        )
    if not isinstance(template.get("resources") or {}, dict):
        raise InvalidVnfd("resources is not a mapping", file=path)
    template["resources"] = template.get("resources") or {}
    return template


def _template_refs(resource: Any) -> list[str]:
    """Template file names a resource uses (directly or as ASG member)."""
    if not isinstance(resource, dict):
        return []
    refs = []
    rtype = resource.get("type")
    if isinstance(rtype, str) and rtype.endswith(_YAML):
        refs.append(rtype)
    props = resource.get("properties") or {}
    inner = props.get("resource") if isinstance(props, dict) else None
    if isinstance(inner, dict):
        refs.extend(_template_refs(inner))
    return refs


def kubernetes(
    params: dict[str, Any],
    *,
    has_base_hot: bool,
    root: Path,
    files: set[str],
    limits: CsarLimits,
    vnfd: str,
) -> tuple[tuple[str, ...], tuple[model.KubernetesResource, ...]]:
    """Manifests of the flavour and the objects they define."""
    declared = params.get(K8S_FILES_KEY)
    if declared is not None:
        if not isinstance(declared, list):
            raise InvalidVnfd(f"{K8S_FILES_KEY} is not a list", file=vnfd)
        manifests = [
            _package_path(r, files, K8S_FILES_KEY, vnfd) for r in declared
        ]
    elif not has_base_hot:
        manifests = sorted(
            f for f in files if f.startswith(K8S_DIR) and f.endswith(_YAML)
        )
    else:
        manifests = []
    resources = []
    for path in manifests:
        for doc in load_yaml_file(root, path, limits, all_documents=True):
            meta = doc.get("metadata") if isinstance(doc, dict) else None
            if (
                not isinstance(meta, dict)
                or not doc.get("kind")
                or not (meta.get("name"))
            ):
                raise InvalidVnfd(
                    "Kubernetes object without kind or metadata.name",
                    file=path,
                )
            resources.append(
                model.KubernetesResource(
                    file=path,
                    kind=str(doc["kind"]),
                    name=str(meta["name"]),
                    namespace=meta.get("namespace"),
                    api_version=doc.get("apiVersion"),
                )
            )
    return tuple(manifests), tuple(resources)


def check_vdus_deployable(
    flavour_file: str,
    vdus: dict[str, model.Vdu],
    hot: model.BaseHot | None,
    resources: tuple[model.KubernetesResource, ...],
    user: model.UserData | None,
) -> None:
    """Each VDU maps to a Heat resource or a Kubernetes workload.

    Heat: with StandardUserData every VDU is a top template resource named
    after the VDU node. Kubernetes: VDU ``name`` = a workload's name.
    """
    if (
        hot is not None
        and user is not None
        and (user.class_name == STANDARD_USER_DATA)
    ):
        for vdu_id in vdus:
            if vdu_id not in hot.resources:
                raise InvalidVnfd(
                    f"no resource named {vdu_id} in {hot.template} "
                    "(StandardUserData needs one per VDU)",
                    file=flavour_file,
                    node=vdu_id,
                )
    if hot is None and resources:
        workloads = {r.name for r in resources if r.kind in WORKLOAD_KINDS}
        for vdu in vdus.values():
            if vdu.name not in workloads:
                raise InvalidVnfd(
                    f"VDU name {vdu.name!r} matches no Kubernetes workload "
                    f"({', '.join(WORKLOAD_KINDS)}) in the manifests",
                    file=flavour_file,
                    node=vdu.node_name,
                )
