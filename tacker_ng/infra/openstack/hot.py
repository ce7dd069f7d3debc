"""StandardUserData, natively: BaseHOT expansion and the ``nfv`` parameter.

Tacker's StandardUserData turns each VDU's resource of the BaseHOT top
template (a nested template, an ``OS::Heat::AutoScalingGroup`` or
``ResourceGroup`` of one, or a server) into one resource per VNFC,
``VDU1-0``, ``VDU1-1``, ..., whose ``get_param: [nfv, VDU, VDU1, x]``
becomes ``[nfv, VDU, VDU1-0, x]`` (and ``[nfv, CP, VDU1_CP1, x]``
``[nfv, CP, VDU1_CP1-0, x]``), so each VNFC gets its own flavour, image
and zone. Package code is never run: another user-data class is refused.
A flavour without BaseHOT (and without Kubernetes manifests) gets its
templates generated from the VNFD (:mod:`.hot_gen`), in the same shape.
"""

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from tacker_ng.infra.openstack import errors, hot_gen, server_groups
from tacker_ng.infra.openstack.vnfcs import Vnfc
from tacker_ng.objects.vnfd import DeploymentFlavour

STANDARD_USER_DATA = "StandardUserData"
_GROUP_TYPES = {
    "OS::Heat::AutoScalingGroup": "resource",
    "OS::Heat::ResourceGroup": "resource_def",
}


def check_user_data(flavour: DeploymentFlavour) -> None:
    """Only StandardUserData (or none) is supported; nothing is executed.

    A flavour without BaseHOT is generated, unless it is a CNF's (it has
    Kubernetes manifests: not for this driver)."""
    if flavour.base_hot is None and flavour.kubernetes_manifests:
        raise errors.UnsupportedPackage(
            reason=f"flavour {flavour.flavour_id} has Kubernetes manifests "
            f"and no BaseHOT/{flavour.flavour_id}/ Heat template: it is a "
            "CNF flavour, not one for OpenStack"
        )
    user = flavour.user_data
    if user is not None and user.class_name != STANDARD_USER_DATA:
        raise errors.UnsupportedPackage(
            reason=f"user data class {user.class_name} ({user.file}) is not "
            f"supported; tacker-ng runs no package code and implements "
            f"only {STANDARD_USER_DATA}"
        )
    if flavour.base_hot is None:
        return
    missing = [v for v in flavour.vdus if v not in flavour.base_hot.resources]
    if missing:
        raise errors.UnsupportedPackage(
            reason=f"{flavour.base_hot.template} has no resource for "
            f"VDU(s) {', '.join(missing)}"
        )


def load(
    package_root: Path, flavour: DeploymentFlavour
) -> tuple[dict[str, Any], dict[str, str]]:
    """(top template, files for Heat: nested template name -> text):
    the flavour's BaseHOT, or templates generated from the VNFD."""
    check_user_data(flavour)
    hot = flavour.base_hot
    if hot is None:
        return hot_gen.generate(flavour)
    top = yaml.safe_load((package_root / hot.template).read_text())
    files = {
        name: (package_root / path).read_text()
        for name, path in sorted(hot.nested.items())
    }
    return top, files


def _rewrite(node: Any, renames: dict[tuple[str, str], str]) -> Any:
    """Copy ``node`` with ``get_param: [nfv, SECTION, KEY, ...]`` renamed."""
    if isinstance(node, dict):
        if set(node) == {"get_param"} and isinstance(node["get_param"], list):
            path = list(node["get_param"])
            if len(path) >= 3 and path[0] == "nfv":
                new = renames.get((path[1], path[2]))
                if new is not None:
                    path[2] = new
            return {"get_param": path}
        return {k: _rewrite(v, renames) for k, v in node.items()}
    if isinstance(node, list):
        return [_rewrite(v, renames) for v in node]
    return node


def _refs(node: Any, kinds=("get_resource", "get_attr")) -> set[str]:
    """Resource names a template fragment references."""
    out: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in kinds:
                target = value[0] if isinstance(value, list) else value
                if isinstance(target, str):
                    out.add(target)
            out |= _refs(value, kinds)
    elif isinstance(node, list):
        for value in node:
            out |= _refs(value, kinds)
    return out


