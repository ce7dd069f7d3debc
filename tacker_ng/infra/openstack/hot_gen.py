"""Heat templates generated from the VNFD, for a flavour without BaseHOT.

The result has the shape of a package's StandardUserData BaseHOT (what
:func:`.hot.load` returns): a top template with the ``nfv`` JSON
parameter and one resource per VDU, of type ``<VDU>.yaml``, whose nested
template is one VNFC: an ``OS::Nova::Server`` (flavour, image and zone
from ``nfv.VDU.<VDU>``, which :func:`.hot.expand` renames per VNFC), an
``OS::Neutron::Port`` per ``VduCp`` and an ``OS::Cinder::Volume`` plus
attachment per ``Vdu.VirtualBlockStorage``. Internal virtual links are an
``OS::Neutron::Net`` and ``OS::Neutron::Subnet`` of the top template.

Placement rules are not written here: ``nfvi_node`` rules become server
groups in :mod:`.server_groups` (as for a BaseHOT) and zone rules go
through the grant. Node names become Heat resource and file names, so
only plain names are accepted (:data:`NAME`), and no generated name may
clash with a node's.
"""

import ipaddress
import math
import re
from typing import Any

import yaml

from tacker_ng.infra.openstack import errors
from tacker_ng.infra.openstack.vnfcs import SERVER_TYPE
from tacker_ng.objects.vnfd import (
    DeploymentFlavour,
    VduCp,
    VirtualBlockStorage,
    VnfVirtualLink,
)

HEAT_VERSION = "2021-04-16"
#: Node names usable as Heat resource and template file names.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
SUBNET_SUFFIX = "_subnet"
ATTACHMENT_SUFFIX = "_attachment"
NESTED_SUFFIX = ".yaml"
#: Subnet of an internal VL whose VNFD gives no ``l3_protocol_data``
#: cidr: ``192.168.<100 + n>.0/24`` (IPv4) or ``fd00:0:0:<n>::/64``
#: (IPv6), n the VL's position among the flavour's VLs sorted by name.
#: Internal networks have no router: the ranges differ inside one VNF.
DEFAULT_V4 = "192.168.{n}.0/24"
DEFAULT_V4_BASE = 100
DEFAULT_V6 = "fd00:0:0:{n:x}::/64"
_GIB = 1 << 30


def _refuse(
    flavour: DeploymentFlavour, reason: str
) -> errors.UnsupportedPackage:
    return errors.UnsupportedPackage(
        reason=f"flavour {flavour.flavour_id} has no BaseHOT and its Heat "
        f"template cannot be generated: {reason}"
    )


def _param(*path: str) -> dict[str, list[str]]:
    return {"get_param": list(path)}


def _check_names(flavour: DeploymentFlavour) -> None:
    """Node names are plain and no generated name hits another one."""
    nodes = [
        *flavour.vdus,
        *flavour.vdu_cps,
        *flavour.virtual_links,
        *flavour.virtual_storages,
    ]
    for name in nodes:
        if not NAME.fullmatch(name):
            raise _refuse(
                flavour,
                f"node name {name!r} is not a plain name (letters, digits, "
                "'_', '.', '-'; a letter or digit first; at most 100)",
            )
    taken = set(nodes)
    made = [f"{vl}{SUBNET_SUFFIX}" for vl in flavour.virtual_links]
    made += [f"{s}{ATTACHMENT_SUFFIX}" for s in flavour.virtual_storages]
    clash = sorted(set(made) & taken)
    if clash:
        raise _refuse(
            flavour,
            f"node name(s) {', '.join(clash)} are "
            "names the generator gives other resources",
        )
    for vdu in flavour.vdus:
        vnfc = re.compile(re.escape(vdu) + r"-[0-9]+")
        hit = sorted(n for n in taken | set(made) if vnfc.fullmatch(n))
        if hit:
            raise _refuse(
                flavour,
                f"node name(s) {', '.join(hit)} look like a VNFC of {vdu}"
                f" ({vdu}-<n>), the name of its stack resource",
            )


def _cps_of(flavour: DeploymentFlavour, vdu: str) -> list[VduCp]:
    """The VDU's connection points in ``order`` (then name)."""
    cps = [flavour.vdu_cps[c] for c in flavour.vdus[vdu].cps]
    return sorted(
        cps,
        key=lambda c: (c.order is None, c.order or 0, c.node_name),
    )


def l3_data(link: VnfVirtualLink) -> dict[str, Any]:
    """The first ``l3_protocol_data`` of the VL's ``vl_profile``, if any."""
    for item in link.vl_profile.get("virtual_link_protocol_data") or []:
        if isinstance(item, dict) and isinstance(
            item.get("l3_protocol_data"), dict
        ):
            return item["l3_protocol_data"]
    return {}


def subnet(link: VnfVirtualLink, n: int) -> dict[str, Any]:
    """``OS::Neutron::Subnet`` properties of internal VL ``link``.

    ``n`` is the VL's position by name (see :data:`DEFAULT_V4`).
    """
    data = l3_data(link)
    v6 = data.get("ip_version") == "ipv6" or (
        not data and "ipv6" in link.layer_protocols
    )
    cidr = data.get("cidr")
    if cidr is None:
        cidr = (
            DEFAULT_V6.format(n=n)
            if v6
            else (DEFAULT_V4.format(n=DEFAULT_V4_BASE + n))
        )
    try:
        net = ipaddress.ip_network(str(cidr), strict=False)
    except ValueError:
        raise errors.UnsupportedPackage(
            reason=f"virtual link {link.node_name}: cidr {cidr!r} is not "
            "an IP network"
        ) from None
    props: dict[str, Any] = {
        "network": {"get_resource": link.node_name},
        "ip_version": net.version,
        "cidr": str(net),
    }
    if data.get("gateway_ip"):
        props["gateway_ip"] = str(data["gateway_ip"])
    if data.get("dhcp_enabled") is not None:
        props["enable_dhcp"] = bool(data["dhcp_enabled"])
    pools = [
        {"start": str(p["start_ip_address"]), "end": str(p["end_ip_address"])}
        for p in data.get("ip_allocation_pools") or []
        if isinstance(p, dict)
        and p.get("start_ip_address")
        and p.get("end_ip_address")
    ]
    if pools:
        props["allocation_pools"] = pools
    return props


