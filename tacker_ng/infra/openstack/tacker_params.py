"""The rest of Tacker's StandardUserData contract, interpreted natively.

:mod:`.hot` expands VDUs per VNFC and fills ``nfv.VDU`` (flavour, image,
zone) and ``nfv.CP`` (network). Tacker's BaseHOTs also read:

* ``[nfv, VDU, <VirtualStorage node>, vcImageId]``: the image of a
  ``Vdu.VirtualBlockStorage`` (grant ``vimAssets``, else its
  ``sw_image_data`` name);
* ``[nfv, CP, <cp>, fixed_ips, <i>, subnet | ip_address]``: the i-th
  address of the external CP's first ``cpConfig`` (``subnetId``,
  ``fixedAddresses[0]``);
* ``additionalParams.nfv`` of the request: a JSON merge patch (RFC 7386)
  over the computed ``nfv``, e.g. a VNFC's server ``name``;
* ``extManagedVirtualLinks``: an internal VL the NFVO manages replaces the
  top template's ``OS::Neutron::Net`` of that name (and its subnets).

Tacker runs the package's ``UserData/userdata_standard.py`` in its
conductor to do this; tacker-ng runs no package code: the class only
names the contract (see doc/source/user/vnf-packages.rst).
"""

import copy
import re
from typing import Any

from tacker_ng.infra import base
from tacker_ng.infra.openstack import errors
from tacker_ng.objects.vnfd import DeploymentFlavour

NFV_KEY = "nfv"
USER_DATA_KEY = "lcm-operation-user-data"
USER_DATA_CLASS_KEY = "lcm-operation-user-data-class"
STANDARD_USER_DATA = "StandardUserData"
_INDEXED = re.compile(r"^(?P<cpd>.+)-[0-9]+$")
_NET = "OS::Neutron::Net"
_SUBNET = "OS::Neutron::Subnet"


def check_request_user_data(task: base.LcmTask) -> None:
    """A request naming its user data (Tacker's samples name it in every
    operation) must name StandardUserData, in a file of the package: any
    other class is package code, which tacker-ng does not run."""
    params = task.request.get("additionalParams") or {}
    class_name = params.get(USER_DATA_CLASS_KEY)
    path = params.get(USER_DATA_KEY)
    if class_name is None and path is None:
        return
    if class_name != STANDARD_USER_DATA:
        raise errors.UnsupportedPackage(
            reason=f"additionalParams {USER_DATA_CLASS_KEY} {class_name!r}: "
            f"tacker-ng runs no package code and implements only "
            f"{STANDARD_USER_DATA}"
        )
    relative = str(path or "").removeprefix("./")
    target = (task.package_root / relative).resolve()
    root = task.package_root.resolve()
    if not relative or root not in target.parents or not target.is_file():
        raise errors.InvalidRequest(
            reason=f"additionalParams {USER_DATA_KEY} {path!r} is not a "
            "file of the package"
        )


def nfv_paths(node: Any) -> list[list[Any]]:
    """Every ``get_param: [nfv, ...]`` path of a template fragment."""
    out: list[list[Any]] = []
    if isinstance(node, dict):
        path = node.get("get_param")
        if isinstance(path, list) and len(path) >= 3 and path[0] == NFV_KEY:
            out.append(path)
        for value in node.values():
            out += nfv_paths(value)
    elif isinstance(node, list):
        for value in node:
            out += nfv_paths(value)
    return out


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch of ``patch`` over ``target`` (a copy)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def _storage_image(flavour: DeploymentFlavour, node: str, grant: dict) -> str:
    for asset in (grant.get("vimAssets") or {}).get("softwareImages") or []:
        if asset.get("vnfdSoftwareImageId") == node:
            return str(asset.get("vimSoftwareImageId"))
    data = flavour.virtual_storages[node].sw_image_data
    return data.name if data is not None else ""


def _ext_cps(task: base.LcmTask) -> dict[str, dict[str, Any]]:
    """cpdId -> VnfExtCpData of the request, else of the instance."""
    links = task.request.get("extVirtualLinks")
    if links is not None:
        cps = [cp for link in links for cp in link.get("extCps") or []]
    else:
        info = task.instance.get("instantiatedVnfInfo") or {}
        cps = [
            cp
            for link in info.get("extVirtualLinkInfo") or []
            for cp in link.get("currentVnfExtCpData") or []
        ]
    return {cp["cpdId"]: cp for cp in cps if "cpdId" in cp}


def _addresses(cp: dict[str, Any]) -> list[dict[str, Any]]:
    """The first cpConfig's IP addresses, as Heat ``fixed_ips`` entries."""
    configs = list((cp.get("cpConfig") or {}).values())
    out = []
    for data in (configs[0] if configs else {}).get("cpProtocolData") or []:
        ip_eth = data.get("ipOverEthernet") or {}
        for address in ip_eth.get("ipAddresses") or []:
            entry = {}
            if address.get("subnetId"):
                entry["subnet"] = address["subnetId"]
            if address.get("fixedAddresses"):
                entry["ip_address"] = address["fixedAddresses"][0]
            out.append(entry)
    return out