def _member(resource: dict[str, Any]) -> dict[str, Any]:
    """The definition of one VNFC of a VDU resource (group member or self)."""
    key = _GROUP_TYPES.get(resource.get("type"))
    if key is None:
        return {k: v for k, v in resource.items() if k != "depends_on"}
    inner = (resource.get("properties") or {}).get(key)
    if not isinstance(inner, dict) or "type" not in inner:
        raise errors.UnsupportedPackage(
            reason=f"{resource.get('type')} without a member definition"
        )
    return copy.deepcopy(inner)


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def expand(
    top: dict[str, Any], flavour: DeploymentFlavour, vnfcs: Iterable[Vnfc]
) -> dict[str, Any]:
    """The top template with one resource per VNFC instead of per VDU."""
    template = copy.deepcopy(top)
    resources = template.get("resources") or {}
    by_vdu: dict[str, list[Vnfc]] = {v: [] for v in flavour.vdus}
    for vnfc in vnfcs:
        by_vdu[vnfc.vdu_id].append(vnfc)
    expanded: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    for name, resource in resources.items():
        if name not in flavour.vdus:
            out[name] = resource
            continue
        member = _member(resource)
        deps = _as_list(resource.get("depends_on"))
        cps = flavour.vdus[name].cps
        expanded[name] = []
        for vnfc in sorted(by_vdu[name], key=lambda v: v.index):
            renames = {("VDU", name): vnfc.name}
            renames |= {("CP", cp): f"{cp}-{vnfc.index}" for cp in cps}
            item = _rewrite(member, renames)
            if deps:
                item["depends_on"] = list(deps)
            out[vnfc.name] = item
            expanded[name].append(vnfc.name)
    for name, resource in out.items():
        if name in {n for names in expanded.values() for n in names}:
            continue
        bad = _refs(resource) & set(expanded)
        if bad:
            raise errors.UnsupportedPackage(
                reason=f"resource {name} references VDU resource(s) "
                f"{', '.join(sorted(bad))}, which StandardUserData expands "
                "into one resource per VNFC"
            )
        deps = _as_list(resource.get("depends_on"))
        if set(deps) & set(expanded):
            new_deps = []
            for dep in deps:
                new_deps += expanded.get(dep, [dep])
            changed = dict(resource)
            if new_deps:
                changed["depends_on"] = new_deps
            else:
                changed.pop("depends_on")
            out[name] = changed
    template["resources"] = out
    outputs = template.get("outputs") or {}
    kept = {k: v for k, v in outputs.items() if not _refs(v) & set(expanded)}
    if outputs:
        template["outputs"] = kept
    return template


def join_server_groups(
    template: dict[str, Any],
    files: dict[str, str],
    vnfcs: Iterable[Vnfc],
    flavour: DeploymentFlavour | None = None,
    best_effort: bool = False,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Each VNFC booting in its server group: a reservation's, or the
    ``OS::Nova::ServerGroup`` of a ``nfvi_node`` placement rule of
    ``flavour`` (see :mod:`.server_groups`)."""
    return server_groups.join(template, files, vnfcs, flavour, best_effort)


def cp_params(template: dict[str, Any]) -> set[str]:
    """``nfv.CP`` keys whose ``network`` the template reads."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            path = node.get("get_param")
            if (
                isinstance(path, list)
                and len(path) >= 4
                and path[0] == "nfv"
                and path[1] == "CP"
                and path[3] == "network"
            ):
                out.add(path[2])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(template.get("resources") or {})
    return out


def nfv_parameter(
    flavour: DeploymentFlavour,
    vnfcs: Iterable[Vnfc],
    cp_networks: dict[str, str],
    template: dict[str, Any],
) -> dict[str, Any]:
    """The ``nfv`` JSON parameter: per VNFC flavour, image, zone, CPs."""
    vdu: dict[str, Any] = {}
    cp: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for vnfc in vnfcs:
        entry = {
            "computeFlavourId": vnfc.flavor,
            "vcImageId": vnfc.image,
        }
        if vnfc.zone:
            entry["locationConstraints"] = vnfc.zone
        vdu[vnfc.name] = entry
        counts[vnfc.vdu_id] = counts.get(vnfc.vdu_id, 0) + 1
        vdu.setdefault(vnfc.vdu_id, dict(entry, desired_capacity=0))
        for cpd in flavour.vdus[vnfc.vdu_id].cps:
            if cpd in cp_networks:
                cp[f"{cpd}-{vnfc.index}"] = {"network": cp_networks[cpd]}
                cp[cpd] = {"network": cp_networks[cpd]}
    for name, count in counts.items():
        vdu[name]["desired_capacity"] = count
        vdu[name].pop("locationConstraints", None)
    missing = sorted(cp_params(template) - set(cp))
    if missing:
        raise errors.InvalidRequest(
            reason="no network for connection point(s) "
            f"{', '.join(missing)}: give them in extVirtualLinks (extCps "
            "cpdId) of the InstantiateVnfRequest"
        )
    return {"VDU": vdu, "CP": cp}