def volume(storage: VirtualBlockStorage) -> dict[str, Any]:
    """``OS::Cinder::Volume`` properties: size in GiB (rounded up, at
    least 1) and the image of ``sw_image_data`` (Glance name) if any."""
    props: dict[str, Any] = {
        "size": max(1, math.ceil(storage.size_of_storage / _GIB))
    }
    if storage.sw_image_data is not None:
        props["image"] = storage.sw_image_data.name
    return props


def nested_template(flavour: DeploymentFlavour, vdu: str) -> dict[str, Any]:
    """One VNFC of ``vdu``: its server, ports, volumes and attachments.

    Parameters: ``flavor``, ``image``, ``zone`` and ``cp<i>_network``
    for the i-th CP (see :func:`_cps_of`).
    """
    model = flavour.vdus[vdu]
    params: dict[str, Any] = {
        "flavor": {"type": "string"},
        "image": {"type": "string"},
        "zone": {"type": "string", "default": ""},
    }
    resources: dict[str, Any] = {}
    networks = []
    for i, cp in enumerate(_cps_of(flavour, vdu)):
        params[f"cp{i}_network"] = {
            "type": "string",
            "description": f"network of {cp.node_name}",
        }
        port: dict[str, Any] = {"network": {"get_param": f"cp{i}_network"}}
        if cp.vnic_type:
            port["binding:vnic_type"] = cp.vnic_type
        resources[cp.node_name] = {
            "type": "OS::Neutron::Port",
            "properties": port,
        }
        networks.append({"port": {"get_resource": cp.node_name}})
    resources[vdu] = {
        "type": SERVER_TYPE,
        "properties": {
            "name": model.name,
            "flavor": {"get_param": "flavor"},
            "image": {"get_param": "image"},
            "availability_zone": {"get_param": "zone"},
            "networks": networks,
        },
    }
    for name in model.virtual_storages:
        resources[name] = {
            "type": "OS::Cinder::Volume",
            "properties": volume(flavour.virtual_storages[name]),
        }
        resources[f"{name}{ATTACHMENT_SUFFIX}"] = {
            "type": "OS::Cinder::VolumeAttachment",
            "properties": {
                "instance_uuid": {"get_resource": vdu},
                "volume_id": {"get_resource": name},
            },
        }
    return {
        "heat_template_version": HEAT_VERSION,
        "description": f"One VNFC of VDU {vdu}, generated by tacker-ng "
        "from the VNFD",
        "parameters": params,
        "resources": resources,
    }


def top_template(flavour: DeploymentFlavour) -> dict[str, Any]:
    """The top template: internal VLs and one nested resource per VDU.

    A CP on an internal VL gets the VL's network (and waits for its
    subnet); any other CP reads ``nfv.CP.<CP>.network``, which the
    InstantiateVnfRequest's extVirtualLinks give.
    """
    resources: dict[str, Any] = {}
    for n, (name, vl) in enumerate(sorted(flavour.virtual_links.items())):
        resources[name] = {"type": "OS::Neutron::Net"}
        resources[f"{name}{SUBNET_SUFFIX}"] = {
            "type": "OS::Neutron::Subnet",
            "properties": subnet(vl, n),
        }
    for vdu in flavour.vdus:
        props: dict[str, Any] = {
            "flavor": _param("nfv", "VDU", vdu, "computeFlavourId"),
            "image": _param("nfv", "VDU", vdu, "vcImageId"),
            "zone": _param("nfv", "VDU", vdu, "locationConstraints"),
        }
        deps = []
        for i, cp in enumerate(_cps_of(flavour, vdu)):
            link = cp.virtual_link
            if link is not None and link in flavour.virtual_links:
                props[f"cp{i}_network"] = {"get_resource": link}
                deps.append(f"{link}{SUBNET_SUFFIX}")
            else:
                props[f"cp{i}_network"] = _param(
                    "nfv", "CP", cp.node_name, "network"
                )
        item: dict[str, Any] = {
            "type": f"{vdu}{NESTED_SUFFIX}",
            "properties": props,
        }
        if deps:
            item["depends_on"] = sorted(set(deps))
        resources[vdu] = item
    return {
        "heat_template_version": HEAT_VERSION,
        "description": f"Flavour {flavour.flavour_id}, generated by "
        "tacker-ng from the VNFD (no BaseHOT in the package)",
        "parameters": {"nfv": {"type": "json"}},
        "resources": resources,
    }


def generate(
    flavour: DeploymentFlavour,
) -> tuple[dict[str, Any], dict[str, str]]:
    """(top template, files for Heat: nested template name -> text)."""
    if not flavour.vdus:
        raise _refuse(flavour, "it has no VDU")
    _check_names(flavour)
    files = {
        f"{vdu}{NESTED_SUFFIX}": yaml.safe_dump(
            nested_template(flavour, vdu), sort_keys=False
        )
        for vdu in sorted(flavour.vdus)
    }
    return top_template(flavour), files