def complete_nfv(
    nfv: dict[str, Any],
    task: base.LcmTask,
    flavour: DeploymentFlavour,
    template: dict[str, Any],
) -> dict[str, Any]:
    """``nfv`` with storage images, fixed IPs and the request's patch."""
    result = copy.deepcopy(nfv)
    vdu, cp = result.setdefault("VDU", {}), result.setdefault("CP", {})
    ext = _ext_cps(task)
    for path in nfv_paths(template.get("resources") or {}):
        section, name = path[1], path[2]
        if (
            section == "VDU"
            and name not in vdu
            and name in flavour.virtual_storages
        ):
            vdu[name] = {
                "vcImageId": _storage_image(flavour, name, task.grant)
            }
        if section == "CP" and len(path) >= 4 and path[3] == "fixed_ips":
            match = _INDEXED.match(name)
            cpd = name if name in ext or not match else match.group("cpd")
            if cpd in ext:
                cp.setdefault(name, {})["fixed_ips"] = _addresses(ext[cpd])
    patch = (task.request.get("additionalParams") or {}).get(NFV_KEY)
    if isinstance(patch, dict):
        result = merge_patch(result, patch)
    return result


def managed_networks(task: base.LcmTask) -> dict[str, str]:
    """vnfVirtualLinkDescId -> network of the NFVO-managed internal VLs
    (the request's, else those the instance records)."""
    links = task.request.get("extManagedVirtualLinks")
    if links is None:
        info = task.instance.get("instantiatedVnfInfo") or {}
        return {
            link["vnfVirtualLinkDescId"]: link["networkResource"]["resourceId"]
            for link in info.get("extManagedVirtualLinkInfo") or []
            if link.get("networkResource")
        }
    return {
        link["vnfVirtualLinkDescId"]: link["resourceId"]
        for link in links
        if link.get("vnfVirtualLinkDescId") and link.get("resourceId")
    }


def _replace_refs(node: Any, networks: dict[str, str]) -> Any:
    if isinstance(node, dict):
        if set(node) == {"get_resource"} and node["get_resource"] in networks:
            return networks[node["get_resource"]]
        return {k: _replace_refs(v, networks) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_refs(v, networks) for v in node]
    return node


def apply_managed_vls(
    template: dict[str, Any], networks: dict[str, str]
) -> dict[str, Any]:
    """The top template with each managed VL's Net and Subnets removed and
    references to the Net replaced by the NFVO's network id."""
    resources = template.get("resources") or {}
    used = {
        name: net
        for name, net in networks.items()
        if (resources.get(name) or {}).get("type") == _NET
    }
    if not used:
        return template
    kept = {}
    for name, resource in resources.items():
        if name in used:
            continue
        props = (resource or {}).get("properties") or {}
        network = props.get("network")
        if (
            resource.get("type") == _SUBNET
            and isinstance(network, dict)
            and network.get("get_resource") in used
        ):
            continue
        kept[name] = _replace_refs(resource, used)
    out = dict(template)
    out["resources"] = kept
    return out


def managed_vl_info(
    task: base.LcmTask, vim_id: str
) -> list[dict[str, Any]] | None:
    """extManagedVirtualLinkInfo to record (None: keep what is there)."""
    links = task.request.get("extManagedVirtualLinks")
    if links is None:
        return None
    return [
        {
            "id": link["id"],
            "vnfVirtualLinkDescId": link["vnfVirtualLinkDescId"],
            "networkResource": {
                "vimConnectionId": link.get("vimConnectionId", vim_id),
                "resourceId": link["resourceId"],
                "vimLevelResourceType": _NET,
            },
        }
        for link in links
    ]


def _resource_refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        if set(node) == {"get_resource"} and isinstance(
            node["get_resource"], str
        ):
            return {node["get_resource"]}
        return {r for v in node.values() for r in _resource_refs(v)}
    if isinstance(node, list):
        return {r for v in node for r in _resource_refs(v)}
    return set()


def order_subnets(template: dict[str, Any]) -> dict[str, Any]:
    """Resources using a template's ``OS::Neutron::Net`` depend on its
    subnets too. Tacker's BaseHOTs pass the net to nested VDU templates
    whose ports take addresses from the subnet; without the dependency
    Heat deletes the subnet while those ports still exist and Neutron
    refuses ("One or more ports have an IP allocation")."""
    resources = template.get("resources") or {}
    subnets: dict[str, list[str]] = {}
    for name, resource in resources.items():
        if (resource or {}).get("type") != _SUBNET:
            continue
        net = ((resource.get("properties") or {}).get("network")) or {}
        if isinstance(net, dict) and isinstance(net.get("get_resource"), str):
            subnets.setdefault(net["get_resource"], []).append(name)
    if not subnets:
        return template
    out = {}
    for name, resource in resources.items():
        if (resource or {}).get("type") in (_NET, _SUBNET):
            out[name] = resource
            continue
        wanted = [
            s
            for net in sorted(_resource_refs(resource) & set(subnets))
            for s in subnets[net]
        ]
        deps = resource.get("depends_on")
        deps = [deps] if isinstance(deps, str) else list(deps or [])
        missing = [s for s in wanted if s not in deps]
        out[name] = (
            {**resource, "depends_on": deps + missing} if missing else resource
        )
    return {**template, "resources": out}
